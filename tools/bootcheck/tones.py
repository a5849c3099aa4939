"""The pure parts of `make boot-check`'s buzzer check: the tones the booted box played,
read from the kernel's own record of every level it set on the buzzer's line.

The box plays a tone as lgpio's software PWM at the note's pitch: a thread
that sets the line high and low through the GPIO character device. The
kernel's ``gpio:gpio_value`` trace event records each of those sets with its
time, so the trace of the buzzer's line is the waveform the piezo would
get. Here it becomes notes (a pitch held for a while) and melodies (notes
close together), to compare with the melodies the emulator's box played for
the same presses. Nothing here runs qemu (tests/tools/test_boot_tones.py).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median

REST_SHARE = 0.7  # a silence this share of the melody's shortest rest or longer may be a rest; shorter, a stall
MELODY_GAP_S = 0.2  # no edge for this long: the melody ended (the self test's are 0.3 s apart, presses seconds)
# A busy host makes a software PWM slow: the emulated processor runs each cycle late and loses some in
# stalls. The run behind issue 33, on a host with both cores busy, read a roll at 0.69 of its pitch (605 Hz
# for 880), an earlier one at 0.61 (535 Hz). Slower than 0.55 is no host's doing (an octave down reads 0.5).
SLOW_FLOOR = 0.55
# Fast, it reads only where the PWM catches up in a burst that no reading untangles: 1.3 (1144 Hz for 880)
# once in the runs so far. Faster than 0.35 above is no host's doing (a fifth up reads 1.5).
PITCH_TOLERANCE = 0.35
# The step from each note to the next (its interval) the way it was played (up or down) and within 25 % of its
# size: the melody's shape, which a host's load bends a little (it slows the high notes most) but keeps, and a
# melody in another's place does not (the box's steps are 19 % to 50 %, and they differ in direction).
INTERVAL_TOLERANCE = 0.25
# A sounding stretch this many times as long as the melody's phrase: at least 0.3 with its stalls (one that
# falls at a note's end leaves it short), at most twice without them (the PWM starts late, and a busy host's
# sleeps run long).
LENGTH_RANGE = (0.3, 2.0)
# A melody whose only fault is a pitch out of its band (BELOW or ABOVE it), with a stall on its line (no rise for
# more than STALL_CYCLES of its highest note's cycles as played), is the emulated processor's doing where the
# same melody played HELD_PLAYS times or more and more than half of its plays held: a stall cuts a 40 ms roll's
# PWM short or leaves it to catch up at the loop's own speed, so that a roll with three stalls read 0.45 of its
# pitch and one with two read 1.66 (a soak with two host cores kept busy, tests/fixtures/boot/stalled-rolls-trace.txt),
# and on a quiet host a roll whose PWM thread woke late at every cycle (2-5.6 ms each) read 0.45 (the soak's
# tests/fixtures/boot/late-roll-trace.txt; single rolls read 0.42 and 0.39 before), while a box that plays a
# note off plays it off every time.
BELOW, ABOVE = "a pitch below its band", "a pitch above its band"
HELD_PLAYS = 3
STALL_CYCLES = 3  # a gap of more than three of a note's usual cycles inside a stretch is a stall, not sound
MIN_CYCLES = 4  # fewer rising edges than this is a click, not a note
MAX_STRETCHES = 12  # more silences than this in one melody: not a melody of the box's

_EVENT = re.compile(r"\s(\d+\.\d+): gpio_value: (\d+) set (\d)")
_CHIP = re.compile(r"GPIOs (\d+)-(\d+), parent: platform/gpio-sim")


@dataclass(frozen=True)
class Play:
    """One melody heard against the one played in its place (:func:`hear_plays`)."""

    notes: list[Note]
    why: str  # what is wrong with it alone ("" if nothing)
    stall: float  # where its only fault is a pitch out of its band: its line's :func:`longest_stall`; else 0


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

    The levels fall into stretches at the rests (:func:`_stretches`); each
    stretch must match a phrase of the melody (its notes between rests) and
    last about as long (LENGTH_RANGE). Where a phrase has notes side by side,
    the stretch is cut between them where the line's own rate of cycles fits
    the notes played best, as a busy host plays them (:func:`_places`,
    :func:`_paced`: an emulated processor's PWM keeps no steady time, so their
    lengths cannot place them); each note's pitch is then read from its part
    (:func:`_pitch`), and the pitches must hold (:func:`_off`).
    """
    phrases = _phrases(melody)
    stretches, why = _stretches(levels, melody)
    if why:
        return [], why
    for run, phrase in zip(stretches, phrases):
        rises = _rises(run)
        played = sum(seconds for _, seconds in phrase)
        # Not too short with its stalls, not too long without them: a stall both lengthens the stretch and
        # silences part of it.
        whole, sounding = rises[-1] - rises[0], _sounding(rises)
        if whole / played < LENGTH_RANGE[0] or sounding / played > LENGTH_RANGE[1]:
            shown = whole if whole / played < LENGTH_RANGE[0] else sounding
            return [], f"a stretch of {shown * 1000:.0f} ms for {played * 1000:.0f} ms played"
    # Where notes sit side by side the line's time is read each way of CLOCKS (a busy host stalls, and its
    # PWM catches up or not): the first reading whose pitches hold counts; none holding, the first whose only
    # fault is a pitch out of its band (BELOW, ABOVE), else the first, says why.
    readings: list[tuple[list[Note], str]] = []
    for how in CLOCKS:
        notes = [note for run, phrase in zip(stretches, phrases) for note in _notes(run, phrase, how)]
        why = _off(notes, pitches(melody))
        if not why:
            return notes, ""
        readings.append((notes, why))
        if all(len(phrase) == 1 for phrase in phrases):
            break  # no cut to place: every reading is the same
    return next((r for r in readings if r[1] in (BELOW, ABOVE)), readings[0])


