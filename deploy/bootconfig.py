#!/usr/bin/env python3
"""Turn on the display's bus in a Raspberry Pi's boot config (config.txt), as the box's settings say.

    bootconfig.py SETTINGS BOOT_CONFIG [--dry-run]

Run by deploy/install.sh (standard library only: it runs before the box is
installed). SETTINGS is the box's config.toml; its ``[display] interface``
(default "i2c") picks what must be on:

    i2c (bus 1)  dtparam=i2c_arm=on and dtparam=i2c_arm_baudrate=400000
                 (400 kHz: a whole 128x64 frame in about 23 ms, not 93)
    spi (SPI0)   dtparam=spi=on

A setting counts when its last active (not commented) line stands outside
any conditional section ([pi4], [cm4] ...: before the first section or under
[all]). A last line with another value there is changed where it stands;
anything missing goes at the end under [all], so it applies on every board.
Commented lines are left as they are. The old file is kept beside it as
config.txt.cantstop-box.bak. Safe to run again: a second run changes nothing.

Prints what it changed (or, with --dry-run, would change), one line each.
Exit status: 0 nothing to change, 10 changed (a reboot is due), 2 the
settings cannot be read or the bus is not one config.txt turns on.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tomllib

CHANGED, UNCHANGED, CANNOT = 10, 0, 2
BACKUP_SUFFIX = ".cantstop-box.bak"
FAST_I2C_HZ = 400_000
#: Each dtparam, with the other names the firmware takes for it (README of /boot/overlays).
ALIASES = {"i2c_arm": ("i2c_arm", "i2c"), "i2c_arm_baudrate": ("i2c_arm_baudrate", "i2c_baudrate"),
           "spi": ("spi",)}
ON = {"on", "true", "yes", "okay"}
SECTION = re.compile(r"\s*\[([^\]]*)\]\s*(#.*)?$")


class Unusable(Exception):
    """The settings cannot say which bus (one line)."""


def wanted(settings_text: str) -> dict[str, str]:
    """The dtparams the box's settings need: {"i2c_arm": "on", "i2c_arm_baudrate": "400000"} or {"spi": "on"}."""
    try:
        display = tomllib.loads(settings_text).get("display", {})
    except tomllib.TOMLDecodeError as err:
        raise Unusable(f"the settings are not valid TOML ({err})") from None
    if not isinstance(display, dict):  # display = 5: a key where the [display] table belongs
        raise Unusable(f"display = {display!r} is not a [display] table: write [display] on a line of its own")
    interface = display.get("interface", "i2c")
    if interface == "spi":
        return {"spi": "on"}
    if interface != "i2c":
        raise Unusable(f"[display] interface = {interface!r} is neither \"i2c\" nor \"spi\"")
    port = display.get("port", 1)
    if port != 1:
        raise Unusable(f"the display is on I2C bus {port}, not the Pi's bus 1 (i2c_arm): turn that bus on yourself")
    return {"i2c_arm": "on", "i2c_arm_baudrate": str(FAST_I2C_HZ)}


def _same(name: str, value: str, want: str) -> bool:
    if name == "i2c_arm_baudrate":
        return value.strip() == want
    return (value.strip().lower() or "on") in ON  # a bare "dtparam=i2c_arm" means on


def _occurrences(lines: list[str]):
    """(line index, param index, name, value, unconditional) for each dtparam on an active line."""
    unconditional = True
    for i, line in enumerate(lines):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if m := SECTION.match(line):
            unconditional = m.group(1).strip().lower() == "all"
            continue
        key, sep, rest = text.partition("=")
        if not sep or key.strip() != "dtparam":
            continue
        for j, param in enumerate(rest.split(",")):
            name, _, value = param.partition("=")
            for canonical, names in ALIASES.items():
                if name.strip() in names:
                    yield i, j, canonical, value, unconditional


def plan(config_text: str, want: dict[str, str]) -> tuple[str, list[tuple[str, str]]]:
    """The boot config with ``want`` in force, and each change as (verb, what): ("change", "'a' to 'b'"),
    ("add", "'dtparam=spi=on'"); no changes: it is so already."""
    lines = config_text.splitlines()
    last: dict[str, tuple[int, int, str, bool]] = {}
    for i, j, name, value, unconditional in _occurrences(lines):
        last[name] = (i, j, value, unconditional)
    changes, missing = [], []
    for name, want_value in want.items():
        found = last.get(name)
        if found and found[3] and _same(name, found[2], want_value):
            continue
        if found and found[3]:
            i, j = found[0], found[1]
            before = lines[i]
            lines[i] = _set_param(before, j, f"{name}={want_value}")
            changes.append(("change", f"'{before.strip()}' to '{lines[i].strip()}'"))
        else:
            missing.append(f"dtparam={name}={want_value}")
    if missing:
        if lines and lines[-1].strip():
            lines.append("")
        lines += ["# Added by the Can't Stop box's deploy/install.sh: the display's bus.", "[all]", *missing]
        changes += [("add", f"'{line}'") for line in missing]
    text = "\n".join(lines) + "\n" if changes else config_text
    return text, changes


def _set_param(line: str, index: int, new: str) -> str:
    """``line`` (dtparam=a=1,b=2 # note) with its ``index``-th param replaced by ``new``."""
    code, hash_, comment = line.partition("#")
    key, _, rest = code.partition("=")
    params = rest.split(",")
    trailing = params[-1][len(params[-1].rstrip()):]
    params = [p.strip() for p in params]
    params[index] = new
    return f"{key}={','.join(params)}{trailing}{hash_}{comment}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bootconfig.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("settings")
    parser.add_argument("boot_config")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    try:
        with open(args.settings, "rb") as file:
            want = wanted(file.read().decode("utf-8", "replace"))
        with open(args.boot_config, encoding="utf-8", errors="surrogateescape") as file:
            before = file.read()
    except Unusable as err:
        print(f"cannot tell which bus to turn on: {err}")
        return CANNOT
    except OSError as err:
        print(f"cannot read {err.filename}: {err.strerror}")
        return CANNOT
    after, changes = plan(before, want)
    if not changes:
        return UNCHANGED
    for verb, what in changes:
        print(f"{args.boot_config}: {'would ' + verb if args.dry_run else verb.rstrip('e') + 'ed'} {what}")
    if not args.dry_run:
        backup = args.boot_config + BACKUP_SUFFIX
        with open(backup, "w", encoding="utf-8", errors="surrogateescape") as file:
            file.write(before)
        temporary = args.boot_config + ".cantstop-box.new"
        with open(temporary, "w", encoding="utf-8", errors="surrogateescape") as file:
            file.write(after)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, args.boot_config)
        print(f"{args.boot_config}: the old file is kept as {os.path.basename(backup)}")
    return CHANGED


if __name__ == "__main__":
    sys.exit(main())
