"""The board: eleven columns named by dice sums, their heights, and the rolls.

>>> HEIGHTS[7], HEIGHTS[2], TOTAL_STEPS
(13, 3, 83)
>>> pairing_sums((2, 3, 4, 5))
((5, 9), (6, 8), (7, 7))
>>> dice_pairs((2, 3, 4, 5))
(((2, 3), (4, 5)), ((2, 4), (3, 5)), ((2, 5), (3, 4)))
>>> len(ALL_ROLLS), len(DISTINCT_ROLLS), sum(weight for _, weight, _ in DISTINCT_ROLLS)
(1296, 126, 1296)
"""

from itertools import combinations_with_replacement, product
from math import factorial

COLUMNS: tuple[int, ...] = tuple(range(2, 13))
"""The column numbers, which are the dice sums 2..12."""

HEIGHTS: dict[int, int] = {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}
"""Squares per column; step ``HEIGHTS[c]`` is the top of column ``c``."""

TOTAL_STEPS = sum(HEIGHTS.values())

RUNNERS = 3
"""Neutral runners available in one turn."""

# Indexed by column number (0 and 1 unused) so hot loops avoid dict lookups.
TOP: tuple[int, ...] = (0, 0) + tuple(HEIGHTS[c] for c in COLUMNS)

PAIRINGS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (2, 3)),  # A: d1+d2 / d3+d4
    ((0, 2), (1, 3)),  # B: d1+d3 / d2+d4
    ((0, 3), (1, 2)),  # C: d1+d4 / d2+d3
)
"""The three pairings A, B, C in their fixed order, as indices into the four dice."""

PAIRING_LABELS = "ABC"


def dice_pairs(dice) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The three pairings of four dice, in the fixed order, as the two pairs of dice each makes."""
    return tuple(((dice[i], dice[j]), (dice[k], dice[m])) for (i, j), (k, m) in PAIRINGS)


def pairing_sums(dice) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The three pairings of four dice, in the fixed order, as pairs of sums.

    Pairing A is d1+d2 / d3+d4, B is d1+d3 / d2+d4, C is d1+d4 / d2+d3.
    """
    return tuple((dice[i] + dice[j], dice[k] + dice[m]) for (i, j), (k, m) in PAIRINGS)


ALL_ROLLS: tuple[tuple[int, int, int, int], ...] = tuple(product(range(1, 7), repeat=4))
"""Every ordered roll of four dice, each equally likely."""


def _distinct_pairs(dice) -> tuple[tuple[int, int], ...]:
    seen = []
    for a, b in pairing_sums(dice):
        pair = (a, b) if a <= b else (b, a)
        if pair not in seen:
            seen.append(pair)
    return tuple(seen)


def _orderings(dice) -> int:
    """How many ordered rolls show these four faces."""
    count = factorial(4)
    for face in set(dice):
        count //= factorial(dice.count(face))
    return count


DISTINCT_ROLLS: tuple[tuple[tuple[int, int, int, int], int, tuple[tuple[int, int], ...]], ...] = tuple(
    (dice, _orderings(dice), _distinct_pairs(dice)) for dice in combinations_with_replacement(range(1, 7), 4)
)
"""The roll distribution: the 126 distinct rolls (faces ascending), each as
``(dice, weight, pairs)`` where ``weight`` is how many of the 1,296 ordered
rolls show these faces and ``pairs`` its pairings as (low, high) sums, repeats
removed. What a roll allows does not depend on the order of its dice (the
three pairings are the three ways to split four dice in two pairs), so odds
and players weigh these 126 instead of all 1,296."""

_PAIRS_OF_FACES = {dice: pairs for dice, _, pairs in DISTINCT_ROLLS}

DISTINCT_PAIRS: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = dict(
    zip(ALL_ROLLS, map(_PAIRS_OF_FACES.__getitem__, map(tuple, map(sorted, ALL_ROLLS))))
)
"""Per ordered roll, the pairs of its distinct roll in :data:`DISTINCT_ROLLS`."""
