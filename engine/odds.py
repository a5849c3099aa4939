"""Exact bust odds: the chance that rolling now finds no movable sum.

A roll busts exactly when none of the sums its pairings make is *movable*.
Whether a sum is movable depends only on the set of movable columns, so the
odds are a table over the 2**11 sets, computed once from the roll
distribution (:data:`engine.board.DISTINCT_ROLLS`, the 126 distinct rolls
weighted to the 1,296 ordered ones) with a subset-sum transform; a query
builds the set and looks it up.

>>> from engine import new_game
>>> bust_chance(new_game(["Red"]))
0.0
>>> round(bust_probability_of({2, 3, 12}), 4)  # runners on 2, 3 and 12, none free
0.5617
"""

from .board import COLUMNS, DISTINCT_ROLLS, TOP
from .state import GameState

_FULL = (1 << 11) - 1
_BUST_COUNTS: list[int] | None = None


def _table() -> list[int]:
    global _BUST_COUNTS
    if _BUST_COUNTS is None:
        exact = [0] * (1 << 11)
        for _, weight, pairs in DISTINCT_ROLLS:
            hit = 0
            for a, b in pairs:
                hit |= 1 << (a - 2) | 1 << (b - 2)
            exact[hit] += weight
        # within[S] = number of rolls whose sums all lie inside S.
        within = exact
        for bit in range(11):
            step = 1 << bit
            for s in range(1 << 11):
                if s & step:
                    within[s] += within[s ^ step]
        _BUST_COUNTS = within
    return _BUST_COUNTS


def bust_count(movable: int) -> int:
    """How many of the 1,296 rolls bust when ``movable`` (bit c-2 for column c) are the movable columns."""
    return _table()[_FULL & ~movable]


def movable_mask(state: GameState) -> int:
    """The columns where a sum could move now, as bits (bit c-2 for column c)."""
    runners = state.runners
    mask = 0
    if state.free_runners:  # a runner is still free: every open, untopped column
        claimed = state.claimed
        for c in COLUMNS:
            if claimed[c] < 0 and runners[c] < TOP[c]:
                mask |= 1 << (c - 2)
    else:  # all three runners placed: only their columns, if below the top
        for c in COLUMNS:
            r = runners[c]
            if r and r < TOP[c]:
                mask |= 1 << (c - 2)
    return mask


def bust_probability(state: GameState) -> float:
    """The exact probability that rolling now busts (for the player to act)."""
    return _table()[_FULL & ~movable_mask(state)] / 1296


def bust_probability_of(columns) -> float:
    """The exact bust probability when only ``columns`` are movable."""
    mask = 0
    for c in columns:
        mask |= 1 << (c - 2)
    return bust_count(mask) / 1296


def bust_chance(state: GameState) -> float:
    """The state view's ``bust_chance``: exact probability rounded to 4 decimals."""
    return round(bust_probability(state), 4)


def hit_count(columns) -> int:
    """How many of the 1,296 rolls let at least one of ``columns`` move (STYLE.md's golden counts)."""
    return 1296 - round(bust_probability_of(columns) * 1296)
