"""TEMPORARY: game facts until the engine exports them (engine helper's branch)."""

from __future__ import annotations

from engine import HEIGHTS, GameState, Phase, nobody_can_win


def stop_claims(g: GameState) -> tuple[int, ...]:
    return tuple(c for c, s in g.runner_steps().items() if s == HEIGHTS[c])


def jumped_squares(prev: GameState, now: GameState, column: int) -> tuple[int, ...]:
    if not now.rules.speedy:
        return ()
    start = prev.runners[column] or prev.markers[prev.current][column]
    others = {m[column] for i, m in enumerate(now.markers) if i != now.current}
    return tuple(sq for sq in range(start + 1, now.runners[column]) if sq in others)


def round_of(g: GameState) -> int:
    return (g.turn - 1) // len(g.players) + 1


def dice_pairs(dice):
    d1, d2, d3, d4 = dice
    return (((d1, d2), (d3, d4)), ((d1, d3), (d2, d4)), ((d1, d4), (d2, d3)))
