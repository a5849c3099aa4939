"""`make boot-check`'s lamp and buzzer steps on the booted guest: wire them in the
settings before the boot, record the buzzer's line through the presses, and see
the lamps go out when the box stops. (Reading the lamps after each press is in
board.py; what a reading means, in lamps.py; what the buzzer's record means, in
tones.py; where the lamps and the buzzer are wired, in wiring.py.)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .lamps import OFF, lamp_text, with_lamps
from .tones import edges, judge_tones, line_numbers, melodies, trace_setup, trace_stop
from .wiring import BUZZER, LAMPS

if TYPE_CHECKING:
    from .board import Board

SETTINGS = "/etc/cantstop-box/config.toml"
PYTHON = "/opt/cantstop-box/venv/bin/python"
DEFAULT = Path(__file__).resolve().parents[2] / "firmware/default_config.toml"  # what the install puts in SETTINGS
# The kernel's trace: tracefs where systemd mounts it, else under debugfs.
TRACING = ("$(if [ -e /sys/kernel/tracing/trace ]; then echo /sys/kernel/tracing; "
           "else echo /sys/kernel/debug/tracing; fi)")


def settings_text() -> str:
    """The settings the booted box runs with: the installed defaults with the lamps and the buzzer wired."""
    return with_lamps(DEFAULT.read_text(), LAMPS, BUZZER)


@cache
def box_settings():
    """Those settings read by the box's own code, for the emulator's box that the booted one is compared with
    (a buzzer adds the menu's Sounds item, so a reference without one would draw another menu)."""
    from firmware.config import parse

    return parse(settings_text(), "the boot check's settings")


def wire_lamps(board: Board, name: str) -> None:
    """The owner wires the lamps and the buzzer and says so in the settings (before the reboot)."""
    t = time.monotonic()
    try:
        board.settings = with_lamps(board.guest.read(SETTINGS).decode(), LAMPS, BUZZER).encode()
    except (ValueError, UnicodeDecodeError) as err:
        board.report.add(name, False, time.monotonic() - t, f"{SETTINGS}: {err}")
        return
    if board.settings != settings_text().encode():
        board.report.add(name, False, time.monotonic() - t, f"{SETTINGS} as installed is not {DEFAULT.name}: "
                         "the emulator's box would run with other settings")
        return
    board.guest.write(SETTINGS, board.settings)
    # The box's own reading of them, pin checks and all, as it will start with them.
    done = board.guest.run(PYTHON, "-c", "import sys; from firmware.config import load; "
                           "c = load(sys.argv[1]); print(sorted(c.lights.pins().values()), c.sound.pin)", SETTINGS)
    wanted = f"{sorted(LAMPS.values())} {BUZZER}"
    said = (done.stderr.strip().splitlines() or [done.stdout.strip() or "?"])[-1]
    board.report.add(name, done.returncode == 0 and done.stdout.strip() == wanted, time.monotonic() - t,
                     f"[lights] {' '.join(f'{n.lower()}={p}' for n, p in LAMPS.items())}, [sound] pin={BUZZER}: "
                     + ("the box's config check accepts them" if done.returncode == 0 else said[:160]))


def check_lamps_out(board: Board, name: str, unit: str) -> None:
    """`systemctl stop`: the lamps that were on go out (the box puts them out, then lets their lines go)."""
    t = time.monotonic()
    before = board.lamps()
    board.guest.run("/bin/systemctl", "stop", unit, timeout=180)
    state = board.guest.run("/bin/systemctl", "is-active", unit).stdout.strip()
    after = board.lamps()
    on = [b for b, lamp in before.items() if lamp != OFF]
    still = [b for b, lamp in after.items() if lamp != OFF]
    names = list(LAMPS)
    board.report.add(name, bool(on) and not still and state != "active", time.monotonic() - t,
                     f"before: {lamp_text(before, names)}; after systemctl stop ({state}): {lamp_text(after, names)}")


def gpio_lines(board: Board) -> dict[str, int]:
    """Each lamp's line and the buzzer's ("buzzer"), as numbers in the kernel's GPIO space."""
    try:
        return line_numbers(board.guest.sh("cat /sys/kernel/debug/gpio").stdout, LAMPS | {"buzzer": BUZZER})
    except ValueError as err:  # the run stops with the table, as when the guest stops answering
        raise OSError(f"the lamps' and the buzzer's lines: {err}") from None


def start_trace(board: Board, numbers: Iterable[int]) -> None:
    """From now on the kernel records every level set on those lines (and nothing else)."""
    done = board.guest.sh(f"t={TRACING}; " + trace_setup("$t", list(numbers)))
    if done.returncode:
        raise OSError(f"cannot trace the GPIO lines: {done.stderr.strip()[:120]}")


def stop_trace(board: Board, file: str) -> str:
    """The kernel's record since :func:`start_trace`, kept in the run's ``file`` too."""
    done = board.guest.sh(f"t={TRACING}; " + trace_stop("$t"), timeout=120)
    (board.workdir / file).write_text(done.stdout)
    if done.returncode:
        raise OSError(f"cannot read the GPIO trace: {done.stderr.strip()[:120]}")
    return done.stdout


def cue_names(played: list) -> list[str]:
    """The cue ("roll", "bust") of each melody played."""
    from firmware.cues import MELODIES

    cue = {melody: name for name, melody in MELODIES.items()}
    return [cue.get(tuple(melody), "?") for melody in played]


def check_tones(board: Board, name: str, trace: str, number: int, played: list) -> None:
    """The melodies in the record of line ``number`` are the ones the emulator's box played for the same presses."""
    ok, detail = judge_tones(melodies(edges(trace, number)), played, cue_names(played))
    board.report.add(name, ok, None, detail)
