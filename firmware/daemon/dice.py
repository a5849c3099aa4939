"""Where the dice come from: the OS entropy source on the box; reproducible ones for tests and --seed."""

from __future__ import annotations

import random
from collections.abc import Callable

def os_dice() -> tuple[int, int, int, int]:
    """Four dice from the operating system's entropy source."""
    rng = _SYSTEM_RANDOM
    return tuple(rng.randint(1, 6) for _ in range(4))  # type: ignore[return-value]


_SYSTEM_RANDOM = random.SystemRandom()


def seeded_dice(seed: int) -> Callable[[], tuple[int, int, int, int]]:
    """Reproducible dice, for tests and the emulator's ``--seed`` only."""
    rng = random.Random(seed)
    return lambda: tuple(rng.randint(1, 6) for _ in range(4))  # type: ignore[return-value]


def positional_dice(seed: int, position: Callable[[], object]) -> Callable[[], tuple[int, int, int, int]]:
    """Reproducible dice drawn from ``seed`` and the game's ``position()`` (e.g. game id and events so far).

    Nothing is carried from roll to roll, so a game resumed after a restart
    rolls what it would have rolled without the restart, never its opening
    dice again (the emulator's ``--seed``).
    """
    def dice() -> tuple[int, int, int, int]:
        rng = random.Random(f"{seed}:{position()}")  # text seeds hash the same in every process
        return tuple(rng.randint(1, 6) for _ in range(4))  # type: ignore[return-value]

    return dice
