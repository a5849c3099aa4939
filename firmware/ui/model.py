"""What the UI knows: the app state, the screens, and the facts read off them.

:class:`App` is frozen; :func:`firmware.ui.update` returns a new one. Each
screen is a small frozen record holding only that screen's own state (the
menu's cursor, the board's column, the lines of a notice), and its
:class:`Screen` kind is what the press handlers and the presentation
dispatch on. What belongs to the game (seats, states, events, the handover
the table confirmed) lives on the app itself, so it survives a trip to the
menu.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Callable, ClassVar

from engine import Decision, Event, GameState, Move, Phase, Roll, Rules, Stop, apply, new_game, outcome

from firmware import i18n, words
from firmware.table import bot
from ..config import GameConfig
from firmware.table.seat import Seat, symbols
from firmware.layout import STANDARD

#: The screen's paginator: (big line or None, lines) -> the pages the screen shows whole. The renderer's
#: layout owns it (:meth:`firmware.layout.Layout.paginate`); the daemon hands the app its screen's at boot.
Paginate = Callable[[str | None, tuple[str, ...]], tuple[tuple[str, ...], ...]]


class Button(StrEnum):
    """The six buttons of the box, as the UI names them (the config maps them to pins)."""

    ROLL = "ROLL"
    STOP = "STOP"
    A = "A"
    B = "B"
    C = "C"
    MENU = "MENU"


class Screen(StrEnum):
    """Every screen the box can show."""

    SETUP = "setup"
    GAME = "game"
    PICK = "pick"
    MENU = "menu"
    CONFIRM = "confirm"
    BOARD = "board"
    HINT = "hint"
    STATS = "stats"
    RECAP = "recap"
    CONTINUE = "continue"
    MESSAGE = "message"
    UNDONE = "undone"
    PHONE = "phone"
    LOOK = "look"
    OFF = "off"


# --------------------------------------------------------------------------
# The table: seats, settings, the new-game choices


#: The player the box uses for a seat set to "box".
BOX_PLAYER = "strong"


@dataclass(frozen=True)
class Setup:
    """The new-game screen's choices."""

    seats: tuple[Seat, ...]
    rules: Rules
    cursor: int = 0
    first: int = 0  # the seat that starts; the game's turn order begins there


def default_setup(settings: GameConfig, seats: tuple[Seat, ...] = ()) -> Setup:
    """The new-game choices: ``seats`` kept if given, else the config's players and colours."""
    if not seats:
        n = max(1, min(settings.players, 4, len(settings.colours)))
        seats = tuple(Seat(c) for c in settings.colours[:n])
    return Setup(seats, settings.rules)


def seat_name(seat: Seat, said=words) -> str:
    """What the box calls a seat: its player's name, else its colour (in the language of ``said``: "Red", "赤")."""
    return seat.name if seat.name else said.colour(seat.colour)


# --------------------------------------------------------------------------
# Screens: each a small record of its own state


@dataclass(frozen=True)
class SetupScreen:
    kind: ClassVar[Screen] = Screen.SETUP


@dataclass(frozen=True)
class GameScreen:
    """The game itself; ``page`` pages through the instructions after a stop or bust, ``seen`` the furthest
    page that has been on the screen (ROLL confirms the board once every page has)."""

    kind: ClassVar[Screen] = Screen.GAME
    page: int = 0
    seen: int = 0


@dataclass(frozen=True)
class PickScreen:
    """The pairing ``label`` moves one of its two sums: which one?"""

    kind: ClassVar[Screen] = Screen.PICK
    label: str


@dataclass(frozen=True)
class MenuScreen:
    kind: ClassVar[Screen] = Screen.MENU
    cursor: int = 0


@dataclass(frozen=True)
class ConfirmScreen:
    """"New game?" while a game is being played; MENU returns to ``back`` (the menu)."""

    kind: ClassVar[Screen] = Screen.CONFIRM
    back: object = MenuScreen()


@dataclass(frozen=True)
class BoardScreen:
    """The board view: ``focus`` None for all columns, else one column's detail."""

    kind: ClassVar[Screen] = Screen.BOARD
    focus: int | None = None


@dataclass(frozen=True)
class HintScreen:
    """The strong player's advice, decided when the hint was asked for."""

    kind: ClassVar[Screen] = Screen.HINT
    advice: object  # engine.players.Advice
    facts: object = None  # bot.HintFacts: the numbers the words give the reason from


@dataclass(frozen=True)
class StatsScreen:
    """Wins per person, then a page or two per person; ``rows`` None until the store has answered."""

    kind: ClassVar[Screen] = Screen.STATS
    rows: tuple[tuple[str, int], ...] | None = None
    games: int = 0
    back: object = MenuScreen()
    people: tuple = ()  # messages.PersonStats
    page: int = 0
    progress: tuple[int, int] | None = None  # (done, total) while games kept without numbers are counted


@dataclass(frozen=True)
class RecapScreen:
    """A finished game's recap: turns, busts and the biggest turn of each seat."""

    kind: ClassVar[Screen] = Screen.RECAP


