#!/usr/bin/env bash
# Install the Mandala Table Companion as a service on Raspberry Pi OS (64-bit)
# Bookworm or Trixie.
#
#   sudo hardware/install.sh             install or update, then (re)start the service
#   hardware/install.sh --dry-run        print every command that would change the system, change nothing
#   sudo hardware/install.sh --no-start  install and enable, but do not start now
#
# Safe to run again: every step first looks whether it is already done and
# says "ok: ..." when it is. A step that fails is reported with what to do,
# and the steps after it still run; the script ends with a summary (exit 1
# when a step failed). docs/install.md explains each step.
#
# The paths can be moved for tests with environment variables:
#   PREFIX (/opt/mandala-companion), ETC_DIR (/etc/mandala-companion),
#   UNIT_DIR (/etc/systemd/system), BOOT_CONFIG (/boot/firmware/config.txt),
#   POLKIT_DIR (/etc/polkit-1/rules.d), BIN_DIR (/usr/local/bin);
# ADMIN_USER (default: the user who ran sudo, else uid 1000) joins the admin group.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-/opt/mandala-companion}
ETC_DIR=${ETC_DIR:-/etc/mandala-companion}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
BOOT_CONFIG=${BOOT_CONFIG:-/boot/firmware/config.txt}
POLKIT_DIR=${POLKIT_DIR:-/etc/polkit-1/rules.d}
BIN_DIR=${BIN_DIR:-/usr/local/bin}
POLKIT_RULE=50-mandala-companion.rules
SERVICE_USER=mandala-companion
# The service user's own group is the admin group: its members read the journal,
# write calibrations and may pause the service (the polkit rule).
ADMIN_GROUP=mandala-companion
SERVICE=mandala-companion.service
GROUPS_NEEDED=(video i2c gpio)
# picamera2 0.3.17 is the first whose wait(job, timeout=...) takes a timeout: every camera read needs it.
PICAMERA2_MIN=0.3.17
# python3-picamera2 brings libcamera and the release's numpy (Bookworm 1.24,
# Trixie 2.x), which the venv reuses; libzbar0 is pyzbar's decoder; libgl1 and
# libglib2.0-0 are what the opencv-python wheel links to (Lite images lack
# libGL); python3-lgpio is the GPIO backend gpiozero uses on a Pi 5 (a pip
# build would need swig); polkitd lets the service user power off from the
# menu (Lite may not have it); fonts-dejavu-core writes the Persian (shaped by
# Pillow's libraqm), Greek and Russian screens. "a|b": either name will do;
# Trixie renamed some libraries for 64-bit time (the t64 names).
APT_PACKAGES=(python3-venv python3-picamera2 python3-lgpio "libzbar0|libzbar0t64" i2c-tools libgl1
              "libglib2.0-0|libglib2.0-0t64" rsync polkitd fonts-dejavu-core)

dry_run=false
start=true
for arg in "$@"; do
    case $arg in
        --dry-run) dry_run=true ;;
        --no-start) start=false ;;
        -h | --help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
ok() { printf 'ok: %s\n' "$*"; }
problem() { printf 'PROBLEM: %s\n' "$*"; }

# Every command that changes the system goes through run: printed, and run
# unless --dry-run; its exit status is returned. Look-ups that change nothing
# run directly, so a dry run shows what this machine still needs.
run() {
    printf '+ %s\n' "$*"
    if ! $dry_run; then "$@"; fi
}

if ! $dry_run && [ "$(id -u)" -ne 0 ]; then
    say "install.sh: run as root: sudo $0 $*" >&2
    exit 1
fi

codename=unknown

check_system() {
    step "system"
    # shellcheck disable=SC1091  # present on every Debian-based system
    codename=$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-unknown}")
    case $codename in
        bookworm | trixie) ok "Raspberry Pi OS / Debian $codename" ;;
        *) say "warning: this is $codename, not Bookworm or Trixie; the apt package names may differ" ;;
    esac
    if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
        say "warning: this is not a Raspberry Pi; the camera, I2C and GPIO steps will not find hardware"
    else
        ok "$(tr -d '\0' < /proc/device-tree/model)"
    fi
}

