"""The pure parts of `make boot-check`'s lamp checks: the settings that wire the lamps
and the buzzer, and what the lamps' simulated lines say.

The booted box drives each lamp's gpio-sim line; the check reads the line's
``sim_gpioN/value`` (the level the box drives) many times over about a second:
steady 1 is a lit lamp, steady 0 an unlit one, and both is a pulsing one
(gpiozero's fade changes lgpio's software PWM duty 25 times a second, and the
PWM itself switches the line at 100 Hz). Nothing here runs qemu
(tests/tools/test_boot_lamps.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .parse import sim_line_files
from .tones import all_edges

OFF, LIT, PULSE = "off", "lit", "pulse"  # as firmware/cues/lamps.py names them
SAMPLES = 40  # reads of every lamp line, one round after another
GAP_S = 0.02  # between two rounds: 40 rounds take about a second or more (a pulse fades in and out in 0.9 s)


def with_lamps(settings: str, lamps: Mapping[str, int], buzzer: int) -> str:
    """The settings file with a pin for each lamp under [lights] and the buzzer's under [sound].

    Each key's line in its section (commented out, as the default file has it, or
    not) becomes ``key = pin``, as an owner wiring them would edit the file; a key
    the file has no line for is a ValueError (the default file changed shape).
    """
    wanted = {("lights", name.lower()): pin for name, pin in lamps.items()} | {("sound", "pin"): buzzer}
    done: set[tuple[str, str]] = set()
    section = ""
    out = []
    for line in settings.splitlines(keepends=True):
        head = re.match(r"\s*\[([A-Za-z_]+)\]", line)
        if head:
            section = head.group(1)
        found = re.match(r"\s*#?\s*([a-z_]+)\s*=", line)
        key = (section, found.group(1)) if found else None
        if key in wanted and key not in done:
            done.add(key)
            line = f"{key[1]} = {wanted[key]}\n"
        out.append(line)
    missing = [f"[{s}] {k}" for s, k in wanted if (s, k) not in done]
    if missing:
        raise ValueError(f"the settings have no line for {', '.join(missing)}")
    return "".join(out)


def sim_value_paths(listing: str, pins: Mapping[str, int]) -> dict[str, str]:
    """Each lamp's simulated line's value file, from a list of gpio-sim's sim_gpio*/value paths."""
    return sim_line_files(listing, pins, "value", "the lamp of ")


def sampling_script(paths: Mapping[str, str], samples: int = SAMPLES, gap_s: float = GAP_S) -> str:
    """A guest shell script printing one row per round: every lamp line's value, in ``paths``' order.

    The shell's own ``read`` takes each value (no process per file, so a round is
    short even on an emulated processor); a file that cannot be read gives ``x``.
    """
    files = " ".join(paths.values())
    return (f"i=0; while [ $i -lt {samples} ]; do row=; for f in {files}; do v=x; read v < $f; row=\"$row $v\"; "
            f"done; echo $row; sleep {gap_s}; i=$((i + 1)); done")