@dataclass(frozen=True)
class ContinueScreen:
    """The games left unfinished, to continue one; ``games`` None until the store has answered."""

    kind: ClassVar[Screen] = Screen.CONTINUE
    games: tuple | None = None  # messages.Unfinished
    cursor: int = 0


@dataclass(frozen=True)
class MessageScreen:
    """A notice (e.g. the store moved a damaged file aside); ROLL or MENU returns to ``back``."""

    kind: ClassVar[Screen] = Screen.MESSAGE
    title: str
    lines: tuple[str, ...]
    back: object = GameScreen()


@dataclass(frozen=True)
class UndoneScreen:
    """What to put back on the board after an undo, page by page."""

    kind: ClassVar[Screen] = Screen.UNDONE
    title: str
    lines: tuple[str, ...]
    page: int = 0
    seen: int = 0


@dataclass(frozen=True)
class PhoneScreen:
    """Pairing a phone: the page's address with a one-time code (a QR code) and the code; ``code`` "" until
    the daemon made one. C forgets every phone paired."""

    kind: ClassVar[Screen] = Screen.PHONE
    code: str = ""
    address: str = ""
    paired: int = 0
    back: object = MenuScreen()


@dataclass(frozen=True)
class LookScreen:
    """The menu's Check board: the camera's answer (``verdict``, None while it looks) and setting it up
    (``setup``: "" not asked, "ask", "setting", "set", "refused" with ``refused`` saying why)."""

    kind: ClassVar[Screen] = Screen.LOOK
    ticket: int = 0
    verdict: object = None
    setup: str = ""
    refused: str = ""
    back: object = MenuScreen()


@dataclass(frozen=True)
class Look:
    """A watch of the board the camera keeps: ``reason`` "handover" (a turn just ended, or a game starts) or
    "asked" (the menu's Check board, ``once``); the last verdict and whether the players touched the board."""

    ticket: int
    expected: tuple
    reason: str
    once: bool = False
    verdict: object = None
    moved: bool = False


@dataclass(frozen=True)
class OffScreen:
    kind: ClassVar[Screen] = Screen.OFF
    reason: str = "Game saved"


AnyScreen = (
    SetupScreen | GameScreen | PickScreen | MenuScreen | ConfirmScreen | BoardScreen | HintScreen
    | StatsScreen | RecapScreen | ContinueScreen | MessageScreen | UndoneScreen | PhoneScreen | LookScreen | OffScreen
)

# --------------------------------------------------------------------------
# The app


@dataclass(frozen=True)
class KeptSettings:
    """What a paired phone set that the config also says (None: the config's stands): minutes without a press
    before the screen dims (0: never), and whether the lamps are on. Kept in the store across a restart."""

    dim_after_min: int | None = None
    lamps: bool | None = None

    def to_json(self) -> dict:
        return {k: v for k, v in (("dim_after_min", self.dim_after_min), ("lamps", self.lamps)) if v is not None}


@dataclass(frozen=True)
class App:
    """Everything the UI knows. Frozen: ``update`` returns a new one."""

    settings: GameConfig
    setup: Setup
    screen: AnyScreen = SetupScreen()
    seats: tuple[Seat, ...] = ()
    states: tuple[GameState, ...] = ()  # states[0] is the new game, states[i] follows events[i-1]
    events: tuple[Event, ...] = ()
    acked: int = -1  # the event count whose stop/bust instructions the table confirmed
    plan: Move | Decision | None = None  # a box seat's next action, decided when its state arrived
    alert: str | None = None  # stays until a save works again
    guard: bool = False  # a turn just ended: a press does not roll the next dice until the timer says so
    flash: str | None = None  # shown until the next input
    roster: tuple[str, ...] = ()  # the names a seat can take (config, or the store's list)
    roster_ids: tuple[int | None, ...] = ()  # the person id of each roster name (None: no ids kept yet)
    language: str = i18n.DEFAULT  # the language of every word the app's views say
    paginate: Paginate = STANDARD.paginate  # the screen's pages of instructions (the 128x64 one unless told)
    muted: bool = False  # the buzzer is silent (the menu's Sound item; remembered across restarts)
    network: object = None  # messages.NetworkSeen: the box's address for the menu (None: not known)
    wifi_said: str = ""  # the Wi-Fi problem last said (ui.network): each is said once
    kept: KeptSettings = KeptSettings()  # the dimming and lamps a phone set (ui.phone)
    camera: str = ""  # the camera: "" none in the config, "starting", "ready", "unset", "absent" (ui.camera)
    camera_why: str = ""  # why it is absent, in one line
    look: Look | None = None  # the watch of the board the camera keeps now
    tickets: int = 0  # the last ticket given to the camera

    @property
    def words(self) -> i18n.Bound:
        """The box's words (:mod:`firmware.words`) in the app's language."""
        return words.language(self.language)

    @property
    def game(self) -> GameState | None:
        return self.states[-1] if self.states else None

    @property
    def ended(self) -> bool:
        """The loaded game is over: won, or nobody can win any more."""
        g = self.game
        return g is not None and outcome(g) is not None

    @property
    def in_game(self) -> bool:
        """A game is loaded and still being played."""
        return self.game is not None and not self.ended

    def name(self, seat: int) -> str:
        """The one place a seat's display name comes from: its player's name, else its colour."""
        return seat_name(self.seats[seat], self.words)

    def mark(self, seat: int | None) -> int | None:
        """The symbol the screens draw for ``seat``: its colour's, the same in every game (None for no seat)."""
        if seat is None:
            return None
        return symbols(self.settings.colours, [s.colour for s in self.seats])[seat]

    def marks(self) -> tuple[int, ...]:
        """Every seat's symbol, in turn order."""
        return symbols(self.settings.colours, [s.colour for s in self.seats])

    def seat_bot(self) -> str | None:
        """The bot kind playing the seat to act, None for a person or a finished game."""
        g = self.game
        if g is None or g.phase is Phase.OVER:
            return None
        return self.seats[g.current].bot


