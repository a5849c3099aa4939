"""The pure parts of `make boot-check`'s buzzer check: the tones the booted box played,
read from the kernel's own record of every level it set on the buzzer's line.

The box plays a tone as lgpio's software PWM at the note's pitch: a thread
that sets the line high and low through the GPIO character device. The
kernel's ``gpio:gpio_value`` trace event records each of those sets with its
time, so the trace of the buzzer's line is the waveform the piezo would
get. Here it becomes notes (a pitch held for a while) and melodies (notes
close together), to compare with the melodies the emulator's box played for
the same presses. Nothing here runs qemu (tests/systemd/test_boot_tones.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median

REST_SHARE = 0.7  # a silence this share of the melody's shortest rest or longer is a rest; shorter, a stall
MELODY_GAP_S = 0.2  # no edge for this long: the melody ended (the self test's are 0.3 s apart, presses seconds)
# A note heard within 15 % of the pitch played: an emulated processor's PWM reads no closer (12 % off seen)
PITCH_TOLERANCE = 0.15
LENGTH_RANGE = (0.5, 1.5)  # a sounding stretch this many times as long as the melody's (the PWM starts late)
MIN_CYCLES = 4  # fewer rising edges than this is a click, not a note

_EVENT = re.compile(r"\s(\d+\.\d+): gpio_value: (\d+) set (\d)")
_CHIP = re.compile(r"GPIOs (\d+)-(\d+), parent: platform/gpio-sim")


@dataclass(frozen=True)
class Note:
    hz: float
    duty: float  # the share of the note's time the line was high (the loudness)


def line_numbers(debug_gpio: str, pins: Mapping[str, int]) -> dict[str, int]:
    """Each named pin's number in the kernel's GPIO space: the simulated header's base, from
    /sys/kernel/debug/gpio, plus the pin (line N of the header is GPIO N, claimed or not).

    ValueError when the file lists no simulated header, or a pin is past its end.
    """
    found = _CHIP.search(debug_gpio)
    if not found:
        raise ValueError("no gpio-sim chip in /sys/kernel/debug/gpio")
    base, last = int(found.group(1)), int(found.group(2))
    beyond = [f"{name} (GPIO{pin})" for name, pin in pins.items() if base + pin > last]
    if beyond:
        raise ValueError(f"the simulated header has no line for {', '.join(beyond)}")
    return {name: base + pin for name, pin in pins.items()}


def trace_setup(tracing: str, numbers: Sequence[int]) -> str:
    """A guest shell script that records every level set on the lines ``numbers`` from now on, and nothing else."""
    event = f"{tracing}/events/gpio/gpio_value"
    wanted = " || ".join(f"gpio == {n}" for n in numbers)
    return (f"echo 0 > {tracing}/tracing_on && echo > {tracing}/trace && echo 4096 > {tracing}/buffer_size_kb && "
            f"echo '{wanted}' > {event}/filter && echo 1 > {event}/enable && echo 1 > {tracing}/tracing_on")


def trace_stop(tracing: str) -> str:
    """A guest shell script that stops the record and prints it."""
    event = f"{tracing}/events/gpio/gpio_value"
    return (f"echo 0 > {tracing}/tracing_on && echo 0 > {event}/enable && echo 0 > {event}/filter && "
            f"cat {tracing}/trace")


def all_edges(trace: str) -> dict[int, list[tuple[float, int]]]:
    """Each line's (seconds, level) of every level set on it, repeats left out, in time order: the trace read once."""
    out: dict[int, list[tuple[float, int]]] = {}
    for t, line, level in sorted((float(t), int(line), int(level)) for t, line, level in _EVENT.findall(trace)):
        levels = out.setdefault(line, [])
        if not levels or levels[-1][1] != level:
            levels.append((t, level))
    return out


def edges(trace: str, number: int) -> list[tuple[float, int]]:
    """(seconds, level) of every level set on line ``number``, repeats left out, in time order."""
    return all_edges(trace).get(number, [])


def split(levels: Sequence[tuple[float, int]], gap: float) -> list[list[tuple[float, int]]]:
    """The levels in runs, a new run after ``gap`` seconds with no edge."""
    runs: list[list[tuple[float, int]]] = []
    for edge in levels:
        if not runs or edge[0] - runs[-1][-1][0] >= gap:
            runs.append([])
        runs[-1].append(edge)
    return runs


