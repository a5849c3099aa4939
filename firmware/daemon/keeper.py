"""The loop's store-side work: the game being played, its writes, the UI facts a restart needs.

:class:`Keeper` carries out the store's part of the UI's effects for
:class:`~firmware.daemon.box.Box`. Every write answers with the UI inputs it
gives (``SaveFailed`` when it failed, ``Saved`` once nothing waits to be
saved), which the loop feeds back: the keeper never touches the app.

There is one recovery policy, the store's own pending queue
(:mod:`firmware.store.pending`): a write that fails, a game's start
included, is kept in order and saved by the next write that works. A won game
is finished by the store, in the transaction of its winning event; the
keeper finishes only a game nobody can win any more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware import ui
from firmware.store.errors import StoreWriteError
from firmware.table import person_stats
from firmware.table.seat import seats_from_meta

from firmware.table import restart

log = logging.getLogger("cantstop.daemon")

Inputs = tuple  # UI inputs for the loop to feed back, in order


class Keeper:
    """The store seen from the loop: which game is being played, and the writes for it."""

    def __init__(self, store) -> None:
        self.store = store  # None: the box plays without saving
        self.game_id: int | None = None  # the stored game being played
        self._memory: dict | None = None  # the UI facts last stored

    # -- the game's writes ----------------------------------------------------

    def start(self, players, rules, meta) -> Inputs:
        """A new game (the one open now is abandoned); kept pending if it cannot be saved yet."""
        if self.store is None:
            return ()
        self.game_id = None
        try:
            self.game_id = self.store.new_game(players, rules, meta=meta).id
        except StoreWriteError as err:
            self.game_id = self._open_game_id()  # kept pending: the store's open game already
            return self._failed(err)
        except Exception as err:
            return self._failed(err)
        return self._saved()

    def append(self, event) -> Inputs:
        return self._write(lambda gid: self.store.append(gid, event))

    def pop_last(self) -> Inputs:
        return self._write(self.store.pop_last if self.store is not None else None)

    def ended(self, app: ui.App, winner: int | None) -> Inputs:
        """The game is over: finish it if no winner did (a win finished it with its event), keep its tally."""
        if winner is None:
            out = self._write(lambda gid: self.store.finish(gid, None))
        else:
            out = ()
        return out + self._keep_tally(app)

    def abandon(self, game_id: int) -> Inputs:
        return self._run(lambda: self.store.abandon(game_id))

    def continue_game(self, game_id: int) -> Inputs:
        """Reopen an unfinished game (the one played now is left unfinished in its place): GameContinued."""
        if self.store is None:
            return ()
        try:
            stored = self.store.reopen(game_id)
        except Exception as err:
            log.error("cannot continue game %d: %s", game_id, err)
            return (ui.SaveFailed(short(err)),)
        self.game_id = stored.id
        seats = seats_from_meta(stored.meta, stored.players)
        return (ui.GameContinued(seats, stored.rules, tuple(stored.events)),)

    def _keep_tally(self, app: ui.App) -> Inputs:
        """Keep the finished game's tally for the statistics, so they never replay it."""
        if self.store is None or self.game_id is None or app.game is None:
            return ()
        g = app.game
        t = person_stats.tally(g.players, app.seats, g.rules, app.events, g.winner)
        game_id = self.game_id
        return self._run(lambda: person_stats.keep_tally(self.store, game_id, t))

    def keep_facts(self, facts: dict) -> Inputs:
        """A batch the statistics worker counted (tallies): one small transaction."""
        return self._run(lambda: self.store.put_facts(facts))

    def retry(self) -> Inputs:
        """Try the writes kept pending again (the loop's deadline after a failed write)."""
        return self._run(self.store.flush)

    # -- what a restart needs ---------------------------------------------------

    def memory_of(self, app: ui.App) -> dict:
        return ui.memory(app) | {"game": self.game_id}

    def loaded(self, app: ui.App) -> None:
        """The app the box starts on: its facts are the ones stored."""
        self._memory = self.memory_of(app)

    def remember(self, app: ui.App) -> Inputs:
        """Store the UI facts a restart needs (:mod:`firmware.ui.memory`) when they changed."""
        if self.store is None:
            return ()
        kept = self.memory_of(app)
        if kept == self._memory:
            return ()
        self._memory = kept
        return self._run(lambda: self.store.put_fact(restart.MEMORY_KEY, kept))

    # -- one write --------------------------------------------------------------

    def _write(self, action: Callable[[int], object] | None) -> Inputs:
        """``action(game_id)`` on the game being played (nothing without one)."""
        if self.store is None or self.game_id is None:
            return ()
        game_id = self.game_id
        return self._run(lambda: action(game_id))

    def _run(self, action: Callable[[], object]) -> Inputs:
        """Run a store write: SaveFailed if it failed (the store keeps it pending), Saved once all is saved."""
        if self.store is None:
            return ()
        try:
            action()
        except Exception as err:  # StoreWriteError and friends: one line, keep playing
            return self._failed(err)
        return self._saved()

    def _failed(self, err: BaseException) -> Inputs:
        log.error("store: %s", err)
        return (ui.SaveFailed(short(err)),)

    def _saved(self) -> Inputs:
        return (ui.Saved(),) if self.store.pending == 0 else ()

    def _open_game_id(self) -> int | None:
        try:
            game = self.store.open_game()
        except Exception:
            return None
        return game.id if game is not None else None


def short(err: BaseException) -> str:
    """An error as the screen's one short line."""
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    for prefix in ("cannot save: ",):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text[:40]
