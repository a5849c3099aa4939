"""Box benchmark: press-to-frame latency, idle CPU, resident memory.

Targets (issue 3), on this machine:

- from a button callback to the frame handed to the display: median under
  2 ms, 99th percentile under 10 ms, over whole games driven through
  gpiozero's mock pins (the real daemon loop in its own thread, the real
  store committing every event first, the real renderer);
- idle: no polling loop, under 1% of one core while waiting for a press;
- resident memory of the running daemon (``cantstop-box emulate``) under 60 MB.

Then press to glass (issue 14, :mod:`glass`): bytes on the wire per press,
frame conversion, and the modelled time until the pixels change at 100 and
400 kHz I2C and 8 MHz SPI, for this repository's display path beside
luma.oled's full-frame one, over whole scripted games.

And presses per game (issue 12, :mod:`presses`): a scripted 2-player game
and a game against a box seat, counted on mock pins with a patient table.
On main before issue 12: 204.8 presses for two people, 102.6 with a box seat
(8.64 per box turn), 5 seeded games each; after: 159.4 and 35.2 (0.74 per
box turn: one for a stop, none for a bust). Targets: a box turn costs one
press (its stop's confirm; a bust none), a person's handover at most two.

Issue 13: the same targets in Japanese and Korean (``--language ja``: the
box plays in that language), and resident memory with ja/ko under 60 MB.

Run: ``make bench`` or ``.venv/bin/python -m benchmarks.box [--games N] [--glass-games N] [--language en|ja|ko]``.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import glass, presses
from benchmarks.scripted import play_games
from tests.kit.rig import Rig  # the tests' box on mock pins, here in real time

ROOT = Path(__file__).resolve().parent.parent


class TimedDisplay:
    """A display that notes when each frame was handed to it."""

    size = (128, 64)

    def __init__(self):
        self.shown_at: list[float] = []
        self.event = threading.Event()

    def show(self, image):
        self.shown_at.append(time.perf_counter())
        self.event.set()

    def clear(self):
        pass

    def dim(self, on):
        pass

    def keep_last_frame(self):
        pass

    def close(self):
        pass


def latency(games: int, state_dir: Path, seed: int = 1, language: str = "en") -> list[float]:
    """Seconds from each release callback to the frame it caused, over ``games`` whole games."""
    display = TimedDisplay()
    released_at: list[float] = []

    def edge(name, pressed):
        if not pressed:
            released_at.append(time.perf_counter())

    rig = Rig(state_dir, seed=seed, display=display, language=language, live=True, on_edge=edge)
    rng = random.Random(seed)
    samples = []

    def tap(name):
        pin = rig.pin(name)
        pin.drive_low()
        time.sleep(0.035)  # past the debounce window, well short of a long press
        display.event.clear()
        before = len(display.shown_at)
        pin.drive_high()
        if display.event.wait(1.0) and len(display.shown_at) > before:
            samples.append(display.shown_at[before] - released_at[-1])
        time.sleep(0.035)

    play_games(rig.box, tap, games, rng)
    rig.shutdown()
    return samples


def idle_cpu(seconds: float, language: str = "en") -> float:
    """Share of one core the running emulator uses while nobody presses anything."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = _emulator(tmp, language)
        try:
            time.sleep(2.0)  # let it start
            t0, c0 = time.monotonic(), _cpu_seconds(proc.pid)
            time.sleep(seconds)
            t1, c1 = time.monotonic(), _cpu_seconds(proc.pid)
            return (c1 - c0) / (t1 - t0)
        finally:
            proc.kill()
            proc.wait()


def resident_mb(language: str = "en") -> tuple[float, float]:
    """Resident memory (MB) of the running emulator after start-up, and after playing a while."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = _emulator(tmp, language)
        try:
            time.sleep(2.0)
            start = _rss_mb(proc.pid)
            for _ in range(60):
                proc.stdin.write("rabcrs\n")
                proc.stdin.flush()
                time.sleep(0.4)
            return start, _rss_mb(proc.pid)
        finally:
            proc.kill()
            proc.wait()


def _emulator(state_dir: str, language: str = "en") -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "1", "--state-dir", state_dir,
         "--language", language],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="whole 2-player games to play for the latency (3)")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure (10)")
    ap.add_argument("--glass-games", type=int, default=3, help="whole games for press to glass (3)")
    ap.add_argument("--press-games", type=int, default=5, help="games per table for presses per game (5)")
    ap.add_argument("--transfer-us", type=float, default=50.0,
                    help="press to glass: host overhead per bus transfer, microseconds (50)")
    ap.add_argument("--language", choices=("en", "ja", "ko"), default="en", help="the language the box plays in")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        samples = latency(args.games, Path(tmp), language=args.language)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"press to frame ({args.language}): {len(samples)} presses over {args.games} games: "
          f"median {statistics.median(samples) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, "
          f"max {samples[-1] * 1e3:.2f} ms (commit to the store included)")
    print(f"idle: {idle_cpu(args.idle, args.language) * 100:.2f}% of one core over {args.idle:.0f} s")
    start, played = resident_mb(args.language)
    print(f"resident memory of 'cantstop-box emulate --language {args.language}': {start:.1f} MB after start, {played:.1f} MB after play")
    if args.glass_games:
        print("\n".join(glass.report(args.glass_games, args.transfer_us)))
        print("\n".join(glass.report_other_sizes(args.glass_games, args.transfer_us)))
    if args.press_games:
        print("\n".join(presses.report(args.press_games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
