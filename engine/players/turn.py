"""The dice of one roll as data for players: the 126 distinct rolls and what they allow.

Order does not matter for what a roll allows (the three pairings are the
same whatever order the dice came in), so the 1,296 ordered rolls fold into
126 multisets, each weighted by how many ordered rolls it stands for.

Within a turn, what a roll allows depends only on three things: the columns
whose runner can still climb, the columns where a new runner could go, and
how many runners are free. :func:`outcomes` groups the 126 multisets by the
options they give and is memoised on exactly that key.

>>> sum(w for w, _ in multisets())
1296
>>> len(multisets())
126
>>> bit = lambda *cs: sum(1 << (c - 2) for c in cs)
>>> classes, bust = outcomes(bit(2, 3, 12), 0, 0)  # runners on 2, 3 and 12, none free
>>> bust, sum(w for w, _ in classes) + bust
(728, 1296)
"""

from ..board import COLUMNS, DISTINCT_ROLLS, TOP

_MULTISETS = tuple((weight, pairs) for _, weight, pairs in DISTINCT_ROLLS)


def multisets() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Per distinct roll: (how many of the 1,296 ordered rolls it is, its pairings as (low, high) sums).

    The board's roll distribution (:data:`engine.board.DISTINCT_ROLLS`) without the faces.
    """
    return _MULTISETS


_OUTCOMES: dict[tuple[int, int, int], tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], int]] = {}


def outcomes(climbing: int, placeable: int, free: int):
    """What the next roll allows, grouped: ``(classes, bust_weight)``.

    ``climbing``: bit ``c-2`` set for each column whose runner is below its top.
    ``placeable``: bit set for each open column without a runner (used only
    when ``free`` > 0). ``classes`` is a tuple of ``(weight, options)`` where
    ``options`` are the moves the roll allows, each a tuple of sums (a double
    is ``(c, c)``: two steps, fewer if the top comes first); weights count
    ordered rolls out of 1,296 and ``bust_weight`` the rolls that bust.
    """
    key = (climbing, placeable if free else 0, free)
    found = _OUTCOMES.get(key)
    if found is not None:
        return found
    movable = climbing | (key[1])
    groups: dict[tuple[tuple[int, ...], ...], int] = {}
    bust = 0
    for weight, pairs in multisets():
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
    found = _OUTCOMES[key] = (tuple((w, opts) for opts, w in groups.items()), bust)
    return found


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