def _notes(run: Sequence[tuple[float, int]], phrase: Sequence[tuple[float, float]], how: str) -> list[Note]:
    """The notes of one stretch, cut as :func:`_places` reads the line ``how``."""
    rises = _rises(run)
    notes = []
    # A busy host slows every note of a stretch, the high ones most: the cuts fit the notes as it plays them.
    for (played_hz, _seconds), (i, j) in zip(phrase, _places(rises, _paced(rises, phrase), how)):
        part = rises[i:j + 1]
        hz = _pitch(part, played_hz) if len(part) >= MIN_CYCLES else 0.0
        notes.append(Note(hz, _duty(run, part[0], part[-1]) if hz else 0.0))
    return notes


def _stretches(levels: Sequence[tuple[float, int]], melody: Sequence[tuple[float, float]]
               ) -> tuple[list[list[tuple[float, int]]], str]:
    """A melody's levels cut at its rests: one stretch per phrase, or what is wrong ("" if nothing).

    Any silence of REST_SHARE of the melody's shortest rest or longer may be a
    rest; a busy host's stalls can be as long, so where there are more such
    silences than rests, the rests are the ones that give each stretch the
    length of its phrase best, and the others are stalls inside a note.
    """
    rests = [seconds for hz, seconds in melody if hz <= 0]
    phrases = _phrases(melody)
    gap = REST_SHARE * min(rests) if rests else MELODY_GAP_S
    runs = [run for run in split(levels, gap) if len(_rises(run)) >= MIN_CYCLES]
    if len(runs) < len(phrases) or len(runs) > MAX_STRETCHES:
        return [], f"{len(runs)} sounding stretches for {len(phrases)}"
    lengths = [sum(seconds for _, seconds in phrase) for phrase in phrases]
    best, best_cost = None, math.inf
    for cuts in itertools.combinations(range(1, len(runs)), len(phrases) - 1):
        bounds = (0, *cuts, len(runs))
        joined = [[edge for run in runs[a:b] for edge in run] for a, b in zip(bounds, bounds[1:])]
        cost = sum(abs(math.log(max(_sounding(_rises(run)), 1e-6) / length)) for run, length in zip(joined, lengths))
        if cost < best_cost:
            best, best_cost = joined, cost
    return best or [], ""


