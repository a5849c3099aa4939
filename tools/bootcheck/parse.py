"""The pure parts of `make boot-check`: reading what the guest says, and the table.

Nothing here runs qemu or touches the machine (tests/tools/test_boot_check.py).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field

# -- what the display received (tools/bootcheck/modules/i2c-sink.c) ----------------

RECORD_HEAD = struct.Struct("<QH")  # nanoseconds since boot, length


@dataclass(frozen=True)
class Message:
    at_ns: int
    payload: bytes


def sink_messages(blob: bytes) -> list[Message]:
    """The messages the display's address received, from the sink's records; a cut-off last one is dropped."""
    out: list[Message] = []
    offset = 0
    while offset + RECORD_HEAD.size <= len(blob):
        at, length = RECORD_HEAD.unpack_from(blob, offset)
        start = offset + RECORD_HEAD.size
        if start + length > len(blob):
            break
        out.append(Message(at, blob[start:start + length]))
        offset = start + length
    return out


def play(controller, messages: list[Message]) -> list[str]:
    """Each message into a controller model (hw/oled_model.py) as the I2C control byte says; what it could not take."""
    problems = []
    for message in messages:
        if not message.payload:
            continue
        control, rest = message.payload[0], message.payload[1:]
        if control == 0x00:
            controller.command(rest)
        elif control == 0x40:
            controller.data(rest)
        else:
            problems.append(f"control byte {control:#04x} at {message.at_ns / 1e9:.3f} s")
    return problems


def first_frame_ns(messages: list[Message]) -> int | None:
    """When the first display data (a frame, not set-up commands) arrived."""
    return next((m.at_ns for m in messages if m.payload[:1] == b"\x40" and len(m.payload) > 1), None)


# -- what systemd says ---------------------------------------------------------------

def systemctl_show(text: str) -> dict[str, str]:
    """`systemctl show -p A -p B` output as a dict."""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def monotonic_s(value: str) -> float | None:
    """A *TimestampMonotonic property (microseconds since boot) in seconds; None for 0 or nothing."""
    try:
        usec = int(value)
    except (TypeError, ValueError):
        return None
    return usec / 1e6 if usec else None


def exposure(text: str) -> float | None:
    """The overall exposure level from `systemd-analyze security UNIT`."""
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", text)
    return float(found.group(1)) if found else None


def unit_starts(journal: str) -> list[float]:
    """When systemd started the unit, in seconds since boot, from `journalctl -o short-monotonic`."""
    return [float(line[1:line.index("]")]) for line in journal.splitlines()
            if line.startswith("[") and "Starting cantstop-box.service" in line]


TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
# A denial: an errno the hardening gives (EACCES, EPERM), a seccomp kill or an AppArmor/SELinux
# refusal as the audit subsystem logs it (type 1326, 1400); not systemd's "+SECCOMP" feature list.
DENIAL = re.compile(r"(Permission denied|Operation not permitted|apparmor=\"DENIED\"|audit: type=1326|"
                    r"audit: type=1400|avc: +denied|denied by|Access denied)", re.IGNORECASE)


def journal_faults(text: str) -> list[str]:
    """The journal lines that show a traceback or a denial."""
    return [line for line in text.splitlines() if TRACEBACK.search(line) or DENIAL.search(line)]


def sim_line_files(listing: str, pins: Mapping[str, int], file: str, whose: str = "") -> dict[str, str]:
    """Each named pin's simulated line's ``file`` (pull, value), from a list of gpio-sim's sim_gpio*/FILE paths.

    ValueError names the pins with no line (``whose`` before them: "the lamp of ").
    """
    by_line = {}
    for path in listing.split():
        found = re.search(rf"/sim_gpio(\d+)/{re.escape(file)}$", path)
        if found:
            by_line[int(found.group(1))] = path
    missing = [f"{name} (GPIO{pin})" for name, pin in pins.items() if pin not in by_line]
    if missing:
        raise ValueError(f"no simulated line for {whose}{', '.join(missing)}")
    return {name: by_line[pin] for name, pin in pins.items()}


def sim_pull_paths(listing: str, pins: Mapping[str, int]) -> dict[str, str]:
    """Each button's simulated line's pull file, from a list of gpio-sim's sim_gpio*/pull paths."""
    return sim_line_files(listing, pins, "pull")


# -- the table -----------------------------------------------------------------------

@dataclass
class Check:
    name: str
    passed: bool | None = None  # None: not reached
    seconds: float | None = None  # how long the check itself took
    detail: str = ""
    gap: bool = False  # the emulator cannot show this (detail says why): neither a pass nor a failure of the box


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  # (what, value)

    def add(self, name: str, passed: bool, seconds: float | None = None, detail: str = "") -> bool:
        self.checks.append(Check(name, bool(passed), seconds, detail))
        return bool(passed)

    def cannot_show(self, name: str, why: str) -> None:
        """A row the emulator cannot show, with its one line of why: it does not fail the table."""
        self.checks.append(Check(name, True, None, why, gap=True))

    @property
    def gaps(self) -> list[Check]:
        return [c for c in self.checks if c.gap]

    def figure(self, what: str, value: float | str | None) -> None:
        """A measured figure: seconds (shown to a tenth), a value already written out ("11.5 MB"), or None ("-")."""
        shown = "-" if value is None else value if isinstance(value, str) else f"{value:.1f} s"
        self.figures.append((what, shown))

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)


def table(report: Report, planned: list[str]) -> list[str]:
    """Markdown: each planned check with its result and time (not reached: '-'), then the figures."""
    done = {c.name: c for c in report.checks}
    lines = ["| check | result | time | detail |", "|---|---|---|---|"]
    names = planned + [c.name for c in report.checks if c.name not in planned]
    for name in names:
        c = done.get(name)
        if c is None:
            lines.append(f"| {name} | not reached | - | |")
            continue
        took = "-" if c.seconds is None else f"{c.seconds:.0f} s"
        result = "QEMU cannot show" if c.gap else "ok" if c.passed else "FAIL"
        lines.append(f"| {name} | {result} | {took} | {c.detail.replace('|', '/')} |")
    if report.figures:
        lines += ["", "| measured | |", "|---|---|"] + [f"| {what} | {value} |" for what, value in report.figures]
    return lines


BUS_MODULE_FILE = "/etc/modules-load.d/cantstop-box.conf"  # deploy/install.sh's


def bus_module_at_boot(conf: str, naming: list[str], modules_load: str, module: str = "i2c-dev") -> tuple[bool, str]:
    """Whether ``module`` was loaded at this boot by the install's file alone: ``conf`` is that file's text,
    ``naming`` every modules-load file (and /etc/modules) that names the module, ``modules_load`` the boot's
    journal of systemd-modules-load.service. A detail line says what was seen."""
    kernel_name = module.replace("-", "_")
    listed = module in [line.split("#", 1)[0].strip() for line in conf.splitlines()]
    others = [path for path in naming if path != BUS_MODULE_FILE]
    inserted = f"Inserted module '{kernel_name}'" in modules_load
    detail = (f"{BUS_MODULE_FILE} " + ("names" if listed else "missing" if not conf else "does not name")
              + f" {module}; systemd-modules-load " + ("inserted" if inserted else "did not insert") + " it")
    if others:
        detail += f"; also named in {', '.join(others)}"
    return listed and inserted and not others, detail
