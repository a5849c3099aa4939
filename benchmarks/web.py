"""Web view benchmark: press to page update, page weight, the web process's memory.

Targets (issue 23): a page updates within a second of a press (server-sent
events; median and 99th percentile printed) with 1 and with 50 pages open;
the web process under 40 MB resident on a 64-bit Pi; a stop (SIGTERM) with 50
pages open well within the unit's TimeoutStopSec=5s (aim: under 1 s), every
stream ended cleanly, exit status 0.

The box is firmware's Box on gpiozero's mock pins with a real store, beside
300 finished games (a long history); the web view is `cantstop-box web` in
its own process, as on the Pi; each open page is an event stream read over
127.0.0.1. A press is timed from the button's edge to the moment every page
has the new game part.

Run: ``make bench`` or ``.venv/bin/python -m benchmarks.web [--presses N] [--pages 1,50]``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks.store import fill_history
from tests.kit.rig import Rig  # the tests' box on mock pins

ROOT = Path(__file__).resolve().parents[1]
#: Views of each page timed after the runs: a single view can meet a pause of the host or the collector.
VIEWS = 7


class Page(threading.Thread):
    """One open page: an event stream over loopback, noting when each version arrived."""

    def __init__(self, port: int, number: int = 0):
        super().__init__(daemon=True)
        # each page a phone of its own (127.0.0.10 and up, all loopback): the web view caps streams per address
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30,
                                             source_address=(f"127.0.0.{10 + number % 240}", 0))
        self.sock.sendall(b"GET /events?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.arrived: dict[int, float] = {}
        self.sizes: dict[int, int] = {}  # version -> bytes of its event's data
        self.cond = threading.Condition()
        self.tail = b""  # the last bytes received

    def run(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                now = time.perf_counter()
                self.tail = (self.tail + chunk)[-16:]
                buffer += chunk
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    for line in event.split(b"\n"):
                        if line.startswith(b"data: "):
                            v = json.loads(line[6:])["v"]
                            with self.cond:
                                self.arrived[v] = now
                                self.sizes[v] = len(line) - 6
                                self.cond.notify_all()
        except OSError:
            return

    def wait_past(self, version: int, timeout: float = 10.0) -> tuple[int, float]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                newer = [v for v in self.arrived if v > version]
                if newer:
                    v = min(newer)
                    return v, self.arrived[v]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no update within 10 s")
                self.cond.wait(left)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss(pid: int) -> dict[str, int]:
    """Resident memory in KB: VmRSS (all of it), VmHWM (its peak), RssAnon (its own), RssFile, Pss
    (shared pages divided among the processes sharing them: the Python binary and libraries the box uses too)
    and Private (pages no other process has: what stopping it would give back)."""
    fields = {"Pss": 0, "Private": 0}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
            fields[key] = int(value.split()[0])
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            key, _, value = line.partition(":")
            if key == "Pss":
                fields["Pss"] = int(value.split()[0])
            elif key in ("Private_Clean", "Private_Dirty"):
                fields["Private"] += int(value.split()[0])
    except OSError:
        pass
    return fields


def memory_line(m: dict[str, int]) -> str:
    return (f"{m['VmRSS'] / 1024:.1f} MB resident ({m['RssAnon'] / 1024:.1f} MB its own, "
            f"{m['RssFile'] / 1024:.1f} MB shared files; proportional share {m['Pss'] / 1024:.1f} MB, "
            f"private {m['Private'] / 1024:.1f} MB; {m.get('Threads', 0)} threads)")


def get(url: str, gzipped: bool = False) -> bytes:
    """The body as sent: gzipped when ``gzipped`` asks for it (a phone's browser always does)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzipped else {})
    with urllib.request.urlopen(request, timeout=30) as r:
        return r.read()


def bench_pages(table: Rig, port: int, pages: int, presses: int, sent: list | None = None) -> list[float]:
    """Press to page update for each page, each press; ``sent`` gets the bytes each page was sent per press."""
    opened = [Page(port, i) for i in range(pages)]
    for p in opened:
        p.start()
    version = max(p.wait_past(0)[0] for p in opened)  # each page's first event: the game as it is
    first = {id(p): set(p.sizes) for p in opened}
    times = []
    for _ in range(presses):
        pressed = time.perf_counter()
        table.play_on(events=1)  # one press that stores an event (a roll, a move or a stop)
        latest = version
        for p in opened:
            v, at = p.wait_past(version)
            latest = max(latest, v)
            times.append(at - pressed)
        version = latest
        time.sleep(0.02)
    if sent is not None:
        for p in opened:
            sent.extend(size for v, size in p.sizes.items() if v not in first[id(p)])
    for p in opened:
        # a tab closed: the connection ends now (a bare close() while the reader thread sits in recv() would
        # leave it open until the server's next heartbeat, and the figures after the runs would count it)
        with contextlib.suppress(OSError):
            p.sock.shutdown(socket.SHUT_RDWR)
        p.join(5)
        p.sock.close()
    return times


def stop_with_pages(web: subprocess.Popen, port: int, pages: int) -> tuple[int, float, int]:
    """SIGTERM with ``pages`` event streams open: (exit status, seconds to exit, streams whose body ended properly)."""
    opened = [Page(port, i) for i in range(pages)]
    for p in opened:
        p.start()
    for p in opened:
        p.wait_past(0)
    sent = time.perf_counter()
    web.send_signal(signal.SIGTERM)
    code = web.wait(30)
    took = time.perf_counter() - sent
    ended = 0
    for p in opened:
        p.join(5)
        ended += p.tail.endswith(b"\r\n0\r\n\r\n")  # the chunked body's last, empty chunk: not cut off
        p.sock.close()
    return code, took, ended


def web_env() -> dict[str, str]:
    """The web process's environment, as on the Pi: ``MALLOC_ARENA_MAX=1`` as its systemd unit sets, and
    its modules read from bytecode caches, as pip compiled them when it installed the box.

    A venv made here (uv compiles nothing) under ``PYTHONDONTWRITEBYTECODE`` compiled every module at every
    start: about 4.6 MB of the compiler's memory stayed resident, which the Pi's process never holds. So the
    caches go where ``make`` keeps them (``.venv/pycache``) and ``main`` starts the web view once before the
    measured start, to fill them.
    """
    env = {**os.environ, "MALLOC_ARENA_MAX": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(ROOT / ".venv" / "pycache"))
    return env


def start_web(state: Path, port: int, env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """``cantstop-box web`` on the store in ``state``, its log in ``log_path``, once it answers ``/now.json``
    (or has exited: the caller looks at ``poll()``). The web view only reads: a start leaves the store as it was."""
    with open(log_path, "w") as log:  # a file: a pipe nobody reads could fill and stall it
        web = subprocess.Popen([str(ROOT / ".venv/bin/cantstop-box"), "web", "--state-dir", str(state), "--host",
                                "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=log,
                               text=True, env=env)
    deadline = time.monotonic() + 30
    while web.poll() is None:
        try:
            get(f"http://127.0.0.1:{port}/now.json")
            break
        except OSError:
            if time.monotonic() > deadline:
                web.kill()
                web.wait()
                break
            time.sleep(0.1)
    return web


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=60, help="presses timed per run (default 60)")
    parser.add_argument("--pages", default="1,50", help="open pages per run, comma-separated (default 1,50)")
    parser.add_argument("--history", type=int, default=300, help="finished games in the store (default 300)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="times the runs are repeated, memory printed after each: growth stays flat (default 2)")
    parser.add_argument("--settle", type=float, default=300.0,
                        help="seconds to wait after the runs for the background sweep of the history (default 300)")
    args = parser.parse_args(argv)
    state = Path(tempfile.mkdtemp(prefix="cantstop-web-bench-"))
    web = None
    try:
        fill_history(state, args.history)
        table = Rig(state, seed=3, rest=1.0)  # presses are instant, each past the guard; the store is real
        table.play_on(events=1)
        port = free_port()
        env = web_env()
        warm = start_web(state, port, env, state / "warm-up.log")  # once to fill the bytecode caches: see web_env
        warm.terminate()
        warm.wait(10)
        web = start_web(state, port, env, state / "web.log")
        if web.poll() is not None:
            print((state / "web.log").read_text(), file=sys.stderr)
            return 1
        started = rss(web.pid)
        print(f"web view beside a box, {args.history} finished games in the store, {os.cpu_count()} cores, "
              f"{platform.machine()} (the target is a 64-bit Pi, aarch64)")
        print(f"web process at start: {memory_line(started)}")
        deep = max(1, args.history // 20)  # the history's last page
        cold = max(1, deep - 1)
        t = time.perf_counter()
        size = len(get(f"http://127.0.0.1:{port}/games?page={cold}"))
        print(f"  /games?page={cold} at start (before the sweep has checked it): {size / 1024:.1f} KB in "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")
        t = time.perf_counter()
        page = get(f"http://127.0.0.1:{port}/people").decode()
        print(f"  /people at start: {len(page) / 1024:.1f} KB in {(time.perf_counter() - t) * 1000:.0f} ms"
              + (" (still adding up: it says so)" if 'id="counting"' in page else ""))
        sent: list[int] = []
        for round_ in range(1, max(1, args.rounds) + 1):
            for pages in (int(n) for n in args.pages.split(",")):
                times = sorted(bench_pages(table, port, pages, args.presses, sent))
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(f"press to page update, {pages:3d} page(s) open: median {statistics.median(times) * 1000:6.1f} "
                      f"ms, p99 {p99 * 1000:6.1f} ms, max {times[-1] * 1000:6.1f} ms ({len(times)} updates)")
            print(f"web process after round {round_} of presses: {memory_line(rss(web.pid))}")
        if sent:
            sent.sort()
            print(f"sent to each page per press: median {statistics.median(sent) / 1024:.2f} KB, "
                  f"max {sent[-1] / 1024:.2f} KB ({len(sent)} events; a new page's first event is the whole part)")
        waited = time.perf_counter()
        while "checked every game in the history" not in (state / "web.log").read_text():
            if time.perf_counter() - waited > args.settle:
                print(f"the background sweep had not checked the whole history {args.settle:.0f} s after the runs")
                break
            time.sleep(0.2)
        else:
            line = next(x for x in (state / "web.log").read_text().splitlines() if "checked every game" in x)
            print(f"background sweep: {line.split('cantstop.web: ')[-1]} (from the web view's start)")
        weights, packed = {}, {}
        for path in ("/", "/static/style.css", "/static/seats.css", "/static/live.js", "/static/icon.svg"):
            weights[path] = len(get(f"http://127.0.0.1:{port}{path}"))
            packed[path] = len(get(f"http://127.0.0.1:{port}{path}", gzipped=True))
        for label, sizes in (("as sent to a browser (gzip)", packed), ("uncompressed", weights)):
            parts = ", ".join(f"{k.removeprefix('/static/')} {v / 1024:.1f}" for k, v in sizes.items())
            print(f"page weight {label} (the live page and everything it loads): {sum(sizes.values()) / 1024:.1f} KB "
                  f"({parts} KB), nothing from elsewhere")
        print(f"each page {VIEWS} times in a row (the first view, then the median and the slowest of all):")
        loads = len(weights)
        gc.collect()
        gc.disable()  # the pages' time, not this process's: a full pass here (the box, its pages) would count
        for path in ("/", "/games", f"/games?page={deep // 2}", f"/games?page={deep}",
                     f"/games?before={args.history // 2}", "/games?before=21", "/games/1", "/games/1.json", "/people"):
            times, size = [], 0
            for _ in range(VIEWS):
                t = time.perf_counter()
                try:
                    size = len(get(f"http://127.0.0.1:{port}{path}"))
                except OSError as err:  # a page over the 30 s time-out: said, and the figures go on
                    print(f"  {path}: no answer in {(time.perf_counter() - t) * 1000:.0f} ms ({err})")
                    break
                times.append((time.perf_counter() - t) * 1000)
            loads += len(times)
            if times:
                print(f"  {path}: {size / 1024:.1f} KB, first {times[0]:.0f} ms, "
                      f"median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms")
        gc.enable()
        for _ in range(10):  # many page loads: the history, each game, the statistics (growth stays flat)
            for path in ("/", "/games", "/games?page=3", "/games/1", "/games/7?step=5", "/people"):
                get(f"http://127.0.0.1:{port}{path}")
                loads += 1
        end = rss(web.pid)
        print(f"web process after the runs and {loads} page loads: {memory_line(end)}, "
              f"peak {end['VmHWM'] / 1024:.1f} MB; target under 40 MB resident on a 64-bit Pi")
        code, took, ended = stop_with_pages(web, port, 50)
        web = None
        bad = sum(any(w in line for w in ("Traceback", "CancelledError", "ERROR"))
                  for line in (state / "web.log").read_text().splitlines())
        print(f"stop (SIGTERM) with 50 pages open: exited {code} in {took * 1000:.0f} ms, {ended} of 50 streams "
              f"ended cleanly, {bad} traceback/error line(s) logged; target well under 1 s (the unit's "
              f"TimeoutStopSec=5s)")
        return 0
    finally:
        if web is not None:
            web.terminate()
            try:
                web.wait(10)
            except subprocess.TimeoutExpired:
                print("the web process did not stop within 10 s of SIGTERM: killed", file=sys.stderr)
                web.kill()
                web.wait()
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