def _usual_cycle(rises: Sequence[float]) -> float:
    periods = [b - a for a, b in zip(rises, rises[1:]) if b > a]
    return median(periods) if periods else 0.0


def _sounding(rises: Sequence[float]) -> float:
    """How long the line sounded, from its first rise to its last: a stall's silence left out (a gap of more
    than STALL_CYCLES usual cycles counts as one usual cycle)."""
    usual = _usual_cycle(rises)
    return sum(min(b - a, usual) if b - a > STALL_CYCLES * usual else b - a for a, b in zip(rises, rises[1:]))


CLOCKS = ("as kept", "stalls out", "stalls out, catching up")  # the ways :func:`_clock` reads a line's time


def _clock(rises: Sequence[float], how: str = CLOCKS[2]) -> list[float]:
    """The time of each rise on the line's own clock, ``how`` (one of CLOCKS): as the trace kept it, or with
    its stalls taken out: a cycle longer than STALL_CYCLES usual ones counts as long as the one before it
    (a busy host's stalls would drag a part's rate down wherever they fall), unless, catching up, the PWM
    caught up after it (the next cycle bunched, under half a usual one): then the cycles it owed are there
    and the time stands."""
    if how == CLOCKS[0]:
        return [t - rises[0] for t in rises]
    catching_up = how == CLOCKS[2]
    usual = _usual_cycle(rises)
    cycles = [b - a for a, b in zip(rises, rises[1:])]
    clock = [0.0]
    for m, cycle in enumerate(cycles):
        caught_up = catching_up and m + 1 < len(cycles) and cycles[m + 1] < usual / 2
        if cycle > STALL_CYCLES * usual and not caught_up:
            cycle = clock[-1] - clock[-2] if m else usual
        clock.append(clock[-1] + cycle)
    return clock


def _paced(rises: Sequence[float], phrase: Sequence[tuple[float, float]]) -> list[float]:
    """The pitches of a phrase's notes as a busy host plays them: each cycle late by the same time, the one
    that gives the cycles the stretch has over its length (none, if it has as many as played or more)."""
    clock = _clock(rises)
    cycles, seconds = len(rises) - 1, clock[-1]
    played = sum(s for _, s in phrase)
    if seconds <= 0 or played <= 0:
        return [hz for hz, _ in phrase]

    def count(late: float) -> float:
        return sum(s * seconds / played / (1 / hz + late) for hz, s in phrase)

    low, high = 0.0, max(1 / hz for hz, _ in phrase)  # late by a whole cycle at most
    if count(low) <= cycles:
        return [hz for hz, _ in phrase]
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if count(mid) > cycles else (low, mid)
    return [1 / (1 / hz + low) for hz, _ in phrase]


