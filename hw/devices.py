"""Device nodes (/dev/gpiochip0, /dev/i2c-1 ...) in words: who owns one, and why this user cannot open it.

A backend that fails to open a device often says nothing useful (lgpio:
"can not open gpiochip"). ``access_problem`` looks at the node itself and
names its owner, group and mode and the group the user needs, in one line.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat

#: The group deploy/install.sh gives each kind of device to (its udev rule, deploy/99-cantstop-box.rules).
GPIO_GROUP, I2C_GROUP, SPI_GROUP = "gpio", "i2c", "spi"
INSTALL_HINT = "which the box's udev rule sets up: run sudo deploy/install.sh, then reboot"


def _name(lookup, number: int) -> str:
    try:
        return lookup(number)[0]
    except KeyError:
        return str(number)


#: Seams for the tests (a test runs as root, who may open anything).
_stat = os.stat


def _may_open(path: str) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def describe(path: str) -> str:
    """"owner root, group gpio, mode 0660" for the node at ``path``; "" where it cannot be read."""
    try:
        info = _stat(path)
    except OSError:
        return ""
    owner = _name(pwd.getpwuid, info.st_uid)
    group = _name(grp.getgrgid, info.st_gid)
    return f"owner {owner}, group {group}, mode {stat.S_IMODE(info.st_mode):04o}"


def _user() -> str:
    return _name(pwd.getpwuid, os.geteuid())


def access_problem(path: str, wanted_group: str) -> str | None:
    """Why this process cannot read and write the device node ``path``, as the tail of a one-line message;
    None where it may.

    ``wanted_group`` is the group the box's install gives such devices to. The
    answer names the node's owner, group and mode, and what to do: join the
    node's group, or (a node only root may open, as on plain Debian) install
    the box's udev rule.
    """
    try:
        info = _stat(path)
    except FileNotFoundError:
        return f"{path}: there is no such device"
    except OSError as err:
        return f"{path}: {err.strerror or err}"
    if _may_open(path):
        return None
    shown = f"{path} ({describe(path)})"
    group = _name(grp.getgrgid, info.st_gid)
    group_may = info.st_mode & 0o060 == 0o060 and info.st_gid != 0
    if group_may:
        return f"{shown}: user {_user()} needs to be in the '{group}' group"
    return (f"{shown}: only {_name(pwd.getpwuid, info.st_uid)} may open it; user {_user()} needs it given"
            f" to the '{wanted_group}' group, {INSTALL_HINT}")
