"""``cantstop-box web``: one line and the usual exit status for every mistake; serving for real over loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from firmware.commands import cli

ROOT = Path(__file__).resolve().parents[2]


def test_a_bad_port_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["web", "--port", "99999"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "must be a port number from 1 to 65535" in err and len(err.strip().splitlines()) == 1


def test_a_bad_config_is_one_line_and_78(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("[web]\nport = 0\n")
    assert cli.main(["web", "--config", str(config)]) == 78
    err = capsys.readouterr().err.strip()
    assert err.endswith("[web] port = 0: must be from 1 to 65535") and "\n" not in err


def test_a_port_in_use_is_one_line_and_69(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert cli.main(["web", "--host", "127.0.0.1", "--port", str(port), "--state-dir", str(tmp_path)]) == 69
    err = capsys.readouterr().err.strip()
    assert err == f"cantstop-box web: cannot listen on 127.0.0.1 port {port}: the port is in use"


def test_the_command_serves_until_it_is_stopped(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "firmware.commands.cli", "web", "--host", "127.0.0.1",
                               "--port", str(port), "--state-dir", str(tmp_path)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert b'data-status="none"' in page.read()  # no store yet: says so
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.1)
    finally:
        server.terminate()
        out, err = server.communicate(timeout=20)
    assert server.returncode == 0, err  # a stop asked for (SIGTERM, as systemctl stop sends) is a clean exit
    assert f"serving the games in {tmp_path} at http://127.0.0.1:{port}/" in err
    assert "Traceback" not in err
