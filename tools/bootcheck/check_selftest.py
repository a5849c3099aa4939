"""`make boot-check`'s self-test step: `cantstop-box selftest` on the booted guest, as
docs/building.md tells an owner to run it, with the service stopped.

The kernel records every level set on the lamps' and the buzzer's lines while
it runs; the check presses each button when it asks, and then holds the record
to what the self test says it does: each lamp lit alone in turn, each of the
box's melodies played in order (every one, where a scripted game only ever
rolls, busts now and then, and never wins), each button named.
"""

from __future__ import annotations

import time

from .board import BOX, Board
from .check_lamps import SETTINGS, cue_names, gpio_lines, start_trace, stop_trace
from .lamps import lit_alone
from .tones import all_edges, judge_tones, melodies
from .wiring import BUZZER, LAMPS, PINS

OUT, RC = "/tmp/selftest.out", "/tmp/selftest.rc"
ASKS = "press each button once"  # the self test's line once its lamps and tones are done
WITHIN_S = 240  # for the self test to start, light, play and ask (an emulated processor starts Python slowly)
LAMP_PAUSE_S = 0.6  # how long the self test lights each lamp (boxcli/selftest.py)


def check_selftest(board: Board, name: str) -> None:
    from firmware.cues import CUES, MELODIES

    t = time.monotonic()
    guest = board.guest
    lines = gpio_lines(board)
    start_trace(board, lines.values())
    # In the background, its output to a file (the agent waits for a command's own output to close),
    # unbuffered so that its ask shows when it asks.
    command = f"runuser -u cantstop -- env PYTHONUNBUFFERED=1 {BOX} selftest --config {SETTINGS} --timeout 120"
    guest.sh(f"rm -f {OUT} {RC}; cd /tmp && setsid sh -c '{command} > {OUT} 2>&1; echo $? > {RC}' "
             "< /dev/null > /dev/null 2>&1 &")
    said = _wait(board, lambda text: ASKS in text or guest.sh(f"test -e {RC}").returncode == 0)
    if ASKS in said:
        for button in PINS:
            board.press(button)
            time.sleep(0.3)
    _wait(board, lambda _text: guest.sh(f"test -e {RC}").returncode == 0, within=90)
    trace = stop_trace(board, "selftest-trace.txt")
    said = guest.sh(f"cat {OUT}").stdout
    (board.workdir / "selftest.out").write_text(said)
    rc = guest.sh(f"cat {RC}").stdout.strip() or "none (still running)"
    levels = all_edges(trace)
    lamps_ok, lamps = lit_alone({b: levels.get(lines[b], []) for b in LAMPS}, list(LAMPS), least_s=LAMP_PAUSE_S / 2)
    played = [MELODIES[cue] for cue in CUES]
    tones_ok, tones = judge_tones(melodies(levels.get(lines["buzzer"], [])), played, cue_names(played))
    named = [b for b in PINS if f"{b}: pressed (GPIO{PINS[b]})" in said]
    buttons_ok = rc == "0" and len(named) == len(PINS) and f"buttons: all {len(PINS)} work" in said
    last = (said.strip().splitlines() or ["no output"])[-1]
    board.report.add(name, lamps_ok and tones_ok and buttons_ok, time.monotonic() - t,
                     f"exit {rc}; lamps: {lamps}; tones (GPIO{BUZZER}): {tones}; buttons: {len(named)} of "
                     f"{len(PINS)} named as pressed" + ("" if buttons_ok else f"; it said last: {last[:100]}"))


def _wait(board: Board, done, within: float = WITHIN_S) -> str:
    """The self test's output so far, once ``done(output)`` or ``within`` seconds have passed."""
    deadline = time.monotonic() + within
    text = ""
    while time.monotonic() < deadline:
        text = board.guest.sh(f"cat {OUT} 2>/dev/null").stdout
        if done(text):
            break
        time.sleep(1.0)
    return text
