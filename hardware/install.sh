#!/usr/bin/env bash
# Install the Mandala Table Companion on Raspberry Pi OS Bookworm as a service.
#
#   sudo hardware/install.sh             install or update, then (re)start the service
#   hardware/install.sh --dry-run        print every command that would change the system, change nothing
#   sudo hardware/install.sh --no-start  install and enable, but do not start now
#
# Safe to run again: every step first looks whether it is already done and
# says "ok: ..." when it is. docs/install.md explains each step.
#
# The paths can be moved for tests with environment variables:
#   PREFIX (/opt/mandala-companion), ETC_DIR (/etc/mandala-companion),
#   UNIT_DIR (/etc/systemd/system), BOOT_CONFIG (/boot/firmware/config.txt),
#   POLKIT_DIR (/etc/polkit-1/rules.d).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-/opt/mandala-companion}
ETC_DIR=${ETC_DIR:-/etc/mandala-companion}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
BOOT_CONFIG=${BOOT_CONFIG:-/boot/firmware/config.txt}
POLKIT_DIR=${POLKIT_DIR:-/etc/polkit-1/rules.d}
POLKIT_RULE=50-mandala-companion.rules
SERVICE_USER=mandala-companion
SERVICE=mandala-companion.service
GROUPS_NEEDED=(video i2c gpio)
# python3-picamera2 brings libcamera and Bookworm's numpy 1.24 (which the venv
# reuses); libzbar0 is pyzbar's decoder; libgl1 and libglib2.0-0 are what the
# opencv-python wheel links to (Lite images lack libGL); python3-lgpio is the
# GPIO backend gpiozero uses on a Pi 5 (a pip build would need swig); polkitd
# lets the service user power off from the menu (Lite may not have it).
APT_PACKAGES=(python3-venv python3-picamera2 python3-lgpio libzbar0 i2c-tools libgl1 libglib2.0-0 rsync polkitd)

dry_run=false
start=true
for arg in "$@"; do
    case $arg in
        --dry-run) dry_run=true ;;
        --no-start) start=false ;;
        -h | --help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
ok() { printf 'ok: %s\n' "$*"; }

# Every command that changes the system goes through run: printed, and run
# unless --dry-run. Look-ups that change nothing run directly, so a dry run
# shows what this machine still needs.
run() {
    printf '+ %s\n' "$*"
    if ! $dry_run; then "$@"; fi
}

if ! $dry_run && [ "$(id -u)" -ne 0 ]; then
    say "install.sh: run as root: sudo $0 $*" >&2
    exit 1
fi

check_system() {
    step "system"
    # shellcheck disable=SC1091  # present on every Debian-based system
    codename=$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-unknown}")
    if [ "$codename" != bookworm ]; then
        say "warning: this is $codename, not Bookworm; the apt package names may differ"
    fi
    if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
        say "warning: this is not a Raspberry Pi; the camera, I2C and GPIO steps will not find hardware"
    else
        ok "$(tr -d '\0' < /proc/device-tree/model)"
    fi
}

