"""What the Statistics and Continue screens load from the store, as the UI's inputs.

The daemon's loop (the Continue list, a restart) and its statistics worker
read the store here and hand the UI what it shows: the UI itself never reads
the store.
"""

from __future__ import annotations

from firmware.table import person_stats
from firmware.table.seat import called, seats_from_meta
from firmware.ui.messages import PersonStats, StatsLoaded, Unfinished, UnfinishedLoaded


def load_stats(store, roster, **counting) -> StatsLoaded | None:
    """The statistics screen's data: wins per person (contests only) and each person's numbers.

    Reads the finished games' numbers and the kept sums of their tallies
    (:mod:`firmware.table.tally_sums`), adding the games finished since; only
    a finished game without a tally yet is replayed, once. ``counting`` goes
    to :func:`~firmware.table.person_stats.load_sums` (where what is counted
    is kept, progress, stopping: the box's statistics worker, in
    :mod:`firmware.daemon.worker`); None when it was stopped.
    """
    sums = person_stats.load_sums(store, seats_from_meta, **counting) if store is not None else None
    return None if store is not None and sums is None else stats_of(sums, roster)


def stats_of(sums, roster) -> StatsLoaded:
    """The statistics screen's data from the kept sums of the finished games' tallies (None: no games)."""
    found, contests = person_stats.people_of(sums, roster.who) if sums else ((), 0)
    rows = tuple((p.name, p.wins) for p in found if p.games)
    stats = tuple(
        PersonStats(p.name, p.games, p.wins, p.win_rate, p.busts_per_turn,
                    tuple((c, p.solo_best(c), p.solo_average(c)) for c in sorted(p.solo)))
        for p in found
    )
    return StatsLoaded(rows, contests, stats)


#: The most unfinished games the menu lists, and how far back it looks (quick with a long history).
UNFINISHED_SHOWN, UNFINISHED_LOOK_BACK = 12, 200


def unfinished(store, roster=None) -> UnfinishedLoaded:
    """The games left unfinished (abandoned, not damaged, at least one turn begun), newest first.

    Only the newest games are looked at: one given up hundreds of games ago is no longer on anybody's table.
    """
    games = []
    newest = store.games(limit=1) if store is not None else []
    if not newest:
        return UnfinishedLoaded(())
    oldest = newest[0].id - UNFINISHED_LOOK_BACK  # the look-back, by game number: only abandoned rows are read
    for g in store.games(limit=UNFINISHED_LOOK_BACK, status="abandoned"):
        if g.id <= oldest:
            break
        if g.status != "abandoned" or g.problem or not g.turns:
            continue
        seats = seats_from_meta(g.meta, g.players)
        name_of = roster.name_of if roster is not None else None  # a person renamed since: by the name now
        games.append(Unfinished(g.id, tuple(called(s, name_of) or "" for s in seats), g.turns,
                                tuple(s.colour for s in seats)))
        if len(games) == UNFINISHED_SHOWN:
            break
    return UnfinishedLoaded(tuple(games))
