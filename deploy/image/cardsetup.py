#!/usr/bin/env python3
"""The card's own steps at boot (installed by `make image` in /usr/local/lib/cantstop-card).

    cardsetup.py grow    the data partition grown to the card's end (before it is mounted)
    cardsetup.py boot    Raspberry Pi Imager's OS customisation undone (its firstrun.sh and its
                         words in cmdline.txt removed; a reboot when this boot was one of its),
                         Wi-Fi from the boot partition's wifi.txt (then removed; what it found is
                         left in /run/cantstop-box-network for the box's screen), SSH only
                         with a key in ssh.pub, the display's bus in config.txt as the
                         settings on the boot partition say (a reboot when it changed)

Standard library only; each problem is one line in the journal (journalctl -u cantstop-card)
and the box plays on. The pure parts are tested in tests/tools/test_image.py (Imager's in
tests/tools/test_image_imager.py).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

BOOT = Path("/boot/firmware")
DATA = Path("/data")
LABEL = "cantstop-data"
WIFI_FILE = "wifi.txt"
SSH_KEY_FILE = "ssh.pub"
SETTINGS = "cantstop-box.toml"
WPA_CONF = DATA / "etc/wpa_supplicant-wlan0.conf"
SSH_DIR = DATA / "ssh"
#: Where the card leaves its Wi-Fi result for the box's screen (deploy/netstatus.py reads it there).
NOTE_DIR = Path("/run/cantstop-box-network")
NOTE_FILE = "card-wifi.json"
HERE = Path(__file__).resolve().parent
MAX_WIFI_BYTES = 4096
MAX_SETTINGS_BYTES = 64 * 1024
MAX_KEYS_BYTES = 64 * 1024
CMDLINE_FILE = "cmdline.txt"
IMAGER_SCRIPT = "firstrun.sh"
PROC_CMDLINE = Path("/proc/cmdline")
MAX_CMDLINE_BYTES = 4096  # the kernel takes 2048 (arm64's COMMAND_LINE_SIZE)
ALIGN_SECTORS = 8192  # 4 MiB
MBR_LIMIT = 2**32  # sectors an MBR entry can reach
KEY_KINDS = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-")


class Unusable(ValueError):
    """A file on the boot partition the card cannot use (one line)."""


def log(text: str) -> None:
    print(f"cantstop-card: {text}", flush=True)


# -- Raspberry Pi Imager's OS customisation ---------------------------------------------
#
# Imager's "OS customisation" writes firstrun.sh onto the boot partition and adds to cmdline.txt
# systemd.run=/boot/firstrun.sh (or /boot/firmware/firstrun.sh), systemd.run_success_action=reboot
# and systemd.unit=kernel-command-line.target. systemd would then boot into that target alone (the
# box's services, wanted by multi-user.target, never start) to run a script written for Raspberry
# Pi OS. The card's unit runs on such a boot too, ordered before that run: it takes the script and
# the words off the card and asks for a reboot, which cancels the run (with the script gone it would
# fail, and systemd's default for that, exit, would shut the box down), so the next boot is a normal one.

IMAGER_KEYS = ("systemd.run", "systemd.run_success_action", "systemd.run_failure_action")
IMAGER_UNIT = "systemd.unit=kernel-command-line.target"
#: The kernel's words: spaces part them, except inside double quotes (systemd.run="a b").
WORD = re.compile(r'(?:[^\s"]+|"[^"]*"?)+')


def cmdline_words(text: str) -> list[str]:
    return WORD.findall(text)


def is_imagers(word: str) -> bool:
    """One of the words Imager adds to cmdline.txt (systemd reads - and _ in a key alike)."""
    key, sep, _ = word.partition("=")
    return (bool(sep) and key.replace("-", "_") in IMAGER_KEYS) or word == IMAGER_UNIT


def without_imager(text: str) -> str | None:
    """cmdline.txt without Imager's words, every other word kept in order, on one line; None when
    it has none of them (the file is then left as it is)."""
    words = cmdline_words(text)
    kept = [word for word in words if not is_imagers(word)]
    return None if len(kept) == len(words) else " ".join(kept) + "\n"


def imagers_boot(proc_cmdline: Path = PROC_CMDLINE) -> bool:
    """Whether the running boot is one of Imager's (its words on the kernel's command line)."""
    try:
        text = read_bytes_limited(proc_cmdline, MAX_CMDLINE_BYTES).decode("utf-8", "replace")
    except (OSError, Unusable):
        return False  # unread: no reboot, the safe side
    return any(is_imagers(word) for word in cmdline_words(text))


def imager(boot: Path = BOOT, proc_cmdline: Path = PROC_CMDLINE, run=subprocess.run) -> str:
    """Imager's OS customisation taken off the card; a reboot when this boot was one of its. No
    reboot unless cmdline.txt was put right now: a command line from elsewhere would come back the
    same, boot after boot."""
    cmdline, script = boot / CMDLINE_FILE, boot / IMAGER_SCRIPT
    removed, problem, fixed = [], "", False
    if cmdline.exists():
        try:
            text = read_limited(cmdline, MAX_CMDLINE_BYTES)
        except (Unusable, UnicodeDecodeError) as err:
            problem = f"{CMDLINE_FILE} left as it is: {err}"
        else:
            new = without_imager(text)
            if new is not None:
                write_safely(cmdline, new, 0o644)
                removed.append(f"its {CMDLINE_FILE} entries")
                fixed = True
    if script.exists() or script.is_symlink():
        script.unlink()
        removed.insert(0, IMAGER_SCRIPT)
    if removed:
        os.sync()
    parts = []
    if removed:
        parts.append(f"its OS customisation is for Raspberry Pi OS and was ignored ({' and '.join(removed)} removed): "
                     f"set up Wi-Fi with {WIFI_FILE}")
    if problem:
        parts.append(problem)
    if imagers_boot(proc_cmdline):
        if fixed:
            run(["systemctl", "--no-block", "reboot"], check=False)
            parts.append("rebooting for a normal boot")
        elif problem:
            parts.append("this boot is one of Imager's (kernel-command-line.target): take its systemd.run and "
                         f"systemd.unit words out of {CMDLINE_FILE} by hand")
        else:
            parts.append(f"this boot's command line has Imager's systemd.run words but {CMDLINE_FILE} has none: "
                         "not rebooting (the next boot would be the same)")
    if not parts:
        return "Imager: no OS customisation on the card"
    return "Imager: " + "; ".join(parts)


# -- Wi-Fi ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Wifi:
    network: str
    password: str
    country: str = ""
    country_given: bool = True  # False: taken from the box's language


def read_bytes_limited(path: Path, limit: int) -> bytes:
    """A small file, its size checked before it is read, and never more than ``limit`` bytes read
    (a file in /proc says it has 0 bytes, and a file can grow after its size is read)."""
    size = path.stat().st_size
    if size > limit:
        raise Unusable(f"{path.name} is {size} bytes: more than {limit} is not a settings file")
    with path.open("rb") as source:
        data = source.read(limit + 1)
    if len(data) > limit:
        raise Unusable(f"{path.name} has more than {limit} bytes: not a settings file")
    return data


def read_limited(path: Path, limit: int) -> str:
    """A small text file, its size checked before it is read whole."""
    return read_bytes_limited(path, limit).decode("utf-8-sig", "strict")


def wifi_text(data: bytes) -> tuple[str, str]:
    """wifi.txt's text, however a computer saved it: UTF-8 (with its BOM or not), UTF-16 with its BOM
    (Windows Notepad's "Unicode"), else Windows' ANSI (cp1252). (text, how it was read, for the line)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), " (UTF-16 text)"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace"), " (ANSI text, not UTF-8)"


