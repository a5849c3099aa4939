"""The buzzer check's soak: many rolls on a booted box, each melody judged as the boot check judges it.

One pass of `make boot-check` hears five or so rolls; a judgement that fails one roll
in fifty on a right box fails a run in ten. Here the box is pressed ROLL and then A,
B and C (whichever pairing the dice allow is taken; the others do nothing) over and
over, as the boot check presses it (each press followed by the screen read back, a
roll by the lamps read too), with the buzzer's line traced throughout. The emulator's
box then plays the same presses with the same dice, and each melody heard is judged
against the one it played (tones.py), one by one. ``busy`` host processes spin on
the host meanwhile, as a build or a browser would on an owner's laptop.

    make image-check IMAGE_CHECK_ARGS='--only tones --rolls 60 --busy 2'

The row says how many melodies were heard as played, the spread of the pitches
heard, and each one that was not, with its cycles; the whole trace is kept in the
run's folder (tone-soak-trace.txt, and the melodies played in tone-soak-played.json), to make a test of.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from statistics import median

from .board import Board, say
from .check_lamps import box_settings, cue_names, gpio_lines, start_trace, stop_trace
from .reference import Reference, rolls
from .tones import _hz, _rises, edges, hear_plays, judge_plays, melodies, pitches

P_SOAK = "the buzzer's line heard as played, roll after roll"
CYCLE = ("ROLL", "A", "B", "C")
TRACE, PLAYED = "tone-soak-trace.txt", "tone-soak-played.json"  # kept in the run's folder


def spin(count: int) -> list[subprocess.Popen]:
    """``count`` host processes that keep a core busy each, until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def soak_tones(board: Board, rolls_wanted: int, busy: int = 0) -> None:
    t = time.monotonic()
    board.find_lines()
    board.find_lamps()
    number = gpio_lines(board)["buzzer"]
    script: list[str] = []
    hogs = spin(busy)
    try:
        start_trace(board, [number])
        for n in range(rolls_wanted):
            if n and n % 10 == 0:
                say(f"tone soak: {n} of {rolls_wanted} rolls pressed")
            for button in CYCLE:
                board.press(button)
                board.screen()
                if button == "ROLL":
                    board.lamps()
                script.append(button)
        trace = stop_trace(board, TRACE)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    record = board.export()
    if record is None:
        board.report.add(P_SOAK, False, time.monotonic() - t, "no game to export after the presses")
        return
    reference = Reference(box_settings(), rolls(record))
    try:
        for button in script:
            reference.press(button)
        played = reference.played
    finally:
        reference.close()
    (board.workdir / PLAYED).write_text(json.dumps(played))
    ok, detail = judge_each(melodies(edges(trace, number)), played)
    board.report.add(P_SOAK, ok, time.monotonic() - t, f"{len(script)} presses, {busy} host cores kept busy; {detail}")


def judge_each(heard: list, played: list) -> tuple[bool, str]:
    """The boot check's judgement of the whole soak, and each melody's on its own: how many held alone, how many
    were off their band only where their line stalled (which the whole excuses while most plays of that melody
    hold), the spread of the pitches that held (each note's heard / played), and the first few that did not,
    with their cycles."""
    names = cue_names(played)
    if len(heard) != len(played):
        return False, f"{len(heard)} melodies heard for {len(played)} played ({', '.join(names[:12])})"
    plays = hear_plays(heard, played)
    ok, _ = judge_plays(plays, played, names)
    ratios, slow, wrong = [], [], []
    for i, (play, levels, want, name) in enumerate(zip(plays, heard, played, names)):
        if play.why:
            rises = _rises(levels)
            cycles = " ".join(f"{(b - a) * 1000:.2f}" for a, b in zip(rises, rises[1:]))
            (slow if play.stall else wrong).append(
                f"melody {i + 1} ({name}) at {levels[0][0]:.3f} s: {play.why}, heard "
                f"{_hz(play.notes)} Hz; cycles (ms) {cycles[:300]}")
        else:
            ratios += [n.hz / hz for n, hz in zip(play.notes, pitches(want))]
    counts = ", ".join(f"{names.count(n)} {n}" for n in dict.fromkeys(names))
    detail = (f"{len(played) - len(slow) - len(wrong)} of {len(played)} melodies ({counts}) held on their own, "
              f"{len(slow)} off their band where their line stalled, {len(wrong)} wrong")
    if len(ratios) >= 2:
        detail += f"; pitches {min(ratios):.2f}-{max(ratios):.2f} of the played, median {median(ratios):.2f}"
    return ok, "; ".join([detail, *(wrong + slow)[:4]])
