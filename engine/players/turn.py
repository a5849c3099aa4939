"""The dice of one roll as data for players: the 126 distinct rolls and what they allow.

Order does not matter for what a roll allows (the three pairings are the
same whatever order the dice came in), so the 1,296 ordered rolls fold into
126 multisets, each weighted by how many ordered rolls it stands for.

Within a turn, what a roll allows depends only on three things: the columns
whose runner can still climb, the columns where a new runner could go, and
how many runners are free. :func:`outcomes` groups the 126 multisets by the
options they give and is memoised on that key, made as small as the rules
allow: with two or more runners free only the movable columns matter, with
none free only the climbing ones. The memo is bounded (least recently used
first out, :data:`OUTCOMES_CACHE_SIZE` entries of about 2 KB), so a player
kept in a process for weeks does not grow.

>>> sum(w for w, _ in multisets())
1296
>>> len(multisets())
126
>>> bit = lambda *cs: sum(1 << (c - 2) for c in cs)
>>> weights, options, bust = outcomes(bit(2, 3, 12), 0, 0)  # runners on 2, 3 and 12, none free
>>> bust, sum(weights) + bust, options[0]  # 1,1,1,1: a double 2
(728, 1296, ((2, 2),))
"""

from functools import lru_cache

from ..board import COLUMNS, DISTINCT_ROLLS, TOP

_MULTISETS = tuple((weight, pairs) for _, weight, pairs in DISTINCT_ROLLS)


def multisets() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Per distinct roll: (how many of the 1,296 ordered rolls it is, its pairings as (low, high) sums).

    The board's roll distribution (:data:`engine.board.DISTINCT_ROLLS`) without the faces.
    """
    return _MULTISETS


OUTCOMES_CACHE_SIZE = 2048
"""Entries kept by :func:`outcomes` (a strong-vs-strong game meets about 10 new ones
once a few hundred games have filled the memo; 2,048 keep the misses near the
unavoidable first sight of each key)."""

# Every option (one sum, two sums, a double) as one shared tuple.
_OPTION = {(a,): (a,) for a in COLUMNS}
_OPTION.update({(a, b): (a, b) for a in COLUMNS for b in COLUMNS if a <= b})

# The options one roll allows, shared between the memo's entries. Bounded by
# construction: a set is what the at most three pairings of one of the 126
# distinct rolls allow, each pairing one of five results (nothing, both, a,
# b, a or b), so there are fewer than 126 * 5**3 keys however long it runs.
_OPTION_SETS: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = {}


def outcomes(climbing: int, placeable: int, free: int):
    """What the next roll allows, grouped: ``(weights, options, bust_weight)``.

    ``climbing``: bit ``c-2`` set for each column whose runner is below its top.
    ``placeable``: bit set for each open column without a runner (used only
    when ``free`` > 0). Class ``k`` of rolls has ``weights[k]`` ordered rolls
    out of 1,296 and allows ``options[k]``: the moves, each a tuple of sums
    (a double is ``(c, c)``: two steps, fewer if the top comes first);
    ``bust_weight`` counts the rolls that bust.
    """
    if free >= 2:  # two new runners always fit: only the movable columns matter
        return _outcomes(0, climbing | placeable, 2)
    if free == 0:
        return _outcomes(climbing, 0, 0)
    return _outcomes(climbing, placeable, 1)


@lru_cache(maxsize=OUTCOMES_CACHE_SIZE)
def _outcomes(climbing: int, placeable: int, free: int):
    movable = climbing | placeable
    groups: dict[tuple[tuple[int, ...], ...], int] = {}
    bust = 0
    for weight, pairs in _MULTISETS:
        opts = set()
        for a, b in pairs:
            ma = movable >> (a - 2) & 1
            mb = movable >> (b - 2) & 1
            if a == b:
                if ma:
                    opts.add((a, a))
                continue
            if ma and mb:
                new = (not climbing >> (a - 2) & 1) + (not climbing >> (b - 2) & 1)
                if new <= free:
                    opts.add((a, b))
                else:
                    opts.add((a,))
                    opts.add((b,))
            elif ma:
                opts.add((a,))
            elif mb:
                opts.add((b,))
        if not opts:
            bust += weight
            continue
        k = tuple(sorted(opts))
        groups[k] = groups.get(k, 0) + weight
    options = []
    for k in groups:
        shared = _OPTION_SETS.get(k)
        if shared is None:
            shared = _OPTION_SETS[k] = tuple(_OPTION[opt] for opt in k)
        options.append(shared)
    return tuple(groups.values()), tuple(options), bust


def cache_sizes() -> dict[str, int]:
    """Entries in the memos of this module (for tests and benchmarks)."""
    return {"outcomes": _outcomes.cache_info().currsize, "option_sets": len(_OPTION_SETS)}


def climbing_mask(runners) -> int:
    """Columns whose runner stands below its top, as bits."""
    mask = 0
    for c in COLUMNS:
        r = runners[c]
        if r and r < TOP[c]:
            mask |= 1 << (c - 2)
    return mask


def placeable_mask(runners, claimed) -> int:
    """Open (unclaimed) columns without a runner, as bits."""
    mask = 0
    for c in COLUMNS:
        if not runners[c] and claimed[c] < 0:
            mask |= 1 << (c - 2)
    return mask
