"""``cantstop-box web``: one line and the usual exit status for every mistake; serving for real over loopback."""

from __future__ import annotations

import socket
import urllib.request

import pytest

from boxcli import cli
from tests.web.webproc import free_port, start_web


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


def test_the_command_serves_until_it_is_stopped(tmp_path, tmp_path_factory):
    port, log = free_port(), tmp_path_factory.mktemp("web") / "web.log"  # the log beside the store, not in it
    server = start_web(tmp_path, port, log, within=20)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert b'data-status="none"' in page.read()  # no store yet: says so
    finally:
        server.terminate()
        server.wait(timeout=20)
    err = log.read_text()
    assert server.returncode == 0, err  # a stop asked for (SIGTERM, as systemctl stop sends) is a clean exit
    assert f"serving the games in {tmp_path} at http://127.0.0.1:{port}/" in err
    assert "Traceback" not in err