#: Quotes a value may be in: straight, and the curly ones macOS TextEdit and Word type instead.
QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u201d": "\u201d", "\u00ab": "\u00bb"}
#: The country the box's language names, where it names one (English is spoken in many).
LANGUAGE_COUNTRY = {"ja": "JP", "ko": "KR"}


def wifi_value(value: str, number: int) -> str:
    """A value as written after ``=``: in quotes (any of QUOTES) up to its closing quote, with only a
    comment after it; else up to a ``#`` after a space (``pa#ss`` keeps its ``#``)."""
    if value[:1] in QUOTES:
        close = value.rfind(QUOTES[value[0]])
        if close > 0:
            rest = value[close + 1:].strip()
            if rest and not rest.startswith("#"):
                raise Unusable(f"{WIFI_FILE} line {number}: {rest[:20]!r} after the closing quote")
            return value[1:close]
    comment = re.search(r"\s#", value)
    return (value[:comment.start()] if comment else value).strip()


def parse_wifi(text: str, language: str = "en") -> Wifi:
    """``network = ...``, ``password = ...`` and ``country = GB``, one per line; a value may be in quotes
    (straight or curly) and be followed by a ``# comment``; lines starting with # are comments. The
    country may be left out where the box's language names it (ja: JP, ko: KR)."""
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in ("network", "password", "country"):
            raise Unusable(f"{WIFI_FILE} line {number}: expected network = ..., password = ... or country = ..")
        values[key] = wifi_value(value, number)
    network, password = values.get("network", ""), values.get("password", "")
    given = values.get("country", "").upper()
    country = given or LANGUAGE_COUNTRY.get(language, "")
    if not network:
        raise Unusable(f"{WIFI_FILE} names no network (a line: network = your Wi-Fi's name)")
    if len(network.encode()) > 32:
        raise Unusable(f"{WIFI_FILE}: a Wi-Fi network's name is at most 32 bytes")
    if password and not (8 <= len(password) <= 63 and password.isascii() and password.isprintable()):
        raise Unusable(f"{WIFI_FILE}: a Wi-Fi password (WPA) has 8 to 63 plain characters")
    if not country:
        raise Unusable(f"{WIFI_FILE}: add a line country = your country's two letters (GB, US, DE...): "
                       "the Wi-Fi channels allowed differ by country")
    if not (len(country) == 2 and country.isalpha() and country.isascii()):
        raise Unusable(f"{WIFI_FILE}: country is two letters, like GB or DE")
    return Wifi(network, password, country, bool(given))


