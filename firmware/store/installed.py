"""On an installed box, the commands mean the box's own store, and root leaves it the box's.

``sudo cantstop-box players add Ann`` (as the README shows) used to write to
root's own store (~root/.local/share/cantstop-box), which the box never
reads. Now, where deploy/install.sh has installed the box (its settings in
/etc/cantstop-box or its record in /opt/cantstop-box), every command takes
the box's config (``firmware.config.load``: /etc/cantstop-box/config.toml
first) and the box's store (``firmware.store.default_state_dir``:
/var/lib/cantstop-box), unless ``--config`` or ``--state-dir`` says otherwise.

Run as root, a command may create files there (the game file, its journal,
the lock, the folder itself on a box that never started): ``hand_back``
gives them to the box's user, so the service can still read and write its
store. It runs after every command (boxcli/cli.py).
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

from . import file as store_file

#: The service's user (systemd/cantstop-box.service User=, made by deploy/install.sh).
BOX_USER = "cantstop"
#: The service's StateDirectoryMode=.
STATE_MODE = 0o700


def state_dir(explicit: str | None, configured: str | None) -> Path:
    """Where a command's store is: ``--state-dir``, else the config's ``[storage] state_dir``, else the
    default (the box's own on an installed box)."""
    return Path(explicit or configured or store_file.default_state_dir()).expanduser()


def _owner(directory: Path) -> tuple[int, int] | None:
    """The uid and gid the box's store belongs to: its folder's, unless root made it; None if unknown."""
    info = os.stat(directory)
    if info.st_uid != 0:
        return info.st_uid, info.st_gid
    try:
        user = pwd.getpwnam(BOX_USER)
    except KeyError:
        return None
    return user.pw_uid, user.pw_gid


def hand_back(directory: Path | None = None) -> None:
    """Run as root on an installed box: give whatever root made in the box's store to the box's user."""
    if os.geteuid() != 0 or not store_file.installed_box():
        return
    directory = Path(directory or store_file.BOX_STATE_DIR)
    try:
        owner = _owner(directory)
    except OSError:
        return  # no store made: nothing to give back
    if owner is None:
        return
    uid, gid = owner
    for folder, subfolders, files in os.walk(directory):
        for path in (folder, *(os.path.join(folder, name) for name in (*subfolders, *files))):
            try:
                info = os.lstat(path)
                if (info.st_uid, info.st_gid) != (uid, gid):
                    os.chown(path, uid, gid, follow_symlinks=False)
                    if path == str(directory):
                        os.chmod(path, STATE_MODE)
            except OSError:
                pass  # gone meanwhile (SQLite's journal), or a read-only card: the service says so itself