installed() { # PACKAGE
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

installable() { # PACKAGE...: prints those apt could install (one apt-cache call: it is slow on big lists)
    apt-cache policy "$@" 2>/dev/null | awk '/^[^ ]/ { name = $1; sub(/:$/, "", name) }
                                            /Candidate: / && $2 != "(none)" { print name }'
}

install_packages() {
    step "apt packages"
    local missing=() wanted name names
    for wanted in "${APT_PACKAGES[@]}"; do
        IFS='|' read -r -a names <<< "$wanted"
        for name in "${names[@]}"; do
            installed "$name" && continue 2
        done
        missing+=("$wanted")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        ok "all installed: ${APT_PACKAGES[*]}"
        return 0
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get update || {
        problem "apt-get update failed: check the network (ping deb.debian.org) and run this again"
        return 1
    }
    local chosen=() known all=()
    for wanted in "${missing[@]}"; do
        IFS='|' read -r -a names <<< "$wanted"
        all+=("${names[@]}")
    done
    known=" $(installable "${all[@]}" | tr '\n' ' ') "
    for wanted in "${missing[@]}"; do
        IFS='|' read -r -a names <<< "$wanted"
        name=${names[0]}
        for candidate in "${names[@]}"; do
            if [[ $known == *" $candidate "* ]]; then name=$candidate; break; fi
        done
        chosen+=("$name")
    done
    # --no-install-recommends keeps Lite lean: picamera2's recommends pull a desktop preview stack.
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${chosen[@]}" || {
        problem "apt-get install ${chosen[*]} failed (see above); python3-picamera2 and python3-lgpio come" \
            "from Raspberry Pi's archive (archive.raspberrypi.com), which Raspberry Pi OS lists"
        return 1
    }
}

camera_stack() {
    step "camera stack (picamera2 $PICAMERA2_MIN or later)"
    local version
    version=$(dpkg-query -W -f='${Version}' python3-picamera2 2>/dev/null || true)
    if [ -z "$version" ]; then
        $dry_run && { say "python3-picamera2 is not installed yet (the apt step installs it)"; return 0; }
        problem "python3-picamera2 is not installed: sudo apt install -y --no-install-recommends python3-picamera2"
        return 1
    fi
    if dpkg --compare-versions "$version" ge "$PICAMERA2_MIN"; then
        ok "python3-picamera2 $version"
        return 0
    fi
    say "python3-picamera2 $version is older than $PICAMERA2_MIN: upgrading it"
    run env DEBIAN_FRONTEND=noninteractive apt-get update &&
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y --only-upgrade --no-install-recommends \
            python3-picamera2 python3-libcamera
    $dry_run && return 0
    version=$(dpkg-query -W -f='${Version}' python3-picamera2 2>/dev/null || true)
    if dpkg --compare-versions "$version" ge "$PICAMERA2_MIN"; then
        ok "python3-picamera2 $version"
        return 0
    fi
    problem "python3-picamera2 is still $version; the companion needs $PICAMERA2_MIN or later (camera reads" \
        "with a time limit). Update the system (sudo apt update && sudo apt full-upgrade), then run this again"
    return 1
}

enable_i2c() {
    step "I2C for the OLED"
    if command -v raspi-config >/dev/null && [ "$(raspi-config nonint get_i2c 2>/dev/null)" = 0 ]; then
        ok "I2C is enabled"
    elif command -v raspi-config >/dev/null || $dry_run; then
        # 0 means enable: dtparam=i2c_arm=on, i2c-dev in /etc/modules, loaded now.
        run raspi-config nonint do_i2c 0 || { problem "raspi-config nonint do_i2c 0 failed"; return 1; }
    else
        say "warning: no raspi-config here; enable I2C by hand (dtparam=i2c_arm=on in $BOOT_CONFIG)"
    fi
    # 400 kHz: the default 100 kHz bus makes a full OLED refresh take ~3x longer.
    if grep -qs '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG"; then
        ok "I2C speed already set in $BOOT_CONFIG"
    else
        run sh -c "printf '%s\n' 'dtparam=i2c_arm_baudrate=400000' >> '$BOOT_CONFIG'" || return 1
        say "note: the I2C speed takes effect after a reboot"
    fi
}

