"""What a restart reads back besides the open game: the kept UI facts, and a result still on screen.

The daemon keeps :func:`firmware.ui.memory` in the store's facts whenever it
changes; at start these read it back, and find the finished game the table
was still looking at when the power went (:mod:`firmware.ui.memory`).
"""

from __future__ import annotations

import logging

log = logging.getLogger("cantstop.daemon")

MEMORY_KEY = "table"  # the store fact holding ui.memory()


def kept(store) -> dict | None:
    """The UI facts kept at the last change, or None."""
    try:
        value = store.fact(MEMORY_KEY)
    except Exception as err:
        log.error("cannot read the kept screen: %s", err)
        return None
    return value if isinstance(value, dict) else None


def last_result(store, memory: dict | None):
    """The finished game the table was looking at when the power went, or None."""
    game_id = memory.get("game") if memory and memory.get("screen") == "game" else None
    if type(game_id) is not int:
        return None
    try:
        stored = store.game(game_id)
    except Exception:
        return None
    return stored if stored.status == "finished" else None