def melodies(levels: Sequence[tuple[float, int]]) -> list[list[tuple[float, int]]]:
    """Each melody's levels: runs of edges MELODY_GAP_S apart, clicks (a few stray edges) left out."""
    return [run for run in split(levels, MELODY_GAP_S) if len(_rises(run)) >= MIN_CYCLES]


def pitches(melody: Sequence[tuple[float, float]]) -> list[float]:
    """The pitches of a melody as the box plays it (hertz, seconds), rests left out."""
    return [hz for hz, _seconds in melody if hz > 0]


def _phrases(melody: Sequence[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """A melody's notes between its rests."""
    out: list[list[tuple[float, float]]] = [[]]
    for hz, seconds in melody:
        if hz > 0:
            out[-1].append((hz, seconds))
        elif out[-1]:
            out.append([])
    return [phrase for phrase in out if phrase]


def _rises(levels: Sequence[tuple[float, int]]) -> list[float]:
    return [t for t, level in levels if level == 1]


def hear(levels: Sequence[tuple[float, int]], melody: Sequence[tuple[float, float]]) -> tuple[list[Note], str]:
    """The notes in one melody's levels, placed by the melody played, and what is wrong with them ("" if nothing).

    The levels fall into stretches at the rests (a silence of REST_SHARE of the
    melody's shortest rest or longer); each stretch must match a phrase of the
    melody (its notes between rests) and last about as long. Where a phrase
    has notes side by side, the stretch is cut between them where the line's
    own rate of cycles fits the notes played best (:func:`_places`: an emulated
    processor's PWM keeps no steady time, so their lengths cannot place them);
    each note's pitch is then read from its part, see :func:`_pitch`.
    """
    rests = [seconds for hz, seconds in melody if hz <= 0]
    # An emulated processor stalls the PWM thread now and then, for up to about 20 ms: shorter than a rest is a stall.
    gap = REST_SHARE * min(rests) if rests else MELODY_GAP_S
    stretches = [run for run in split(levels, gap) if len(_rises(run)) >= MIN_CYCLES]
    phrases = _phrases(melody)
    if len(stretches) != len(phrases):
        return [], f"{len(stretches)} sounding stretches for {len(phrases)}"
    notes: list[Note] = []
    for run, phrase in zip(stretches, phrases):
        rises = _rises(run)
        start, end = rises[0], run[-1][0]
        played = sum(seconds for _, seconds in phrase)
        if not LENGTH_RANGE[0] <= (end - start) / played <= LENGTH_RANGE[1]:
            return notes, f"a stretch of {(end - start) * 1000:.0f} ms for {played * 1000:.0f} ms played"
        for (played_hz, _seconds), (i, j) in zip(phrase, _places(rises, [hz for hz, _ in phrase])):
            part = rises[i:j + 1]
            hz = _pitch(part, played_hz) if len(part) >= MIN_CYCLES else 0.0
            notes.append(Note(hz, _duty(run, part[0], part[-1]) if hz else 0.0))
    return notes, ""


def _places(rises: Sequence[float], pitches_played: Sequence[float]) -> list[tuple[int, int]]:
    """For notes side by side, the (first, last) rise of each: the cut that best fits each part's rate
    of cycles to its note's pitch (least sum of |log(rate / pitch)|), each part MIN_CYCLES rises or more."""
    n, k = len(rises), len(pitches_played)
    if k == 1:
        return [(0, n - 1)]

    def cost(i: int, j: int, hz: float) -> float:
        return abs(math.log((j - i) / (rises[j] - rises[i]) / hz)) if rises[j] > rises[i] else math.inf

    # best[m][j]: the least cost of the first m + 1 notes, the last of them ending at rise j
    best = [[math.inf] * n for _ in range(k)]
    back = [[0] * n for _ in range(k)]
    for j in range(MIN_CYCLES - 1, n):
        best[0][j] = cost(0, j, pitches_played[0])
    for m in range(1, k):
        for j in range(n):
            for i in range(j - MIN_CYCLES + 1):  # the note before ends at rise i, this one runs i + 1 .. j
                c = best[m - 1][i] + cost(i + 1, j, pitches_played[m])
                if c < best[m][j]:
                    best[m][j], back[m][j] = c, i
    if best[k - 1][n - 1] == math.inf:  # too few cycles to share out: even parts, read as they are
        step = max(1, n // k)
        return [(m * step, min(n - 1, (m + 1) * step - 1) if m < k - 1 else n - 1) for m in range(k)]
    places, j = [], n - 1
    for m in range(k - 1, 0, -1):
        i = back[m][j]
        places.append((i + 1, j))
        j = i
    places.append((0, j))
    return places[::-1]


def _pitch(rises: Sequence[float], played: float) -> float:
    """A note's pitch from its rising edges: of two readings, the one nearer the pitch played.

    Cycles over time is the pitch while the PWM keeps time; where an emulated
    processor stalls its thread the cycles it loses pull that reading down,
    and where it catches up the bunched ones push the other, the median cycle,
    up. Both are the line's own edges, and a melody played in place of another
    reads wrong both ways (its rests, its length or its pitches differ).
    """
    rate = (len(rises) - 1) / (rises[-1] - rises[0])
    periods = [b - a for a, b in zip(rises, rises[1:]) if b > a]
    typical = 1 / median(periods) if periods else rate
    return min((rate, typical), key=lambda hz: abs(hz / played - 1))


def _duty(levels: Sequence[tuple[float, int]], start: float, end: float) -> float:
    """The share of [start, end] the line was high."""
    high = 0.0
    for (t, level), (t_next, _) in zip(levels, levels[1:]):
        if level == 1 and t < end and t_next > start:
            high += min(t_next, end) - max(t, start)
    return high / (end - start) if end > start else 0.0


def _hz(notes: Sequence[Note]) -> str:
    return "/".join(f"{n.hz:.0f}" for n in notes) or "nothing"


def _heard(name: str, times: list[list[Note]]) -> str:
    """``roll x5 873-902``: a melody's notes as heard each time it played, lowest to highest."""
    spans = []
    for i in range(len(times[0])):
        low, high = min(t[i].hz for t in times), max(t[i].hz for t in times)
        spans.append(f"{low:.0f}" if round(low) == round(high) else f"{low:.0f}-{high:.0f}")
    return f"{name}{f' x{len(times)}' if len(times) > 1 else ''} {'/'.join(spans)}"


def judge_tones(heard: list[list[tuple[float, int]]], wanted: list[Sequence[tuple[float, float]]],
                names: list[str]) -> tuple[bool, str]:
    """Whether the melodies heard (:func:`melodies`) are the ones wanted, in order, each note within PITCH_TOLERANCE.

    ``names`` names each wanted melody ("roll", "bust"); the detail line says what was heard.
    """
    if len(heard) != len(wanted):
        return False, (f"{len(heard)} melodies heard for {len(wanted)} played in the emulator "
                       f"({', '.join(names) or 'none'})")
    if not heard:
        return True, "no melody played or heard"
    wrong, said, duties = [], {}, []  # said: each melody's name -> the notes heard each time it played
    for i, (levels, want, name) in enumerate(zip(heard, wanted, names)):
        notes, why = hear(levels, want)
        want_hz = pitches(want)
        if not why and any(abs(n.hz / hz - 1) > PITCH_TOLERANCE for n, hz in zip(notes, want_hz)):
            why = "a pitch off"
        if why:
            wrong.append(f"melody {i + 1} ({name}): {why}: heard {_hz(notes)} Hz, played "
                         f"{'/'.join(f'{hz:.0f}' for hz in want_hz)} Hz")
        else:
            said.setdefault(name, []).append(notes)
            duties += [n.duty for n in notes]
    detail = (f"{len(heard) - len(wrong)} of {len(wanted)} melodies as the emulator's, in order, each note within "
              f"{PITCH_TOLERANCE:.0%}")
    if said:
        detail += (": " + ", ".join(_heard(name, times) for name, times in said.items())
                   + f" Hz; duty {median(duties):.2f}")
    if wrong:
        detail = "; ".join(wrong[:2]) + "; " + detail
    return not wrong, detail