install_packages() {
    step "apt packages"
    local missing=()
    for package in "${APT_PACKAGES[@]}"; do
        if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            continue
        fi
        missing+=("$package")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        ok "all installed: ${APT_PACKAGES[*]}"
        return
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get update
    # --no-install-recommends keeps Lite lean: picamera2's recommends pull a desktop preview stack.
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

enable_i2c() {
    step "I2C for the OLED"
    if command -v raspi-config >/dev/null && [ "$(raspi-config nonint get_i2c 2>/dev/null)" = 0 ]; then
        ok "I2C is enabled"
    elif command -v raspi-config >/dev/null || $dry_run; then
        # 0 means enable: dtparam=i2c_arm=on, i2c-dev in /etc/modules, loaded now.
        run raspi-config nonint do_i2c 0
    else
        say "warning: no raspi-config here; enable I2C by hand (dtparam=i2c_arm=on in $BOOT_CONFIG)"
    fi
    # 400 kHz: the default 100 kHz bus makes a full OLED refresh take ~3x longer.
    if grep -qs '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG"; then
        ok "I2C speed already set in $BOOT_CONFIG"
    else
        run sh -c "printf '%s\n' 'dtparam=i2c_arm_baudrate=400000' >> '$BOOT_CONFIG'"
        say "note: the I2C speed takes effect after a reboot"
    fi
}

create_user() {
    step "service user and groups"
    for group in "${GROUPS_NEEDED[@]}"; do
        if getent group "$group" >/dev/null; then
            ok "group $group exists"
        else
            # Pi OS makes i2c and gpio (raspberrypi-sys-mods); elsewhere make them so the unit starts.
            run groupadd --system "$group"
        fi
    done
    if getent passwd "$SERVICE_USER" >/dev/null; then
        ok "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --no-create-home --home-dir /var/lib/mandala-companion \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    local groups_now
    groups_now=" $(id -nG "$SERVICE_USER" 2>/dev/null || true) "
    for group in "${GROUPS_NEEDED[@]}"; do
        if [[ $groups_now != *" $group "* ]]; then
            run usermod --append --groups "$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
            return
        fi
    done
    ok "$SERVICE_USER is in ${GROUPS_NEEDED[*]}"
}

copy_project() {
    step "project in $PREFIX"
    if [ "$(cd "$here" && pwd -P)" = "$(cd "$PREFIX" 2>/dev/null && pwd -P)" ]; then
        ok "running from $PREFIX itself"
        return
    fi
    run install -d -m 0755 "$PREFIX"
    # --delete keeps the copy exact (files removed upstream go); the venv and VCS data stay.
    run rsync -a --delete --exclude=/.venv/ --exclude=/.git/ --exclude=__pycache__/ --exclude='*.egg-info/' \
        --exclude=/.pytest_cache/ --exclude=/.mypy_cache/ --exclude=/.ruff_cache/ --exclude=/.hypothesis/ \
        "$here/" "$PREFIX/"
}

python_env() {
    step "Python environment in $PREFIX/.venv"
    local venv=$PREFIX/.venv
    if [ -x "$venv/bin/python" ] && grep -qs '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
        ok "venv exists and sees the apt packages"
    else
        # --system-site-packages: picamera2 and libcamera exist only as apt packages.
        run python3 -m venv --system-site-packages "$venv"
    fi
    # Never let pip bring numpy 2: the apt picamera2 stack (simplejpeg) is built
    # against Bookworm's numpy 1.24 and fails with "numpy.dtype size changed".
    # Pin numpy to the version apt installed, so pip keeps using that one.
    local numpy_version constraints=$PREFIX/.pip-constraints.txt
    numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    if [ -n "$numpy_version" ]; then
        run sh -c "printf 'numpy==%s\n' '$numpy_version' > '$constraints'"
    else
        run sh -c "printf 'numpy<2\n' > '$constraints'"
    fi
    # Editable: the package stays in $PREFIX beside calibration/, which relative paths in the config use.
    run "$venv/bin/python" -m pip install --disable-pip-version-check --quiet --constraint "$constraints" \
        --editable "$PREFIX"
    # The venv must import OpenCV on top of numpy 1.x, or the camera stack breaks.
    run "$venv/bin/python" -c 'import numpy, cv2; assert int(numpy.__version__.split(".")[0]) < 2, numpy.__version__'
}

install_config() {
    step "configuration in $ETC_DIR"
    run install -d -m 0755 "$ETC_DIR"
    if [ -e "$ETC_DIR/config.toml" ]; then
        ok "keeping the existing $ETC_DIR/config.toml"
    else
        run install -m 0644 "$here/hardware/config.example.toml" "$ETC_DIR/config.toml"
    fi
}

install_service() {
    step "service $SERVICE"
    if cmp -s "$here/systemd/$SERVICE" "$UNIT_DIR/$SERVICE"; then
        ok "unit file is current"
    else
        run install -m 0644 "$here/systemd/$SERVICE" "$UNIT_DIR/$SERVICE"
        run systemctl daemon-reload
    fi
    if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
        ok "$SERVICE is enabled"
    else
        run systemctl enable "$SERVICE"
    fi
    if $start; then
        # restart, not start: an update must replace the running code.
        run systemctl restart "$SERVICE"
    fi
}

allow_power_off() {
    step "power off from the menu"
    if cmp -s "$here/hardware/polkit/$POLKIT_RULE" "$POLKIT_DIR/$POLKIT_RULE"; then
        ok "polkit rule is current"
    else
        # polkitd watches its rules folder: no restart needed.
        run install -D -m 0644 "$here/hardware/polkit/$POLKIT_RULE" "$POLKIT_DIR/$POLKIT_RULE"
    fi
}

check_installation() {
    step "check"
    run runuser -u "$SERVICE_USER" -- "$PREFIX/.venv/bin/companion" doctor --config "$ETC_DIR/config.toml" ||
        say "doctor found problems: see above; fix them, then: sudo systemctl restart $SERVICE"
}

$dry_run && say "dry run: printing the commands that would change the system, changing nothing"
check_system
install_packages
enable_i2c
create_user
copy_project
python_env
install_config
allow_power_off
install_service
check_installation
step "done"
say "logs: journalctl -u $SERVICE -f    state: systemctl status $SERVICE"