def read_lamps(text: str, names: list[str]) -> dict[str, str]:
    """OFF, LIT or PULSE per lamp from the rows of :func:`sampling_script` (active-high lamps).

    A row that is not one 0/1 per lamp (a read cut short) is left out; fewer
    than half the rounds whole is a ValueError, as a lamp read so rarely says nothing.
    """
    rows = [line.split() for line in text.splitlines()]
    rows = [row for row in rows if len(row) == len(names) and set(row) <= {"0", "1"}]
    if len(rows) < max(2, len(text.splitlines()) // 2):
        raise ValueError(f"only {len(rows)} whole rows of lamp values in {len(text.splitlines())}")
    seen = {name: {row[i] for row in rows} for i, name in enumerate(names)}
    return {name: PULSE if values == {"0", "1"} else LIT if values == {"1"} else OFF for name, values in seen.items()}


def lamp_text(states: Mapping[str, str], names: list[str]) -> str:
    """``<ROLL> [MENU] stop`` : pulsing in angle brackets, lit in square ones, off in small letters."""
    return " ".join(f"<{n}>" if states.get(n) == PULSE else f"[{n}]" if states.get(n) == LIT else n.lower()
                    for n in names)


def lamp_mismatches(read: Mapping[str, str], wanted: Mapping[str, str]) -> list[str]:
    """Each lamp whose line says otherwise than wanted: ``"ROLL off (wanted pulse)"``."""
    return [f"{name} {read.get(name, '?')} (wanted {want})" for name, want in wanted.items() if read.get(name) != want]


NEEDED = ("TurnView", "DiceView")  # the screens the lamps are for: a player's turn, the dice to pair
PAIRINGS = ("A", "B", "C")


def judge_screens(read: list[Mapping[str, str]], wanted: list[Mapping[str, str]], kinds: list[str],
                  names: list[str]) -> tuple[bool, str]:
    """Whether the lamps read after each press are the emulator's for that screen, and a line saying so.

    ``kinds`` names each screen's view (``"TurnView"``); a player's turn and a
    dice screen must be among them, or the lamps that matter were never read.
    """
    if not (len(read) == len(wanted) == len(kinds)):
        return False, f"{len(read)} readings for {len(wanted)} screens"
    wrong = [f"screen {i} ({_kind(kind)}): {', '.join(lamp_mismatches(got, want))}"
             for i, (got, want, kind) in enumerate(zip(read, wanted, kinds)) if lamp_mismatches(got, want)]
    lacking = [_kind(kind) for kind in NEEDED if kind not in kinds]
    shown: dict[str, str] = {}
    for got, kind in zip(read, kinds):
        shown.setdefault(kind, lamp_text(got, names))
    refused = sum(1 for want, kind in zip(wanted, kinds)
                  if kind == "DiceView" and any(want.get(b) == OFF for b in PAIRINGS))
    detail = (f"{len(read) - len(wrong)} of {len(read)} screens as the emulator's; "
              + "; ".join(f"{_kind(kind)} {text}" for kind, text in shown.items() if kind in NEEDED)
              + f"; an illegal pairing's lamp off on {refused} dice screen{'s' if refused != 1 else ''}")
    if lacking:
        detail += f"; no {' or '.join(lacking)} screen read"
    if wrong:
        detail = "; ".join(wrong[:2]) + "; " + detail
    return not wrong and not lacking, detail


def _kind(view_name: str) -> str:
    """``"TurnView"`` -> ``"turn"``."""
    return view_name.removesuffix("View").lower()


def kernel_sets(trace: str, numbers: Mapping[str, int]) -> str:
    """How often the kernel's record has the box setting each lamp's line high: ``ROLL 1 of 12 sets high, ...``.

    Said beside lamps read wrongly, to tell a box that left its lamps dark from a reading gone wrong.
    """
    lines = all_edges(trace)
    parts = []
    for name, number in numbers.items():
        levels = [level for _, level in lines.get(number, [])]
        parts.append(f"{name} {levels.count(1)} of {len(levels)}")
    return "the kernel saw the box set each lamp's line high: " + ", ".join(parts)


OVERLAP_S = 0.05  # one lamp out and the next lit are two writes: this close is "in turn"


def lit_alone(levels: Mapping[str, list[tuple[float, int]]], order: list[str], least_s: float) -> tuple[bool, str]:
    """Whether each lamp's line went high once, for ``least_s`` or longer, alone, in ``order`` (the self test).

    ``levels`` holds each lamp's (seconds, level) from the kernel's record
    (:func:`tones.edges`); a lamp's time lit runs from its first rise to its last fall.
    """
    spans: dict[str, tuple[float, float]] = {}
    wrong = []
    for name in order:
        rises = [t for t, level in levels.get(name, []) if level == 1]
        falls = [t for t, level in levels.get(name, []) if level == 0 and rises and t > rises[0]]
        if not rises:
            wrong.append(f"{name} never lit")
        elif not falls or falls[-1] < rises[-1]:
            wrong.append(f"{name} never went out")
        else:
            spans[name] = (rises[0], falls[-1])
    lit = [name for name in sorted(spans, key=lambda n: spans[n][0])]
    if lit != [name for name in order if name in spans]:
        wrong.append(f"lit in the order {' '.join(lit)}")
    for a, b in zip(lit, lit[1:]):
        if spans[a][1] - spans[b][0] > OVERLAP_S:
            wrong.append(f"{a} and {b} lit together")
    short = [name for name, (on, off) in spans.items() if off - on < least_s]
    if short:
        wrong.append(f"{' '.join(short)} lit under {least_s:g} s")
    times = [off - on for on, off in spans.values()]
    said = (f"{' '.join(lit)} each lit alone in turn, {min(times):.2f}-{max(times):.2f} s each" if times
            else "no lamp lit")
    return not wrong, "; ".join(wrong + [said]) if wrong else said
