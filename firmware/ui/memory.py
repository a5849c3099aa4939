"""What must survive a power cut besides the game itself: the small facts a screen needs.

The store keeps every event, so a restart replays the game. But five things
the table did are not events: it confirmed the board after a stop or a bust,
it chose new-game settings (maybe without starting yet) and the language,
it was looking at a finished game's result, and it chose a pairing that
moves one of its two sums, whose screen asks which (the web view says that
question too: it reads these facts as the box does at a restart). :func:`memory` says them as plain JSON data;
the daemon stores that whenever it changes, and :func:`recall` puts them
back on the app at start, so a restart shows the screen people left.
Anything in a stored memory that does not fit today's config is ignored.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Phase, Rules, RulesError, pairings

from .. import i18n
from ..config import GameConfig
from ..table.names import name_problem
from .model import App, PickScreen, Screen, Seat, Setup, SetupScreen
from .setup import setup_rows

#: The bot kinds a stored seat may name.
_BOTS = ("strong", "rule28", "random")


def memory(app: App) -> dict:
    """The app's facts worth keeping (the daemon adds the stored game's id)."""
    return {
        "setup": {"seats": [s.to_json() for s in app.setup.seats], "rules": app.setup.rules.to_json(),
                  "cursor": app.setup.cursor, "first": app.setup.first},
        "screen": "setup" if app.screen.kind is Screen.SETUP else "game",
        "acked": app.acked,
        "language": app.language,
        "muted": app.muted,
    } | ({"pick": app.screen.label} if isinstance(app.screen, PickScreen) else {})


def recall(app: App, kept: dict | None, *, game: bool) -> App:
    """``app`` with the kept facts back; ``game`` says they belong to the game loaded."""
    if not isinstance(kept, dict):
        return app
    setup = _setup(app.settings, kept.get("setup"), app.roster)
    if setup is not None:
        app = replace(app, setup=setup)
    if kept.get("language") in i18n.LANGUAGES:  # the table's choice outlives the config's default
        app = replace(app, language=kept["language"])
    if type(kept.get("muted")) is bool:  # the table's one press outlives the config's [sound] mute
        app = replace(app, muted=kept["muted"])
    acked = kept.get("acked")
    if game and type(acked) is int and 0 <= acked <= len(app.events):
        app = replace(app, acked=acked)
    if kept.get("screen") == "setup" and app.screen.kind is not Screen.MESSAGE:
        app = replace(app, screen=SetupScreen())
    elif game and app.screen.kind is Screen.GAME and _pick_fits(app, kept.get("pick")):
        app = replace(app, screen=PickScreen(kept["pick"]))
    return app


def _pick_fits(app: App, label) -> bool:
    """Whether ``label`` is a pairing of the dice out now that moves one of its two sums (the pick's question)."""
    g = app.game
    if not isinstance(label, str) or g.is_over or g.phase is not Phase.MOVE:
        return False
    return any(p.label == label and len(p.moves) == 2 for p in pairings(g))


def _setup(settings: GameConfig, raw, roster: tuple[str, ...] = ()) -> Setup | None:
    """The stored new-game choices, or None when they do not fit the config any more.

    A chosen name stays even if the config's roster lost it since (it is the players' choice, not the
    config's); the daemon then makes each seat follow the store's roster (a person renamed or removed
    meanwhile: :func:`firmware.ui.setup.roster_changed`).
    """
    try:
        seats = tuple(_seat(settings, s) for s in raw["seats"])
        rules = Rules.from_json(raw["rules"])
    except (KeyError, TypeError, ValueError, RulesError):
        return None
    colours = [s.colour for s in seats]
    if not 1 <= len(seats) <= min(4, len(settings.colours)) or len(set(colours)) != len(colours):
        return None
    names = [s.name for s in seats if s.name is not None]
    if len(set(names)) != len(names):
        return None
    cursor, first = raw.get("cursor", 0), raw.get("first", 0)
    rows = len(setup_rows(Setup(seats, rules), roster))
    return Setup(seats, rules, cursor if type(cursor) is int and 0 <= cursor < rows else 0,
                 first if type(first) is int and 0 <= first < len(seats) else 0)


def _seat(settings: GameConfig, raw) -> Seat:
    colour, bot, name, person = raw["colour"], raw["bot"], raw.get("name"), raw.get("person")
    if colour not in settings.colours or (bot is not None and bot not in _BOTS):
        raise ValueError(f"seat {raw!r} does not fit the config")
    if name is not None and name_problem(name, drawable=False):  # a name an older version kept stays
        raise ValueError(f"seat {raw!r}: {name_problem(name, drawable=False)}")
    return Seat(colour, bot, name, person if type(person) is int and name is not None else None)
