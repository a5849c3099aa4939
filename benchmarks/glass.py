"""Press to glass: what reaches the OLED after each press, and how long it takes to get there.

Plays whole scripted games through the real daemon (mock pins, real store,
real renderer, a fake clock so no sleeping) and hands every frame to two
drivers of each kind at once: this repository's (:mod:`hw.oled`, only what
changed) and luma.oled's stock one (the whole frame, packed in Python). Both
talk to a recording serial interface, so nothing but their own work is timed.

Per press that changed the screen it reports:

- bytes on the wire: I2C bytes including each transfer's address and control
  byte (SPI sends two fewer per transfer);
- conversion: the driver's ``display()`` CPU time (packing, comparing,
  planning; luma's is its packing loop);
- modelled press to glass = measured press-to-frame (button release through
  the UI step, the store commit and the render) + the driver's CPU time +
  the bus: bits / clock (9 bits a byte on I2C with start and stop, 8 on SPI)
  + a fixed host overhead per transfer (``--transfer-us``, an assumption: a
  Linux i2c-dev/spidev ioctl costs tens of microseconds on a Pi).

Then the same games on the other screen sizes (128x32 SSD1306, 256x64 SSD1322 grey
over SPI), each beside luma's stock driver (``--standard-only`` skips them).

Run: ``.venv/bin/python -m benchmarks.glass [--games N]`` (also part of
``benchmarks/box.py``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import random

from luma.oled import device as luma_devices

from benchmarks.scripted import play_games
from firmware.screens import LAYOUTS, render_pages
from hw import oled
from tests.kit.rig import Rig  # the tests' box on mock pins, a fake clock

ROOT = Path(__file__).resolve().parent.parent

FULL_FRAME = 1024
BUSES = (("I2C 100 kHz", 100_000, 9, 2), ("I2C 400 kHz", 400_000, 9, 2), ("SPI 8 MHz", 8_000_000, 8, 0))
MAX_TRANSFER = 4096  # luma's largest single write (i2c_rdwr, spidev)

#: Each screen size's drivers, (chip, path) -> luma device class: this repository's beside luma's stock one.
PATHS = {
    (128, 64): {("SSD1306", "this path"): oled.ssd1306, ("SSD1306", "luma full frame"): luma_devices.ssd1306,
                ("SH1106", "this path"): oled.sh1106, ("SH1106", "luma full frame"): luma_devices.sh1106},
    (128, 32): {("SSD1306 128x32", "this path"): oled.ssd1306,
                ("SSD1306 128x32", "luma full frame"): luma_devices.ssd1306},
    (256, 64): {("SSD1322 256x64", "this path"): oled.ssd1322, ("SSD1322 256x64", "luma stock"): luma_devices.ssd1322},
}


class CountingSerial:
    """A luma serial interface that only notes the size of each transfer."""

    def __init__(self) -> None:
        self.transfers: list[int] = []

    def command(self, *cmd) -> None:
        self.transfers.append(len(cmd))

    def data(self, data) -> None:
        n = len(data)
        self.transfers += [min(MAX_TRANSFER, n - i) for i in range(0, n, MAX_TRANSFER)]

    def cleanup(self) -> None:
        pass

    def take(self) -> list[int]:
        out, self.transfers = self.transfers, []
        return out


class Path_:
    """One driver on its counting bus, with what each frame cost it."""

    def __init__(self, device_class, size: tuple[int, int] = (128, 64)) -> None:
        self.serial = CountingSerial()
        self.device = device_class(self.serial, width=size[0], height=size[1])
        self.serial.take()
        self.frames: list[tuple[float, list[int]]] = []  # (display() seconds, transfer sizes)

    def show(self, image) -> None:
        t0 = time.perf_counter()
        if image.mode not in (self.device.mode, getattr(self.device, "frame_mode", None)):
            image = image.convert(self.device.mode)  # luma's stock grey driver takes RGB: part of its cost
        self.device.display(image)
        self.frames.append((time.perf_counter() - t0, self.serial.take()))


class Bench:
    """The daemon's display: hands each frame to every path and notes when it arrived."""

    def __init__(self, size: tuple[int, int] = (128, 64)) -> None:
        self.size = size
        self.paths = {key: Path_(cls, size) for key, cls in PATHS[size].items()}
        self.arrived: list[float] = []
        self.rendered: dict[int, tuple] = {}  # id(page) -> (page, render seconds, screen), until shown
        self.renders: list[float] = []  # per frame shown: the render time it cost (0 for a later page)
        self.screens: list[str] = []  # per frame shown: which screen
        self.conversions: list[float] = []
        self.differing: list[int] = []  # bytes of RAM that differ from the previous frame's
        self.since_same: list[int | None] = []  # ... from the last frame of the same screen (None: its first)
        self._previous = b""
        self._last_of: dict[str, bytes] = {}  # screen -> the RAM its last frame left

    def show(self, image) -> None:
        self.arrived.append(time.perf_counter())
        _, seconds, screen = self.rendered.pop(id(image), (image, 0.0, "?"))
        self.renders.append(seconds)
        self.screens.append(screen)
        for key, path in self.paths.items():
            try:
                path.show(image)
            except Exception as err:  # the daemon would log it and go on: a benchmark must stop
                raise SystemExit(f"glass: {' '.join(key)} failed on a {image.size} frame: {err!r}") from err
        t0 = time.perf_counter()
        ram = oled.grey_nibbles(image) if image.mode == "L" else b"".join(oled.page_bytes(image, image.height // 8))
        self.conversions.append(time.perf_counter() - t0)
        self.differing.append(_differing(self._previous, ram))
        same = self._last_of.get(screen)
        self.since_same.append(None if same is None else _differing(same, ram))
        self._previous = self._last_of[screen] = ram

    def dim(self, on) -> None:
        pass

    def keep_last_frame(self) -> None:
        pass

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass


def _differing(old: bytes, new: bytes) -> int:
    """How many bytes of ``new`` differ from ``old`` (all of them when the sizes differ)."""
    if len(old) != len(new):
        return len(new)
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    return len(diff) - diff.count(0)


def play(games: int, state_dir: Path, seed: int = 1,
         size: tuple[int, int] = (128, 64)) -> tuple[Bench, list[tuple[float, range]]]:
    """Whole games by the mock pins: the bench (each frame: when it arrived, its render time, its
    screen, what each driver sent) and per press (release time, the frames it caused).

    A frame of several pages (128x32) is rendered once; its later pages reach the glass as the
    daemon flips them, each counted with the press whose pump showed it.
    """
    bench = Bench(size)

    def timed_render(view, size):
        t0 = time.perf_counter()
        pages = render_pages(view, size)
        seconds = time.perf_counter() - t0
        screen = type(view).__name__.removesuffix("View").lower()
        for k, page in enumerate(pages):  # a flip to a later page draws nothing new
            bench.rendered[id(page)] = (page, 0.0 if k else seconds, screen)
        return pages

    released: list[tuple[float, int]] = []  # at each release: when, and how many frames had arrived

    def edge(name: str, pressed: bool) -> None:
        if not pressed:
            released.append((time.perf_counter(), len(bench.arrived)))

    rig = Rig(state_dir, seed=seed, display=bench, on_edge=edge, renderer=timed_render, dim_after=None)
    rng = random.Random(seed)
    presses: list[tuple[float, range]] = []

    def tap(name: str) -> None:
        rig.tap(name)
        at, before = released[-1]
        presses.append((at, range(before, len(bench.arrived))))

    play_games(rig.box, tap, games, rng)
    rig.close()
    return bench, presses


def played(games: int, seed: int, size: tuple[int, int] = (128, 64)):
    """:func:`play` in a throw-away store; the bench, and per press that changed the screen
    (release time, the frames it caused) with the render time those frames cost."""
    with tempfile.TemporaryDirectory() as tmp:
        bench, presses = play(games, Path(tmp), seed, size)
    shown = [(released, caused) for released, caused in presses if caused]
    render_of = [sum(bench.renders[k] for k in caused) for _, caused in shown]
    return bench, presses, shown, render_of


def bus_seconds(transfers: list[int], clock_hz: int, bits: int, framing: int, transfer_s: float) -> float:
    """Time on the bus for these transfers (payload sizes), with per-transfer framing and host overhead."""
    wire_bits = sum((n + framing) * bits + (2 if framing else 0) for n in transfers)
    return wire_bits / clock_hz + len(transfers) * transfer_s


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e3:6.2f} {pct(values, 0.99) * 1e3:6.2f}"


def report(games: int, transfer_us: float, seed: int = 1) -> list[str]:
    bench, presses, shown, render_of = played(games, seed)
    transfer_s = transfer_us / 1e6
    to_frame = [bench.arrived[caused[0]] - released for released, caused in shown]
    floor = [sum(bench.differing[k] for k in caused) for _, caused in shown]
    lines = [
        f"press to glass, modelled: {len(shown)} presses that changed the screen, of {len(presses)},"
        f" over {games} whole games (seed {seed})",
        f"  render: median {statistics.median(bench.renders) * 1e3:.2f} ms; button release to frame handed over"
        f" (UI step, store commit, render) median {statistics.median(to_frame) * 1e3:.2f} ms,"
        f" p99 {pct(to_frame, 0.99) * 1e3:.2f} ms",
        f"  frame conversion, this path (Pillow transpose + tobytes): median {statistics.median(bench.conversions) * 1e3:.3f} ms,"
        f" p99 {pct(bench.conversions, 0.99) * 1e3:.3f} ms (luma's: its whole display() below)",
        f"  bytes that differ from the previous frame (the floor for any byte-level path): median"
        f" {statistics.median(floor):.0f} ({statistics.median(floor) / FULL_FRAME:.0%}), p99 {pct(floor, 0.99):.0f}",
        "  press to glass = render + display() CPU + bus: I2C (bytes + address + control) x 9 bits + start/stop"
        f" per transfer, SPI bytes x 8 bits, + {transfer_us:.0f} us host overhead per transfer",
        f"  {'':24} {'I2C bytes/press':>17} {'display() ms':>14} {'I2C 100 kHz ms':>15}"
        f" {'I2C 400 kHz ms':>15} {'SPI 8 MHz ms':>15}",
        f"  {'':24} {'median   p99':>17} {'median   p99':>14} {'median   p99':>15} {'median   p99':>15} {'median   p99':>15}",
    ]
    at400 = {}
    for (chip, name), path in bench.paths.items():
        wire, cpu, glass = _figures(path, shown, render_of, transfer_s, BUSES)
        lines.append(f"  {chip + ' ' + name:24} {statistics.median(wire):8.0f} {pct(wire, 0.99):6.0f}   {_ms(cpu)}"
                     + "".join(f"   {_ms(times)}" for times in glass.values()))
        at400[(chip, name)] = (wire, cpu, glass["I2C 400 kHz"])
    lines += _targets(at400, bench.conversions, to_frame, render_of)
    lines += _by_screen_change(shown, bench.differing, bench.screens)
    lines += _same_screen_again(bench.since_same, bench.screens)
    return lines


def _figures(path: Path_, shown, render_of: list[float], transfer_s: float, buses,
             framing: int = 2) -> tuple[list, list, dict]:
    """Per press: bytes on the wire (``framing`` more per transfer: I2C's address and control byte),
    display() seconds, and press to glass on each bus."""
    per = [(sum(path.frames[k][0] for k in caused), [n for k in caused for n in path.frames[k][1]])
           for _, caused in shown]
    wire = [sum(n + framing for n in transfers) for _, transfers in per]
    cpu = [seconds for seconds, _ in per]
    glass = {label: [r + seconds + bus_seconds(transfers, hz, bits, framing, transfer_s)
                     for r, (seconds, transfers) in zip(render_of, per)]
             for label, hz, bits, framing in buses}
    return wire, cpu, glass


def report_other_sizes(games: int, transfer_us: float, seed: int = 1) -> list[str]:
    """The same games on the other screen sizes: per press, bytes sent, display() CPU and press to glass."""
    lines = ["other screen sizes, the same scripted games (bytes/press: I2C framing included for the SSD1306,"
             " SPI payload for the SSD1322; the share is of that panel's whole RAM):"]
    for size in (s for s in PATHS if s != (128, 64)):
        bench, _, shown, render_of = played(games, seed, size)
        grey = LAYOUTS[size].mode == "L"
        full = size[0] * size[1] // (2 if grey else 8)
        buses = [b for b in BUSES if b[0].startswith("SPI")] if grey else [b for b in BUSES if b[1] != 100_000]
        for (chip, name), path in bench.paths.items():
            wire, cpu, glass = _figures(path, shown, render_of, transfer_us / 1e6, buses, framing=0 if grey else 2)
            lines.append(f"  {chip + ' ' + name:31} bytes/press median {statistics.median(wire):5.0f}"
                         f" ({statistics.median(wire) / full:4.0%}) p99 {pct(wire, 0.99):5.0f};"
                         f" display() {_ms(cpu)} ms; "
                         + "; ".join(f"{label} {_ms(times)} ms" for label, times in glass.items()))
    return lines


def _by_screen_change(shown, differing: list[int], screens: list[str], top: int = 6) -> list[str]:
    """The floor (bytes that differ) per kind of press: from which screen to which, the commonest first."""
    kinds: dict[tuple[str, str], list[int]] = {}
    for _, caused in shown:
        before = screens[caused[0] - 1] if caused[0] else "start"
        kinds.setdefault((before, screens[caused[-1]]), []).append(sum(differing[k] for k in caused))
    ranked = sorted(kinds.items(), key=lambda kv: -len(kv[1]))
    out = ["  bytes that differ by screen change (presses, median share of a frame), the commonest first:"]
    out.append("    " + "; ".join(f"{a} -> {b} {len(v)}x {statistics.median(v) / FULL_FRAME:.0%}"
                                  for (a, b), v in ranked[:top]))
    return out


def _same_screen_again(since_same: list[int | None], screens: list[str], top: int = 4) -> list[str]:
    """Each screen against its own last frame: what its new content alone changes, as if no other screen came between.

    The dice screen against the one before it is what a new roll itself
    changes (the dice, the pairings, their legality): the floor for a layout
    that kept one screen up the whole turn.
    """
    kinds: dict[str, list[int]] = {}
    for screen, n in zip(screens, since_same):
        if n is not None:
            kinds.setdefault(screen, []).append(n)
    ranked = sorted(kinds.items(), key=lambda kv: -len(kv[1]))[:top]
    return ["  each screen against its own previous frame (what its new content alone changes), median share:",
            "    " + "; ".join(f"{screen} {len(v)}x {statistics.median(v) / FULL_FRAME:.0%}" for screen, v in ranked)]


def _targets(at400, conversions, to_frame, render_of) -> list[str]:
    wire, cpu, glass = at400[("SSD1306", "this path")]
    checks = [
        ("bytes per press median < 30% of a full frame", statistics.median(wire) / FULL_FRAME < 0.30,
         f"{statistics.median(wire) / FULL_FRAME:.0%}"),
        ("press to glass at 400 kHz median < 8 ms", statistics.median(glass) < 0.008, f"{statistics.median(glass) * 1e3:.2f} ms"),
        ("press to glass at 400 kHz p99 < 26 ms", pct(glass, 0.99) < 0.026, f"{pct(glass, 0.99) * 1e3:.2f} ms"),
        ("frame conversion median < 0.1 ms", statistics.median(conversions) < 0.0001,
         f"{statistics.median(conversions) * 1e3:.3f} ms"),
    ]
    lines = ["  targets (SSD1306, this path): " + "; ".join(f"{what}: {value} {'met' if ok else 'NOT met'}"
                                                          for what, ok, value in checks)]
    extra = [f - r for f, r in zip(to_frame, render_of)]
    luma = at400[("SSD1306", "luma full frame")][2]
    lines.append(f"  adding the measured UI step and store commit (median {statistics.median(extra) * 1e3:.2f} ms) at 400 kHz:"
                 f" this path median {(statistics.median(glass) + statistics.median(extra)) * 1e3:.2f} ms,"
                 f" luma {(statistics.median(luma) + statistics.median(extra)) * 1e3:.2f} ms")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="whole 2-player games to play (3)")
    ap.add_argument("--transfer-us", type=float, default=50.0, help="host overhead per bus transfer, microseconds (50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--standard-only", action="store_true", help="only the 128x64 panels (the issue's targets)")
    args = ap.parse_args(argv)
    print("\n".join(report(args.games, args.transfer_us, args.seed)))
    if not args.standard_only:
        print("\n".join(report_other_sizes(args.games, args.transfer_us, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