def box_language(boot: Path = BOOT) -> str:
    """The screen's language in the box's settings on the boot partition ("en" when it cannot tell)."""
    try:
        settings = tomllib.loads(read_limited(boot / SETTINGS, MAX_SETTINGS_BYTES))
    except (OSError, ValueError, Unusable):
        return "en"
    language = settings.get("language")
    return language if isinstance(language, str) else "en"


def wpa_conf(wifi: Wifi) -> str:
    """wpa_supplicant's settings: the name in hex, the password as its key (never in plain text)."""
    ssid = wifi.network.encode()
    lines = ["# Written by the card's first boot from wifi.txt (which was then removed).",
             "ctrl_interface=DIR=/run/wpa_supplicant", "update_config=0"]
    if wifi.country:
        lines.append(f"country={wifi.country}")
    lines += ["network={", f"\tssid={ssid.hex()}", "\tscan_ssid=1"]
    if wifi.password:
        psk = hashlib.pbkdf2_hmac("sha1", wifi.password.encode(), ssid, 4096, 32).hex()
        lines.append(f"\tpsk={psk}")
    else:
        lines.append("\tkey_mgmt=NONE")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_safely(path: Path, text: str, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".new")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


#: The names wifi.txt may have been saved as: Windows hides the .txt it adds to a name that has one.
WIFI_NAMES = (WIFI_FILE, WIFI_FILE + ".txt")


def wifi_result(boot: Path = BOOT, conf: Path = WPA_CONF) -> tuple[str, str, str]:
    """wifi.txt into wpa_supplicant's settings on the data partition, then off the card: (what the card
    found: none, unusable, taken or kept; the network's name; what happened, one line, for the screen)."""
    source = next((boot / name for name in WIFI_NAMES if (boot / name).exists()), None)
    if source is None:
        if conf.exists():
            return "kept", "", "Wi-Fi: as set up before"
        return "none", "", f"Wi-Fi: none set (no {WIFI_FILE} on the boot partition)"
    if not source.is_file():
        return "unusable", "", f"Wi-Fi: {source.name} is a folder, not a file: make it a text file"
    try:
        data = read_bytes_limited(source, MAX_WIFI_BYTES)
        text, how = wifi_text(data)
        language = box_language(boot)
        wifi = parse_wifi(text, language)
    except (Unusable, OSError) as err:
        return "unusable", "", f"Wi-Fi: {source.name} not used: {err}"
    write_safely(conf, wpa_conf(wifi), 0o600)
    source.unlink()
    os.sync()
    taken = [f"country {wifi.country}" + ("" if wifi.country_given else " from the box's language"),
             f"a {len(wifi.password)}-character password" if wifi.password else "no password (an open network)"]
    return "taken", wifi.network, (f"Wi-Fi: joining {wifi.network!r} ({'; '.join(taken)}; read from {source.name}"
                                   f"{how}, which is now removed)")


def take_wifi(boot: Path = BOOT, conf: Path = WPA_CONF) -> str:
    """:func:`wifi_result`'s line."""
    return wifi_result(boot, conf)[2]


def note_wifi(result: tuple[str, str, str], folder: Path = NOTE_DIR) -> None:
    """What the card found, left for the box's screen: the network status writer
    (deploy/netstatus.py) reads it beside its status file, in RAM (/run), gone at the next boot."""
    state, network, line = result
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    part = folder / (NOTE_FILE + ".new")
    part.write_text(json.dumps({"state": state, "network": network, "line": line}) + "\n", encoding="utf-8")
    part.chmod(0o644)
    os.replace(part, folder / NOTE_FILE)


def wifi(boot: Path = BOOT, conf: Path = WPA_CONF, folder: Path = NOTE_DIR) -> str:
    """The boot's Wi-Fi step: wifi.txt taken (or not), and the result noted for the box's screen."""
    result = wifi_result(boot, conf)
    note_wifi(result, folder)
    return result[2]


# -- SSH -------------------------------------------------------------------------------

