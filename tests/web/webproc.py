"""A real ``cantstop-box web`` process for the tests that need one (a port of its own, a log file).

Its log is a file, not a pipe: nothing can stall on a full pipe nobody reads.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_web(state_dir, port: int, log: Path, within: float = 30.0) -> subprocess.Popen:
    """``cantstop-box web`` on 127.0.0.1:``port``, once its /now.json answers (an AssertionError with its log if
    it exits or has not answered ``within`` seconds)."""
    out = open(log, "w")
    web = subprocess.Popen([sys.executable, "-m", "boxcli.cli", "web", "--host", "127.0.0.1",
                            "--port", str(port), "--state-dir", str(state_dir)], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=out)
    out.close()
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/now.json", timeout=5) as page:
                page.read()
            return web
        except OSError:
            if web.poll() is not None or time.monotonic() > deadline:
                web.kill()
                raise AssertionError(f"the web view did not start: {log.read_text()}")
            time.sleep(0.1)
