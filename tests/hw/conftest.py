"""Fixtures for the hw adapters: a mock pin factory, a byte-recording serial bus."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory():
    """A private MockFactory, passed in explicitly (never installed globally)."""
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


class RecordingSerial:
    """A luma serial interface that records what a driver would put on the bus."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def command(self, *cmd: int) -> None:
        self.calls.append(("command", tuple(cmd)))

    def data(self, data) -> None:
        self.calls.append(("data", bytes(data)))

    def cleanup(self) -> None:
        self.calls.append(("cleanup",))

    def take(self) -> list[tuple]:
        """The calls so far, forgetting them."""
        calls, self.calls = self.calls, []
        return calls


@pytest.fixture
def serial():
    return RecordingSerial()


class Edges:
    """A button sink that remembers (name, pressed) edges in order."""

    def __init__(self) -> None:
        self.edges: list[tuple[str, bool]] = []

    def __call__(self, name: str, pressed: bool) -> None:
        self.edges.append((name, pressed))


@pytest.fixture
def edges():
    return Edges()