def with_states(app: App, states: tuple[GameState, ...], events: tuple[Event, ...], **changes) -> App:
    """The app with a new game history; a box seat's next action is decided here, once."""
    app = replace(app, states=states, events=events, **changes)
    return replace(app, plan=_plan(app))


def _plan(app: App) -> Move | Decision | None:
    kind = app.seat_bot()
    g = app.game
    if kind is None or g.phase is Phase.ROLL or app.ended:
        return None
    return bot.decide(kind, g)


def handover_pending(app: App) -> bool:
    """A stop or a bust just ended a turn and the table has not confirmed the board yet."""
    if not app.events or app.acked == len(app.events) or app.screen.kind is not Screen.GAME:
        return False
    last = app.events[-1]
    return isinstance(last, Stop) or (isinstance(last, Roll) and app.game.phase is not Phase.MOVE)


def box_bust_shown(app: App) -> bool:
    """A box seat's bust is on the screen: it is said for a moment, then the game moves on."""
    return handover_pending(app) and isinstance(app.events[-1], Roll) and app.seats[app.states[-2].current].bot is not None


def box_due(app: App) -> bool:
    """The box moves on by itself when its timer is due: a box seat is playing, or its bust is shown."""
    if app.screen.kind is not Screen.GAME or app.ended:
        return False
    if handover_pending(app):
        return box_bust_shown(app)
    return app.seat_bot() is not None


def undo_blocker(app: App) -> str | None:
    """Why undo is impossible now (a key of :data:`words.FLASH`), or None when it is possible."""
    g = app.game
    if g is None or not app.events:
        return "nothing_to_undo"
    if app.ended:
        return "game_over"
    if isinstance(app.events[-1], Roll):
        return "dice_stay"
    if app.seats[app.states[-2].current].bot is not None:
        return "box_moves_stay"
    return None


def hint_possible(app: App) -> bool:
    """A person is to act in a game still being played."""
    return app.in_game and app.seat_bot() is None


# --------------------------------------------------------------------------
# Constructors


def boot(settings: GameConfig, roster: tuple[str, ...] | None = None, language: str = i18n.DEFAULT,
         roster_ids: tuple[int | None, ...] = (), paginate: Paginate = STANDARD.paginate) -> App:
    """The app at power-on with no game to resume: the new-game screen.

    ``roster`` is the names to offer (the store's list); None: the config's.
    ``roster_ids`` the person id of each (empty: none kept).
    ``paginate`` is the screen's paginator (its layout's), so pages match what the screen shows.
    """
    roster = settings.roster if roster is None else tuple(roster)
    return App(settings=settings, setup=default_setup(settings), roster=roster, roster_ids=tuple(roster_ids),
               language=i18n.check(language), paginate=paginate,
               muted=settings.sound is False)


def resume(settings: GameConfig, seats, rules: Rules, events, roster: tuple[str, ...] | None = None,
           language: str = i18n.DEFAULT, roster_ids: tuple[int | None, ...] = (),
           paginate: Paginate = STANDARD.paginate) -> App:
    """The app for a stored game: replayed, on the screen the players last saw."""
    seats = tuple(seats)
    roster = settings.roster if roster is None else tuple(roster)
    state = new_game([s.colour for s in seats], rules)
    states = [state]
    for e in events:
        state = apply(state, e)
        states.append(state)
    app = App(settings=settings, setup=Setup(seats, rules), screen=GameScreen(), seats=seats, roster=roster,
              roster_ids=tuple(roster_ids), language=i18n.check(language), paginate=paginate,
              muted=settings.sound is False)
    return with_states(app, tuple(states), tuple(events))


def notify(app: App, title: str, lines) -> App:
    """Show a notice over the current screen; ROLL or MENU returns to it."""
    back = app.screen
    if back.kind is Screen.MESSAGE:
        back = back.back
    elif back.kind is Screen.OFF:
        back = GameScreen()
    return replace(app, screen=MessageScreen(title, tuple(lines), back))
