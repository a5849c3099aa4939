"""Two boxes on one state directory (issue 10): the second refuses in one line; history and export still read."""

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOWN = re.compile(r"shown game=(\w+) events=(\d+)")


def _cli(*argv, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "boxcli.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, **kw)


class Box:
    """``cantstop-box emulate --trace`` in a child process, keys on its standard input."""

    def __init__(self, state_dir: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("NOTIFY_SOCKET", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "5", "--state-dir", str(state_dir), "--trace"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1,
            cwd=ROOT, env=env)
        self.games: list[str] = []
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stderr:
            m = SHOWN.search(line)
            if m:
                self.games.append(m.group(1))
            else:
                self.lines.append(line.rstrip())

    def keys(self, text: str):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, test, timeout=20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if test():
                return True
            time.sleep(0.02)
        return test()


def test_store_second_box_on_the_same_state_dir_refuses_while_readers_work(tmp_path):
    state_dir = tmp_path / "state"
    first = Box(state_dir)
    try:
        assert first.wait_for(lambda: first.games), first.lines
        first.keys("r")  # New game: ROLL starts it, so the store holds game 1
        assert first.wait_for(lambda: "1" in first.games), first.lines
        second = _cli("emulate", "--state-dir", str(state_dir))
        assert second.returncode == 75, second.stderr
        assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
        assert second.stderr.startswith("cantstop-box: another box (process ") and str(state_dir) in second.stderr
        history = _cli("history", "--state-dir", str(state_dir))
        assert history.returncode == 0 and history.stdout.splitlines()[1].split()[0] == "1", history.stderr
        export = _cli("export", "--state-dir", str(state_dir))
        assert export.returncode == 0 and '"status": "open"' in export.stdout, export.stderr
        assert first.proc.poll() is None  # the first box plays on
        first.keys("qq")  # q asks once: the second quits
        assert first.proc.wait(20) == 0
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
            first.proc.wait(10)
    assert not any("Traceback" in line for line in first.lines), first.lines
    again = _cli("emulate", "--state-dir", str(state_dir), input="q\n")  # free once the first box is gone
    assert again.returncode == 0, again.stderr