admin_user() {
    if [ -n "${ADMIN_USER:-}" ]; then
        printf '%s' "$ADMIN_USER"
    elif [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
        printf '%s' "$SUDO_USER"
    else
        # The first user, as Raspberry Pi Imager makes it (uid 1000).
        getent passwd 1000 | cut -d: -f1
    fi
}

create_user() {
    step "service user, groups and the admin group"
    local group groups_now admin
    for group in "${GROUPS_NEEDED[@]}"; do
        if getent group "$group" >/dev/null; then
            ok "group $group exists"
        else
            # Pi OS makes i2c and gpio (raspberrypi-sys-mods); elsewhere make them so the unit starts.
            run groupadd --system "$group" || return 1
        fi
    done
    if getent passwd "$SERVICE_USER" >/dev/null; then
        ok "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --no-create-home --home-dir /var/lib/mandala-companion \
            --shell /usr/sbin/nologin "$SERVICE_USER" || return 1
    fi
    groups_now=" $(id -nG "$SERVICE_USER" 2>/dev/null || true) "
    local lacking=false
    for group in "${GROUPS_NEEDED[@]}"; do
        [[ $groups_now == *" $group "* ]] || lacking=true
    done
    if $lacking; then
        run usermod --append --groups "$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")" "$SERVICE_USER" || return 1
    else
        ok "$SERVICE_USER is in ${GROUPS_NEEDED[*]}"
    fi
    admin=$(admin_user)
    if [ -z "$admin" ]; then
        say "note: no login user found for the admin group; add one later: sudo usermod -aG $ADMIN_GROUP USER"
    elif [[ " $(id -nG "$admin" 2>/dev/null || true) " == *" $ADMIN_GROUP "* ]]; then
        ok "$admin is in the admin group $ADMIN_GROUP"
    else
        # Members read the journal (companion games list) and calibrate beside the service.
        run usermod --append --groups "$ADMIN_GROUP" "$admin" || return 1
        say "note: $admin is in the admin group $ADMIN_GROUP from the next login"
    fi
}

copy_project() {
    step "project in $PREFIX"
    if [ "$(cd "$here" && pwd -P)" = "$(cd "$PREFIX" 2>/dev/null && pwd -P)" ]; then
        ok "running from $PREFIX itself"
        return 0
    fi
    run install -d -m 0755 "$PREFIX" || return 1
    # --delete keeps the copy exact (files removed upstream go); the venv and VCS data stay.
    run rsync -a --delete --exclude=/.venv/ --exclude=/.git/ --exclude=__pycache__/ --exclude='*.egg-info/' \
        --exclude=/.pytest_cache/ --exclude=/.pytest-tmp/ --exclude=/.mypy_cache/ --exclude=/.ruff_cache/ --exclude=/.hypothesis/ \
        --exclude=/.pip-constraints.txt "$here/" "$PREFIX/" || { problem "copying the project failed"; return 1; }
}

python_env() {
    step "Python environment in $PREFIX/.venv"
    local venv=$PREFIX/.venv numpy_version constraints=$PREFIX/.pip-constraints.txt
    if [ -x "$venv/bin/python" ] && grep -qs '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
        ok "venv exists and sees the apt packages"
    else
        # --system-site-packages: picamera2 and libcamera exist only as apt packages.
        run python3 -m venv --system-site-packages "$venv" || { problem "python3 -m venv failed"; return 1; }
    fi
    # numpy is the release's own (Bookworm 1.24, Trixie 2.x): the apt picamera2 stack
    # (simplejpeg) is built against it and fails with "numpy.dtype size changed" on
    # another. The constraint keeps pip from bringing its own; opencv-python 4.11 works with both.
    numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    if [ -z "$numpy_version" ]; then
        problem "the system has no numpy (python3-numpy comes with python3-picamera2): see the apt step"
        $dry_run || return 1
        numpy_version=unknown
    fi
    run sh -c "printf 'numpy==%s\n' '$numpy_version' > '$constraints'" || return 1
    say "(pip downloads the wheels; on a Pi this takes a few minutes)"
    # Editable: the package stays in $PREFIX beside calibration/, which relative paths in the config use.
    run "$venv/bin/python" -m pip install --disable-pip-version-check --quiet --constraint "$constraints" \
        --editable "$PREFIX" || { problem "pip install failed (see above); check the network and run this again"
                                  return 1; }
    # The venv must import OpenCV on the system's numpy, or the camera stack breaks.
    run "$venv/bin/python" -c "import numpy, cv2; assert numpy.__version__ == '$numpy_version', numpy.__version__" ||
        { problem "the venv's numpy is not the system's $numpy_version"; return 1; }
}

link_command() {
    step "companion on the PATH"
    local target=$PREFIX/.venv/bin/companion
    if [ "$(readlink "$BIN_DIR/companion" 2>/dev/null)" = "$target" ]; then
        ok "$BIN_DIR/companion -> $target"
    else
        run install -d -m 0755 "$BIN_DIR" && run ln -sfn "$target" "$BIN_DIR/companion" || return 1
    fi
}

