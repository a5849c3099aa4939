"""firmware.daemon.sdnotify: the datagrams systemd would receive, on real sockets."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import pytest

from firmware.daemon.sdnotify import Notifier


@pytest.fixture
def listener(tmp_path):
    """A datagram socket bound in tmp, standing in for systemd's notify socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


@pytest.fixture
def abstract_listener():
    name = f"cantstop-box-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    yield "@" + name, sock
    sock.close()


def received(sock) -> str:
    return sock.recv(4096).decode()


def test_sdnotify_ready_status_watchdog_stopping_on_a_path_socket(listener):
    path, sock = listener
    with Notifier.from_env({"NOTIFY_SOCKET": path}) as notifier:
        assert notifier.enabled
        assert notifier.ready() is True
        assert received(sock) == "READY=1"
        assert notifier.ready("Red to roll") is True
        assert received(sock) == "READY=1\nSTATUS=Red to roll"
        assert notifier.status("game 3,\n  turn 12")
        assert received(sock) == "STATUS=game 3, turn 12"
        assert notifier.watchdog()
        assert received(sock) == "WATCHDOG=1"
        assert notifier.extend_timeout(2.5)
        assert received(sock) == "EXTEND_TIMEOUT_USEC=2500000"
        assert notifier.stopping()
        assert received(sock) == "STOPPING=1"


def test_sdnotify_abstract_socket(abstract_listener):
    address, sock = abstract_listener
    notifier = Notifier.from_env({"NOTIFY_SOCKET": address})
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"
    assert notifier.ready("up")
    assert received(sock) == "READY=1\nSTATUS=up"
    notifier.close()
    notifier.close()


def test_sdnotify_reads_the_real_environment(listener, monkeypatch):
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    notifier = Notifier.from_env()
    assert notifier.watchdog_interval() == 10.0
    notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"


def test_sdnotify_without_systemd_does_nothing(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    notifier = Notifier.from_env()
    assert not notifier.enabled
    assert notifier.ready("x") is False and notifier.watchdog() is False and notifier.stopping() is False
    assert notifier.watchdog_interval() is None


def test_sdnotify_unsupported_address_is_ignored(caplog):
    with caplog.at_level(logging.WARNING, "firmware.daemon.sdnotify"):
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not notifier.enabled and notifier.ready() is False
    assert "vsock:2:1234" in caplog.text


@pytest.mark.parametrize(
    "env, interval",
    [
        ({"WATCHDOG_USEC": "10000000"}, 10.0),
        ({"WATCHDOG_USEC": "2500000", "WATCHDOG_PID": str(os.getpid())}, 2.5),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_USEC": ""}, None),
        ({}, None),
    ],
)
def test_sdnotify_watchdog_interval(env, interval):
    assert Notifier.from_env({"NOTIFY_SOCKET": "@x", **env}).watchdog_interval() == interval


def test_sdnotify_watchdog_pid_is_checked_at_call_time_after_a_fork(monkeypatch):
    notifier = Notifier.from_env({"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid())})
    assert notifier.watchdog_interval() == 4.0
    monkeypatch.setattr(os, "getpid", lambda: 1)
    assert notifier.watchdog_interval() is None


def test_sdnotify_send_failure_never_raises_and_logs_once(tmp_path, caplog):
    notifier = Notifier.from_env({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    with caplog.at_level(logging.WARNING, "firmware.daemon.sdnotify"):
        assert notifier.ready() is False
        assert notifier.watchdog() is False
        assert notifier.watchdog() is False
    warnings = [r for r in caplog.records if r.name == "firmware.daemon.sdnotify"]
    assert len(warnings) == 1
    assert str(tmp_path / "gone") in warnings[0].getMessage()


def test_sdnotify_recovers_when_the_socket_appears(tmp_path):
    path = str(tmp_path / "late")
    notifier = Notifier.from_env({"NOTIFY_SOCKET": path})
    assert notifier.watchdog() is False
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    try:
        assert notifier.watchdog() is True
        assert received(sock) == "WATCHDOG=1"
    finally:
        sock.close()
