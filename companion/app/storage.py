"""Why the machine refused to store something, in words: a full disk, a read-only folder, failing storage.

Errors from SQLite (``sqlite_errorname``) and the OS (``errno``) are told
apart here, so that the journal, the CLI and the doctor never call a full
disk or a read-only folder "damaged" (people would then throw away a healthy
history).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

FULL = (errno.ENOSPC, errno.EDQUOT)
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def storage_problem(error: BaseException, target: Path) -> str | None:
    """Why the storage refused ``target``, in words; None when the trouble is not the storage."""
    name = getattr(error, "sqlite_errorname", None) or ""
    number = getattr(error, "errno", None)
    if name == "SQLITE_FULL" or number in FULL:
        return f"the disk is full ({free_space(target)} free)"
    if number == errno.EROFS or name == "SQLITE_READONLY_DIRECTORY" or (name and read_only_mount(target)):
        return (f"the file system holding {target.parent} is read-only (mounted read-only, or a worn SD card "
                f"that switched itself to read-only)")
    if (name.startswith("SQLITE_READONLY") or name in ("SQLITE_PERM", "SQLITE_CANTOPEN")
            or number in READ_ONLY):
        return permission_problem(target)
    if name.startswith("SQLITE_IOERR") or number == errno.EIO:
        return "input/output error: the storage may be failing (a worn SD card?): copy what matters elsewhere now"
    return None


def permission_problem(target: Path) -> str | None:
    user = user_name()
    for path in (target, target.parent):
        if path.exists() and not os.access(path, os.W_OK):
            kind = "folder" if path.is_dir() else "file"
            return (f"the {kind} {path} is read-only for user {user} (sudo chown -R {user}: {target.parent} "
                    f"&& sudo chmod -R u+w {target.parent})")
    return None


def read_only_mount(target: Path) -> bool:
    folder = next((p for p in (target, *target.parents) if p.is_dir()), Path("/"))
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def free_space(target: Path) -> str:
    folder = next((p for p in (target, *target.parents) if p.is_dir()), Path("/"))
    free = shutil.disk_usage(folder).free
    return f"{free // 1024} KB" if free < 10 * 2**20 else f"{free // 2**20} MB"


def user_name() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