def _places(rises: Sequence[float], pitches_played: Sequence[float], how: str = CLOCKS[0]) -> list[tuple[int, int]]:
    """For notes side by side, the (first, last) rise of each: the cut that best fits each part's rate
    of cycles (on the line's :func:`_clock`, read ``how``) to its note's pitch (least sum of
    |log(rate / pitch)|), each part MIN_CYCLES rises or more."""
    n, k = len(rises), len(pitches_played)
    if k == 1:
        return [(0, n - 1)]
    cost, places = _cut(_clock(rises, how), pitches_played)
    if cost == math.inf:  # too few cycles to share out: even parts, read as they are
        step = max(1, n // k)
        return [(m * step, min(n - 1, (m + 1) * step - 1) if m < k - 1 else n - 1) for m in range(k)]
    return places


def _cut(clock: Sequence[float], pitches_played: Sequence[float]) -> tuple[float, list[tuple[int, int]]]:
    """The least cost of cutting the rises at ``clock`` into the notes, and the (first, last) rise of each."""
    n, k = len(clock), len(pitches_played)

    def cost(i: int, j: int, hz: float) -> float:
        return abs(math.log((j - i) / (clock[j] - clock[i]) / hz)) if clock[j] > clock[i] else math.inf

    # best[m][j]: the least cost of the first m + 1 notes, the last of them ending at rise j
    best = [[math.inf] * n for _ in range(k)]
    back = [[0] * n for _ in range(k)]
    for j in range(MIN_CYCLES - 1, n):
        best[0][j] = cost(0, j, pitches_played[0])
    for m in range(1, k):
        # Only the ends that can count: the notes before need MIN_CYCLES rises each (best is infinite
        # below that), and the notes after need theirs (the last note ends at the last rise), so the
        # same cut comes in fewer steps (the last note is tried at one end instead of at every rise).
        before, hz = best[m - 1], pitches_played[m]
        first = m * MIN_CYCLES - 1
        ends = [n - 1] if m == k - 1 else range(first + MIN_CYCLES, n - (k - 1 - m) * MIN_CYCLES)
        for j in ends:
            for i in range(first, j - MIN_CYCLES + 1):  # the note before ends at rise i, this one runs i + 1 .. j
                c = before[i] + cost(i + 1, j, hz)
                if c < best[m][j]:
                    best[m][j], back[m][j] = c, i
    places, j = [], n - 1
    for m in range(k - 1, 0, -1):
        i = back[m][j]
        places.append((i + 1, j))
        j = i
    places.append((0, j))
    return best[k - 1][n - 1], places[::-1]


def _pitch(rises: Sequence[float], played: float) -> float:
    """A note's pitch from its rising edges: of three readings, the one nearest the pitch played.

    Cycles over time is the pitch while the PWM keeps time, and where it
    catches up after a stall (the late cycles fired bunched). Where it stalls
    and loses those cycles instead, that reading is pulled down: the median
    cycle, and the mean of the usual cycles (a stall's long one and the
    bunched short ones left out), read the pitch as the PWM went on. All three
    are the line's own edges; a melody played in place of another reads wrong
    every way (its rests, its length, its steps from note to note differ).
    """
    rate = (len(rises) - 1) / (rises[-1] - rises[0])
    usual = _usual_cycle(rises)
    typical = 1 / usual if usual else rate
    kept = [b - a for a, b in zip(rises, rises[1:]) if usual / 2 <= b - a <= STALL_CYCLES * usual]
    steady = len(kept) / sum(kept) if kept else rate
    return min((rate, typical, steady), key=lambda hz: abs(hz / played - 1))


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


def _off(notes: Sequence[Note], want_hz: Sequence[float]) -> str:
    """What is wrong with the pitches heard for a melody's notes ("" if nothing): each step to the next as
    played, and each pitch within its band (SLOW_FLOOR to 1 + PITCH_TOLERANCE of the pitch played): BELOW or
    ABOVE when that is the only fault."""
    ratios = [n.hz / hz for n, hz in zip(notes, want_hz)]
    if any(r <= 0 for r in ratios):
        return "a note not heard"
    for (a, b), (hz_a, hz_b) in zip(zip(notes, notes[1:]), zip(want_hz, want_hz[1:])):
        heard_step, played_step = math.log(b.hz / a.hz), math.log(hz_b / hz_a)
        if heard_step * played_step <= 0 or abs(heard_step - played_step) > math.log(1 + INTERVAL_TOLERANCE):
            return "a step between notes off"
    if any(r > 1 + PITCH_TOLERANCE for r in ratios):
        return ABOVE
    return BELOW if any(r < SLOW_FLOOR for r in ratios) else ""


def longest_stall(levels: Sequence[tuple[float, int]], melody: Sequence[tuple[float, float]]) -> float:
    """The longest time with no rise inside one of a melody's sounding stretches (its rests left out), in
    seconds, where it is more than STALL_CYCLES of the melody's highest note's cycles as played; else 0."""
    stretches, _ = _stretches(levels, melody)
    gaps = [b - a for run in stretches for a, b in itertools.pairwise(_rises(run))]
    longest = max(gaps, default=0.0)
    return longest if longest > STALL_CYCLES / max(pitches(melody)) else 0.0


def judge_tones(heard: list[list[tuple[float, int]]], wanted: list[Sequence[tuple[float, float]]],
                names: list[str]) -> tuple[bool, str]:
    """Whether the melodies heard (:func:`melodies`) are the ones wanted, in order: the same rests and phrase
    lengths, each step from note to note within INTERVAL_TOLERANCE, each pitch between SLOW_FLOOR and
    1 + PITCH_TOLERANCE of the one played (a busy host slows a software PWM, or bunches its cycles), or out of
    it only where its line stalled while most plays of the same melody (HELD_PLAYS or more) held.

    ``names`` names each wanted melody ("roll", "bust"); the detail line says what was heard.
    """
    if len(heard) != len(wanted):
        return False, (f"{len(heard)} melodies heard for {len(wanted)} played in the emulator "
                       f"({', '.join(names) or 'none'})")
    if not heard:
        return True, "no melody played or heard"
    return judge_plays(hear_plays(heard, wanted), wanted, names)


def hear_plays(heard: list[list[tuple[float, int]]], wanted: list[Sequence[tuple[float, float]]]) -> list[Play]:
    """Each melody heard (:func:`melodies`) against the one played in its place, alone."""
    plays = []
    for levels, want in zip(heard, wanted):
        notes, why = hear(levels, want)
        plays.append(Play(notes, why, longest_stall(levels, want) if why in (BELOW, ABOVE) else 0.0))
    return plays


def judge_plays(heard: list[Play], wanted: list[Sequence[tuple[float, float]]], names: list[str]) -> tuple[bool, str]:
    """:func:`judge_tones` of the plays :func:`hear_plays` heard, as many as were played."""
    times, held = Counter(names), Counter(name for play, name in zip(heard, names) if not play.why)
    wrong, stalled, said, duties, ratios = [], [], {}, [], []  # said: each melody's name -> its notes each time
    for i, (play, want, name) in enumerate(zip(heard, wanted, names)):
        notes, want_hz = play.notes, pitches(want)
        if play.stall and times[name] >= HELD_PLAYS and 2 * held[name] > times[name]:
            off = max((n.hz / hz for n, hz in zip(notes, want_hz)), key=lambda r: abs(math.log(r)))
            stalled.append(f"{name} at {off:.2f} with a {play.stall * 1000:.0f} ms stall")
        elif play.why:
            wrong.append(f"melody {i + 1} ({name}): {play.why}: heard {_hz(notes)} Hz, played "
                         f"{'/'.join(f'{hz:.0f}' for hz in want_hz)} Hz")
        else:
            said.setdefault(name, []).append(notes)
            duties += [n.duty for n in notes]
            ratios += [n.hz / hz for n, hz in zip(notes, want_hz)]
    detail = (f"{len(heard) - len(wrong) - len(stalled)} of {len(wanted)} melodies as the emulator's, in order, "
              f"each step within {INTERVAL_TOLERANCE:.0%}, each pitch {SLOW_FLOOR:.0%}-{1 + PITCH_TOLERANCE:.0%} of it")
    if said:
        detail += (": " + ", ".join(_heard(name, times) for name, times in said.items())
                   + f" Hz; {min(ratios):.2f}-{max(ratios):.2f} of the pitch; duty {median(duties):.2f}")
    if stalled:
        detail += (f"; {len(stalled)} more off the band only where the line stalled ({', '.join(stalled[:3])}), "
                   "while most plays of the same melody held")
    if wrong:
        detail = "; ".join(wrong[:2]) + "; " + detail
    return not wrong, detail
