"""Saved before shown, checked at every frame: a display that reads the real store back as it is shown.

The box commits an event to the store before it draws the frame that shows
the event's result (:mod:`firmware.daemon.box`). :class:`SavedBeforeShown`
is a :class:`~hw.fakes.FakeDisplay` that, each time it is handed a frame,
reads the game file back through a second SQLite connection of its own
(read-only, outside the box's: it sees only what was committed) and checks
that the frame's game is there:

- the stored events of the box's game are exactly the events the app holds
  (so every event the view shows is committed, and an undone one is gone);
- a won game is stored finished, with its winner; a game being played is stored open;
- no other game is left open (a game put aside for another is stored abandoned).

The box catches whatever a display raises (an unplugged OLED must not stop
the game), so a failed check is not raised here: it is kept in
:attr:`SavedBeforeShown.problems`, which the test asserts is empty.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine import Phase, event_from_json
from firmware.store.file import DB_NAME
from hw.fakes import FakeDisplay


class SavedBeforeShown(FakeDisplay):
    """A fake display that checks, at every frame, that the store already holds what the frame shows.

    Give it the store's state directory; :meth:`watch` the box once it exists (the
    frame already on the glass is checked then, before anything else happens).
    """

    def __init__(self, state_dir: Path, size: tuple[int, int] = (128, 64)) -> None:
        super().__init__(size)
        self.db_path = Path(state_dir) / DB_NAME
        self.box = None
        self._db: sqlite3.Connection | None = None
        self.problems: list[str] = []
        self.checked = 0  # frames checked against the store
        self.games_checked = 0  # of them, frames that showed a game
        self.seen: set[str] = set()  # what the checked frames showed: stop, bust, undo, win, box

    def watch(self, box) -> None:
        self.box = box
        if self.frames:
            self.check()

    def show(self, image) -> None:
        super().show(image)
        if self.box is not None:
            self.check()

    def close(self) -> None:
        super().close()
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- the check ----------------------------------------------------------------

    def check(self) -> None:
        """Compare the app the box shows now with what a second connection reads from the game file."""
        box = self.box
        view = box.last_view
        self.checked += 1
        self._note(view)
        db = self._reader()
        open_games = [r[0] for r in db.execute("SELECT id FROM games WHERE status = 'open'")]
        game = box.app.game
        if game is None:
            if open_games:
                self._problem(view, f"no game on the screen, but game(s) {open_games} stored open")
            return
        self.games_checked += 1
        gid = box.game_id
        if gid is None:
            self._problem(view, "a game on the screen that has no stored game")
            return
        row = db.execute("SELECT status, winner FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            self._problem(view, f"game {gid} is not in the store")
            return
        stored = [event_from_json(json.loads(p)) for (p,) in
                  db.execute("SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (gid,))]
        shown = list(box.app.events)
        if stored != shown:
            self._problem(view, f"game {gid}: {len(shown)} events on the screen, the store holds {len(stored)}"
                          f" ({_first_difference(shown, stored)})")
        status, winner = row
        if game.phase is Phase.OVER:
            if status != "finished" or winner != game.winner:
                self._problem(view, f"game {gid} won by {game.winner}, stored {status} (winner {winner})")
        elif status != "open":
            self._problem(view, f"game {gid} being played, stored {status}")
        others = [g for g in open_games if g != gid]
        if others:
            self._problem(view, f"game(s) {others} stored open beside game {gid}")

    def _reader(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
        return self._db

    def _note(self, view) -> None:
        name = type(view).__name__
        title = getattr(view, "title", "") or ""
        if name == "WinView":
            self.seen.add("win")
        elif name == "InstructionsView":
            for word in ("stops", "busts"):
                if title.endswith(word):
                    self.seen.add(word[:-1])
            if title.startswith("Undone"):
                self.seen.add("undo")
        if getattr(view, "bot", None):
            self.seen.add("box")

    def _problem(self, view, text: str) -> None:
        self.problems.append(f"frame {self.show_calls} ({type(view).__name__}): {text}")


def _first_difference(shown: list, stored: list) -> str:
    for i, (a, b) in enumerate(zip(shown, stored), 1):
        if a != b:
            return f"event {i}: shown {a}, stored {b}"
    return "the shorter is a prefix of the longer"