def parse_keys(text: str) -> list[str]:
    keys = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not line.startswith(KEY_KINDS) or len(line.split()) < 2:
            raise Unusable(f"{SSH_KEY_FILE} line {number} is not an OpenSSH public key (ssh-ed25519 AAAA...)")
        keys.append(line)
    if not keys:
        raise Unusable(f"{SSH_KEY_FILE} has no key")
    return keys


def take_ssh(boot: Path = BOOT, ssh_dir: Path = SSH_DIR, run=subprocess.run) -> str:
    source = boot / SSH_KEY_FILE
    keys_file = ssh_dir / "authorized_keys"
    if not source.exists():
        keys_file.unlink(missing_ok=True)
        return f"SSH: off (no {SSH_KEY_FILE} on the boot partition)"
    try:
        keys = parse_keys(read_limited(source, MAX_KEYS_BYTES))
    except (Unusable, UnicodeDecodeError) as err:
        keys_file.unlink(missing_ok=True)
        return f"SSH: off: {err}"
    ssh_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_safely(keys_file, "\n".join(keys) + "\n", 0o600)
    host_key = ssh_dir / "ssh_host_ed25519_key"
    if not host_key.exists():
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "cantstop", "-f", str(host_key)], check=True)
    run(["systemctl", "--no-block", "start", "ssh.service"], check=True)
    return f"SSH: on for root with the {len(keys)} key(s) in {SSH_KEY_FILE}"


# -- the display's bus -------------------------------------------------------------------

def bus(boot: Path = BOOT, run=subprocess.run) -> str:
    """deploy/bootconfig.py on config.txt with the settings on the boot partition; a reboot when it changed."""
    config, settings = boot / "config.txt", boot / SETTINGS
    if not config.exists() or not settings.exists():
        return "bus: no config.txt or settings on the boot partition"
    done = run([sys.executable, str(HERE / "bootconfig.py"), str(settings), str(config)],
               capture_output=True, text=True)
    if done.returncode == 10:
        run(["systemctl", "--no-block", "reboot"], check=False)
        return "bus: the display's bus changed in config.txt: rebooting for it"
    return "bus: " + (done.stdout.strip() or done.stderr.strip() or "as the settings say").splitlines()[-1]


# -- the data partition ----------------------------------------------------------------

def grown_size(disk_sectors: int, start: int, size: int, align: int = ALIGN_SECTORS) -> int | None:
    """The partition's size (sectors) once grown to the card's end, or None when it is there already."""
    limit = min(disk_sectors, MBR_LIMIT)
    new = (limit - start) // align * align
    return new if new > size else None


def rewrite(disk: str, number: int, start: int, new: int, run=subprocess.run) -> None:
    """Partition ``number`` of ``disk`` made ``new`` sectors long, the kernel told.

    The whole card is locked (a BSD lock, as `udevadm lock` takes) while its table is written and the
    kernel told: udev holds back its events for a locked disk, so it probes the partition once, grown,
    never half-written. Unlocked, a first boot could lose the data partition's label mid-probe: the
    mount waiting on it failed, and the card came up in emergency mode (image-check: 3 of 3 first boots, 2026-12-02)."""
    with open(disk, "rb") as whole:
        fcntl.flock(whole, fcntl.LOCK_EX)
        run(["sfdisk", "--quiet", "--lock=no", "--no-reread", "--no-tell-kernel", "-N", str(number), disk],
            input=f"{start},{new}\n", text=True, check=True, capture_output=True)
        run(["partx", "--update", "--nr", str(number), disk], check=True)
    run(["udevadm", "settle", "--timeout=60"], check=False)  # udev's events done before the mount goes on


def grow(label: str = LABEL) -> str:
    part = Path(f"/dev/disk/by-label/{label}").resolve()
    sys_part = Path("/sys/class/block") / part.name
    disk = sys_part.resolve().parent.name
    number = int((sys_part / "partition").read_text())
    start, size = int((sys_part / "start").read_text()), int((sys_part / "size").read_text())
    disk_sectors = int((Path("/sys/class/block") / disk / "size").read_text())
    new = grown_size(disk_sectors, start, size)
    if new is None:
        return f"data: {part.name} fills the card already"
    rewrite(f"/dev/{disk}", number, start, new)
    return f"data: {part.name} grown from {size // 2048} MiB to {new // 2048} MiB (its file system follows on mount)"


def main(argv: list[str]) -> int:
    if argv[1:] == ["grow"]:
        log(grow())
    elif argv[1:] == ["boot"]:
        for step in (imager, wifi, take_ssh, bus):
            try:
                log(step())
            except (OSError, subprocess.CalledProcessError) as err:
                log(f"{step.__name__}: {err}")
    else:
        print("usage: cardsetup.py grow|boot", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
