"""What the box opens on: the table it left, read back from the store at start.

The open game (or the last result still on the screen), the screen and
settings the table had (:mod:`firmware.table.restart`), and the notices the
players must read first: a store that was reset, one that cannot be read, a
game that does not replay, a card that cannot be written.
"""

from __future__ import annotations

import logging

from firmware import ui
from firmware.table import restart
from firmware.table.seat import seats_from_meta

from .keeper import short

log = logging.getLogger("cantstop.daemon")
#: One line the updater leaves beside the store when it went back to this version (deploy/releases.py).
UPDATE_NOTICE = "update-notice.txt"
NOTICE_LIMIT = 1024


def update_notice(state_dir) -> str | None:
    """The updater's line (why an update was undone), read once: the file goes as it is read."""
    path = state_dir / UPDATE_NOTICE
    try:
        size = path.stat().st_size
        text = path.read_text(errors="replace") if size <= NOTICE_LIMIT else ""
        path.unlink()
    except OSError:
        return None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:160] if lines else None


class Opening:
    """Reads the table a box left; the keeper learns which stored game is being played."""

    def __init__(self, settings, store, keeper, people, language, paginate, store_error=None) -> None:
        self.settings, self.store, self.keeper = settings, store, keeper
        self.people, self.language, self.paginate = people, language, paginate
        self.store_error = store_error

    def read(self) -> tuple[ui.App, list[tuple[str, str]]]:
        """The app the table left (its open game or last result, screen, settings, language); notices as
        (kind, detail)."""
        app = self.fresh()
        notices: list[tuple[str, str]] = []
        store = self.store
        if store is None:
            if self.store_error:
                app, _ = ui.update(app, ui.SaveFailed(self.store_error))
            return app, notices
        if store.notice:
            notices.append(("reset", store.notice))
        updated = update_notice(store.path.parent)
        if updated:
            notices.append(("update", updated))
        kept = restart.kept(store)
        try:
            stored = store.open_game() or restart.last_result(store, kept)
        except Exception as err:  # a store that cannot even be read: play on, unsaved
            log.error("cannot read the saved game: %s", err)
            stored = None
            notices.append(("unreadable", str(err)))
        if stored is not None:
            app, problem = self.resume(stored)
            if problem:
                notices.append(("damaged", problem))
        game_id = self.keeper.game_id
        same_game = isinstance(kept, dict) and game_id is not None and kept.get("game") == game_id
        app = ui.recall(app, kept, game=same_game)
        # the seats kept follow the roster as it is now (a rename or a removal while the box was off)
        app, _ = ui.update(app, ui.roster_changed(self.people))
        if store.cannot_save:  # e.g. a read-only card: saved once it takes writes
            app, _ = ui.update(app, ui.SaveFailed(short(store.cannot_save)))
        self.keeper.loaded(app)
        return app, notices

    def fresh(self) -> ui.App:
        """The new-game screen with the config's defaults and the roster's people."""
        return ui.boot(self.settings, self.people.names, self.language, self.people.ids, paginate=self.paginate)

    def resume(self, stored) -> tuple[ui.App, str | None]:
        """The stored game played on, or a fresh table and why it could not be."""
        seats = seats_from_meta(stored.meta, stored.players)
        if stored.status == "damaged":
            # The valid prefix stays in the store, exportable; the table starts afresh.
            self.keeper.abandon(stored.id)  # a failure is kept pending; the table sees the problem
            return self.fresh(), stored.problem or f"game {stored.id} does not replay"
        try:
            app = ui.resume(self.settings, seats, stored.rules, stored.events, self.people.names, self.language,
                            self.people.ids, paginate=self.paginate)
        except Exception as err:
            problem = f"game {stored.id}: {err}"
            log.error("cannot resume: %s", problem)
            return self.fresh(), problem
        self.keeper.game_id = stored.id
        return app, None
