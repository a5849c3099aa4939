"""Helpers for the players' tests: states built from random play, with any variant."""

import random

from engine import STOP, GameState, Phase, Roll, Rules, apply, can_stop, new_game
from engine.board import ALL_ROLLS


def random_states(seed: int, rules: Rules, players: int = 2, limit: int = 300):
    """Every state of one game played by lots (stop chance 0.3), from a seeded RNG."""
    rng = random.Random(seed)
    state = new_game([f"P{k}" for k in range(players)], rules)
    out = []
    while state.phase is not Phase.OVER and len(out) < limit:
        out.append(state)
        if state.phase is Phase.MOVE:
            event = rng.choice(state.moves)
        elif state.phase is Phase.DECIDE and can_stop(state) and rng.random() < 0.3:
            event = STOP
        else:
            event = Roll(rng.choice(ALL_ROLLS))
        state = apply(state, event)
    return out


def with_board(state: GameState, runners=None, markers=None, claimed=None) -> GameState:
    """``state`` with runners / markers / claims given as {column: value} dicts."""
    def row(d, fill=0):
        r = [fill] * 13
        for c, v in (d or {}).items():
            r[c] = v
        return tuple(r)

    changes = {}
    if runners is not None:
        changes["runners"] = row(runners)
    if markers is not None:
        changes["markers"] = tuple(row(m) for m in markers)
    if claimed is not None:
        changes["claimed"] = row(claimed, -1)
    return state._replace(**changes)