install_config() {
    step "configuration in $ETC_DIR"
    run install -d -m 0755 "$ETC_DIR" || return 1
    if [ -e "$ETC_DIR/config.toml" ]; then
        ok "keeping the existing $ETC_DIR/config.toml"
    else
        run install -m 0644 "$here/hardware/config.example.toml" "$ETC_DIR/config.toml" || return 1
    fi
}

allow_power_off() {
    step "power off from the menu, pausing the service from the admin group"
    if cmp -s "$here/hardware/polkit/$POLKIT_RULE" "$POLKIT_DIR/$POLKIT_RULE"; then
        ok "polkit rule is current"
    else
        # polkitd watches its rules folder: no restart needed.
        run install -D -m 0644 "$here/hardware/polkit/$POLKIT_RULE" "$POLKIT_DIR/$POLKIT_RULE" || return 1
    fi
}

# The phone view ([web] listen in config.toml) needs IP sockets and the local network, which the
# unit denies: a drop-in grants them while the view is on, and is removed when it is off.
network_for_web() {
    step "network for the phone view"
    local folder="$UNIT_DIR/$SERVICE.d" want
    if [ ! -x "$PREFIX/.venv/bin/companion" ] && $dry_run; then
        say "would ask \`companion web drop-in\` whether [web] listen is set"
        return 0
    fi
    if ! want=$("$PREFIX/.venv/bin/companion" web drop-in --config "$ETC_DIR/config.toml"); then
        problem "cannot read $ETC_DIR/config.toml (see above): fix it, then run this again"
        return 1
    fi
    if [ -z "$want" ]; then
        if [ -e "$folder/web.conf" ]; then
            run rm -f "$folder/web.conf" && run systemctl daemon-reload || return 1
        fi
        ok "phone view off: the service keeps no network"
    elif [ "$want" = "$(cat "$folder/web.conf" 2>/dev/null)" ]; then
        ok "phone view on: $folder/web.conf is current"
    else
        if $dry_run; then
            say "would write $folder/web.conf:"; printf '%s\n' "$want" | sed 's/^/    /'
        else
            install -d -m 0755 "$folder" && printf '%s\n' "$want" > "$folder/web.conf" || return 1
            chmod 0644 "$folder/web.conf"
        fi
        run systemctl daemon-reload || return 1
    fi
}

install_service() {
    step "service $SERVICE"
    if cmp -s "$here/systemd/$SERVICE" "$UNIT_DIR/$SERVICE"; then
        ok "unit file is current"
    else
        run install -m 0644 "$here/systemd/$SERVICE" "$UNIT_DIR/$SERVICE" || return 1
        run systemctl daemon-reload || return 1
    fi
    if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
        ok "$SERVICE is enabled"
    else
        run systemctl enable "$SERVICE" || return 1
    fi
    $start || return 0
    # restart, not start: an update must replace the running code. The service is
    # ready as soon as its journal is open, with or without camera and panel.
    if ! run timeout 120 systemctl restart "$SERVICE"; then
        problem "$SERVICE did not start; its last lines:"
        systemctl status --no-pager --lines=15 "$SERVICE" 2>&1 | sed 's/^/    /'
        return 1
    fi
    $dry_run || ok "$SERVICE is $(systemctl is-active "$SERVICE" 2>/dev/null)"
}

check_installation() {
    step "check"
    if [ ! -x "$PREFIX/.venv/bin/companion" ] && ! $dry_run; then
        problem "no $PREFIX/.venv/bin/companion to check with: see the Python step above"
        return 1
    fi
    # doctor exits 1 when it finds a problem (no camera yet, no panel yet): that is advice, not a failed install.
    run runuser -u "$SERVICE_USER" -- "$PREFIX/.venv/bin/companion" doctor --no-input --config "$ETC_DIR/config.toml" ||
        say "doctor found problems: see above; fix them, then: sudo systemctl restart $SERVICE"
    return 0
}

$dry_run && say "dry run: printing the commands that would change the system, changing nothing"
failed=()
for task in check_system install_packages camera_stack enable_i2c create_user copy_project python_env link_command \
            install_config allow_power_off network_for_web install_service check_installation; do
    "$task" || failed+=("$task")
done
step "done"
say "logs: journalctl -u $SERVICE -f    state: systemctl status $SERVICE    check: companion doctor"
if [ ${#failed[@]} -gt 0 ]; then
    problem "${#failed[@]} step(s) failed: ${failed[*]}; fix what they say above, then run this again"
    exit 1
fi
say "installed: the service runs; a camera or panel connected later is picked up by itself"
