"""The board: eleven columns named by dice sums, their heights, and the rolls.

>>> HEIGHTS[7], HEIGHTS[2], TOTAL_STEPS
(13, 3, 83)
>>> pairing_sums((2, 3, 4, 5))
((5, 9), (6, 8), (7, 7))
>>> len(ALL_ROLLS)
1296
"""

from itertools import product

COLUMNS: tuple[int, ...] = tuple(range(2, 13))
"""The column numbers, which are the dice sums 2..12."""

HEIGHTS: dict[int, int] = {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}
"""Squares per column; step ``HEIGHTS[c]`` is the top of column ``c``."""

TOTAL_STEPS = sum(HEIGHTS.values())

RUNNERS = 3
"""Neutral runners available in one turn."""

# Indexed by column number (0 and 1 unused) so hot loops avoid dict lookups.
TOP: tuple[int, ...] = (0, 0) + tuple(HEIGHTS[c] for c in COLUMNS)

ALL_ROLLS: tuple[tuple[int, int, int, int], ...] = tuple(product(range(1, 7), repeat=4))
"""Every ordered roll of four dice, each equally likely."""


def pairing_sums(dice) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The three pairings of four dice, in the fixed order, as pairs of sums.

    Pairing A is d1+d2 / d3+d4, B is d1+d3 / d2+d4, C is d1+d4 / d2+d3.
    """
    d1, d2, d3, d4 = dice
    return ((d1 + d2, d3 + d4), (d1 + d3, d2 + d4), (d1 + d4, d2 + d3))


def _distinct_pairs(dice) -> tuple[tuple[int, int], ...]:
    seen = []
    for a, b in pairing_sums(dice):
        pair = (a, b) if a <= b else (b, a)
        if pair not in seen:
            seen.append(pair)
    return tuple(seen)


DISTINCT_PAIRS: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = {
    roll: _distinct_pairs(roll) for roll in ALL_ROLLS
}
"""Per roll, its pairings as (low, high) sums with repeats removed."""
