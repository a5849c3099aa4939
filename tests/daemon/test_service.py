"""The daemon as a service: READY after the first frame, a watchdog fed while idle, a clean SIGTERM.

Runs the real ``cantstop-box emulate`` (the same daemon as ``run``, on mock
pins) with ``$NOTIFY_SOCKET`` pointing at a socket of the test's own.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine import Roll
from firmware.store import Store

ROOT = Path(__file__).resolve().parents[2]


def start(tmp_path, sock_path, watchdog_usec=None, keys=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NOTIFY_SOCKET=str(sock_path))
    env.pop("WATCHDOG_USEC", None)
    if watchdog_usec:
        env["WATCHDOG_USEC"] = str(watchdog_usec)
    return subprocess.Popen(
        [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "4", "--state-dir", str(tmp_path / "state"),
         "--trace"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
    )


def receive(sock, until, timeout=10.0):
    """Datagrams until one equals/contains ``until`` (or the timeout)."""
    got = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            data = sock.recv(4096).decode()
        except TimeoutError:
            break
        got.append(data)
        if until in data.split("\n"):
            break
    return got


def test_service_ready_watchdog_and_clean_sigterm(tmp_path):
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    proc = start(tmp_path, sock_path, watchdog_usec=200_000)
    try:
        got = receive(sock, "READY=1")
        assert any("READY=1" in m for m in got), got
        # Idle: nobody presses anything, and the loop still feeds the watchdog.
        t0 = time.monotonic()
        pings = [m for m in receive(sock, "never", timeout=1.0) if "WATCHDOG=1" in m]
        assert len(pings) >= 5, f"{len(pings)} watchdog pings in {time.monotonic() - t0:.1f} s"
        # Start a game and roll, then stop the service.
        proc.stdin.write("rr\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 10
        store_events = 0
        while time.monotonic() < deadline and store_events < 1:
            time.sleep(0.1)
            with Store.open(tmp_path / "state", readonly=True) as store:
                g = store.open_game()
                store_events = len(g.events) if g else 0
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        got = receive(sock, "STOPPING=1", timeout=2.0)
        assert any("STOPPING=1" in m for m in got)
        # The last frame shown is the 'off' screen, and the roll is saved.
        shown = [line for line in err.splitlines() if line.startswith("shown ")]
        assert shown[-1].endswith("events=1 view=OffView"), shown[-1]
        with Store.open(tmp_path / "state", readonly=True) as store:
            g = store.open_game()
            assert isinstance(g.events[0], Roll) and len(g.events) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()


def test_service_no_watchdog_means_no_wakeups(tmp_path):
    """Without a watchdog the idle loop sleeps on its queue: no notify traffic beyond READY."""
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    proc = start(tmp_path, sock_path)
    try:
        assert any("READY=1" in m for m in receive(sock, "READY=1"))
        assert receive(sock, "never", timeout=0.8) == []
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()


def test_service_emulator_box_seats_play_a_whole_game(tmp_path):
    """In the real emulator: both seats set to 'box' from the keys; they play by themselves (the
    daemon's timer paces them), and ROLL confirms each stop to the win."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NOTIFY_SOCKET", None)
    config = tmp_path / "config.toml"
    config.write_text("[game]\nbox_pace_ms = 20\nhandover_guard_ms = 0\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "8", "--state-dir", str(tmp_path / "state"),
         "--trace", "--config", str(config)],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
    )
    shown: list[str] = []
    other: list[str] = []
    arrived = threading.Condition()  # notified at each frame the emulator reports
    ended = threading.Event()

    def read():
        for line in proc.stderr:
            with arrived:
                if line.startswith("shown "):
                    shown.append(line.strip())
                else:
                    other.append(line.rstrip())
                arrived.notify_all()
        with arrived:
            ended.set()  # the emulator is gone: stop waiting for frames
            arrived.notify_all()

    def wait_until(done, timeout=10.0) -> bool:
        with arrived:
            return arrived.wait_for(done, timeout)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def press(key):
        """One key, then wait for the frame it brings (every key here changes the screen)."""
        before = len(shown)
        proc.stdin.write(key + "\n")
        proc.stdin.flush()
        wait_until(lambda: len(shown) > before)

    def won():
        return any(line.endswith("view=WinView") for line in shown)

    try:
        assert wait_until(lambda: shown), other  # the first frame: the new-game screen
        # New-game rows: Players, Starts, P1 colour, P1 plays, P2 colour, P2 plays, ...
        for key in "bbbcbbcr":
            press(key)
        assert shown[-1].endswith("view=TurnView"), (shown, other)
        end = time.monotonic() + 90
        while time.monotonic() < end and not won():
            if shown[-1].endswith("view=InstructionsView"):  # a stop (or a bust, briefly) to confirm
                press("r")
            else:  # the box plays by itself: wait for its next frame
                seen = len(shown)
                wait_until(lambda: len(shown) > seen or ended.is_set(), timeout=max(0.0, end - time.monotonic()))
        proc.stdin.write("qq\n")  # q asks once: the second quits
        proc.stdin.flush()
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(5)
    assert any(line.endswith("view=WinView") for line in shown), (shown[-5:], other[-5:])
    with Store.open(tmp_path / "state", readonly=True) as store:
        summary = store.games()[0]
        assert summary.status == "finished"
        assert [s["bot"] for s in store.game(summary.id).meta["seats"]] == ["strong", "strong"]


def test_service_emulator_starts_in_a_terminal_too_small(monkeypatch, tmp_path, capsys):
    """A terminal smaller than the drawn screen gets one clear line, not a garbled frame, and no refusal to
    start: the display is made and says so until the window grows (tests/hostile/test_hostile_emulator.py
    plays it on a pseudo-terminal)."""
    import argparse
    import shutil

    from PIL import Image

    from boxcli import emulate

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a, **k: os.terminal_size((60, 24)))
    args = argparse.Namespace(config=None, state_dir=str(tmp_path), verbose=False, seed=None, trace=False)
    display = emulate._terminal_display(args, (128, 64))
    display.show(Image.new("1", (128, 64)))
    out = capsys.readouterr().out
    assert "60x24 is too small" in out and "130x35" in out and "▀" not in out
