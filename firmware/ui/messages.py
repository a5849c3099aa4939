"""What goes into the UI (inputs) and what comes out of it for the daemon to do (effects).

The daemon carries out the effects :func:`firmware.ui.update` returns, in order:

- :class:`DrawDice`: draw four dice from the OS entropy source and feed them
  back as :class:`DiceRolled`;
- :class:`Append`: commit the event to the store *before* the next frame;
- :class:`PopLast`: undo, removing the last choice from the store;
- :class:`StartGame`, :class:`FinishGame`: open and close the stored game;
- :class:`LoadStats`: read the finished games, fed back as :class:`StatsLoaded` (with
  :class:`StatsProgress` before it while games kept without their numbers are counted);
- :class:`LoadUnfinished`: list the games left unfinished, fed back as :class:`UnfinishedLoaded`;
- :class:`ContinueGame`: reopen one of them (the game being played, if any, is left unfinished in its place)
  and feed it back as :class:`GameContinued`;
- :class:`After`: feed :class:`Timer` back once ``seconds`` have passed (a
  later ``After`` replaces an earlier one: the box keeps one timer). It paces
  a box seat's turn and ends the guard after a handover; the UI itself never
  reads a clock;
- what a paired phone asked (:class:`PhoneAsked`, :mod:`firmware.ui.phone`): :class:`KeepRoster`,
  :class:`KeepFacts`, :class:`Dimming`, :class:`Lamps`, and the :class:`PhoneReply` it waits for;
- the camera (:mod:`firmware.ui.camera`): :class:`WatchBoard`, :class:`StopWatching`, :class:`SetUpCamera`,
  answered as :class:`BoardSeen` and :class:`CameraSetUp`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Event, Rules

# -- inputs --------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A button press as the UI sees it (the daemon's debouncer makes them from the pins' edges)."""

    button: str
    long: bool = False


@dataclass(frozen=True)
class DiceRolled:
    dice: tuple[int, int, int, int]


@dataclass(frozen=True)
class Saved:
    """The store committed everything asked of it."""


@dataclass(frozen=True)
class SaveFailed:
    message: str


@dataclass(frozen=True)
class PersonStats:
    """One person's numbers for the statistics pages."""

    name: str
    games: int
    wins: int
    win_rate: float | None
    busts_per_turn: float | None
    solo: tuple[tuple[int, int, float], ...] = ()  # (columns to win, best turns, average turns)


@dataclass(frozen=True)
class StatsProgress:
    """The statistics still count games kept without their numbers: ``done`` of ``total`` so far."""

    done: int
    total: int


@dataclass(frozen=True)
class StatsLoaded:
    rows: tuple[tuple[str, int], ...]
    games: int
    people: tuple[PersonStats, ...] = ()


@dataclass(frozen=True)
class Unfinished:
    """A game left unfinished that can be continued."""

    id: int
    names: tuple[str, ...]  # each seat's player's name, "" for a seat named by its colour
    turns: int
    colours: tuple[str, ...] = ()  # each seat's colour, as the config names it: said in the screen's language


@dataclass(frozen=True)
class UnfinishedLoaded:
    games: tuple[Unfinished, ...]


@dataclass(frozen=True)
class GameContinued:
    """The store reopened a game: its seats, rules and events, to play on."""

    seats: tuple
    rules: Rules
    events: tuple[Event, ...]


@dataclass(frozen=True)
class RosterChanged:
    """The roster in the store changed while the box runs: the names to offer now, and each one's person id.

    ``removed`` are the ids of the people taken off the list (``players remove``), ``legacy`` the
    (folded name, id) a name chosen before ids were kept stands for (the roster's ``legacy``).
    """

    names: tuple[str, ...]
    ids: tuple[int | None, ...] = ()
    removed: tuple[int, ...] = ()
    legacy: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class NetworkSeen:
    """What the box's network status says (:mod:`firmware.daemon.network`; ``known`` False: no status, or
    none the box could read): its ``.local`` name ("" when no mDNS answers for it), its IPv4 addresses, the
    Wi-Fi's ``wifi`` state (joined, joining, failed, none, unusable, unknown), its ``network`` and the
    ``reason`` a join failed (WRONG_KEY: the password)."""

    known: bool = True
    local: str = ""
    addresses: tuple[str, ...] = ()
    wifi: str = "unknown"
    network: str = ""
    reason: str = ""


@dataclass(frozen=True)
class PhoneAsked:
    """A paired phone's request (checked for shape by :mod:`firmware.table.phone_link`), taken like a press.

    ``ticket`` names it for the reply (:class:`PhoneReply`); ``roster`` is the store's roster as it is now
    (read as the command line reads it; None: the box plays without a store, names cannot be kept);
    ``lamps`` says whether the box has lamps wired."""

    ticket: int
    request: dict = field(hash=False, compare=True)
    roster: object = None  # firmware.table.roster.Roster
    lamps: bool = False


@dataclass(frozen=True)
class PhoneSettingsKept:
    """At start: the settings a phone set, as the store kept them (``raw``: the fact, unchecked)."""

    raw: object = None


@dataclass(frozen=True)
class CodeLasts:
    """The pairing code ``code`` is good ``left`` seconds more (0: a phone used it, or it ran out)."""

    code: str
    left: float


@dataclass(frozen=True)
class PhoneCode:
    """The daemon made a pairing code (the Phone screen shows it), or forgot the phones (``forgot``)."""

    code: str
    address: str
    paired: int = 0
    forgot: bool = False


@dataclass(frozen=True)
class CameraSaid:
    """The camera's state: "ready", "unset" (never set up on this board), "absent" (``why`` says)."""

    status: str
    why: str = ""


@dataclass(frozen=True)
class BoardSeen:
    """What a settled picture showed for the watch ``ticket`` (a :class:`sight.verdict.Verdict`); ``moved``:
    anything moved on the board since that watch began (the players touched it)."""

    ticket: int
    verdict: object
    moved: bool = False


@dataclass(frozen=True)
class CameraSetUp:
    """The camera set up from the empty board (``calibration``, to keep), or why not (``refused``)."""

    ticket: int
    calibration: dict | None = field(default=None, hash=False, compare=True)
    refused: str = ""


@dataclass(frozen=True)
class Shutdown:
    reason: str = "Game saved"


@dataclass(frozen=True)
class Timer:
    """The time asked for by the last :class:`After` has passed."""


Input = (Press | DiceRolled | Saved | SaveFailed | StatsProgress | StatsLoaded | UnfinishedLoaded | GameContinued
         | RosterChanged | NetworkSeen | PhoneAsked | PhoneSettingsKept | CodeLasts | PhoneCode | CameraSaid | BoardSeen
         | CameraSetUp | Shutdown | Timer)

# -- effects -------------------------------------------------------------------


@dataclass(frozen=True)
class DrawDice:
    pass


@dataclass(frozen=True)
class Append:
    event: Event


@dataclass(frozen=True)
class PopLast:
    pass


@dataclass(frozen=True)
class StartGame:
    players: tuple[str, ...]
    rules: Rules
    meta: dict = field(hash=False, compare=True)


@dataclass(frozen=True)
class FinishGame:
    winner: int | None


@dataclass(frozen=True)
class LoadStats:
    pass


@dataclass(frozen=True)
class LoadUnfinished:
    pass


@dataclass(frozen=True)
class ContinueGame:
    game_id: int


@dataclass(frozen=True)
class PairPhone:
    """Make a fresh pairing code (good ten minutes, once) and feed it back as :class:`PhoneCode`."""


@dataclass(frozen=True)
class ForgetPhones:
    """Unpair every phone and drop every code; fed back as :class:`PhoneCode` with ``forgot``."""


@dataclass(frozen=True)
class After:
    seconds: float


@dataclass(frozen=True)
class KeepRoster:
    """Write the roster (a phone changed it) as the command line writes it; the daemon's copy becomes it."""

    roster: object  # firmware.table.roster.Roster


@dataclass(frozen=True)
class KeepFacts:
    """Keep these facts in the store, as the loop writes: kept pending if the card refuses them."""

    facts: dict = field(hash=False, compare=True)


@dataclass(frozen=True)
class Dimming:
    """Dim the screen after ``seconds`` without a press (None: never; a dim screen wakes)."""

    seconds: float | None


@dataclass(frozen=True)
class Lamps:
    """The buttons' lamps on (they show what each button does) or every one out."""

    on: bool


@dataclass(frozen=True)
class PhoneReply:
    """The answer for the phone whose request is ``ticket``; ``log`` says what was done, for the journal."""

    ticket: int
    answer: dict = field(hash=False, compare=True)
    log: str = ""


@dataclass(frozen=True)
class WatchBoard:
    """The camera watches the board for ``expected`` (sight.layout.Piece), answering :class:`BoardSeen` with
    ``ticket`` whenever what it sees changes; ``once``: one answer, then it rests (the menu's Check board)."""

    ticket: int
    expected: tuple = ()
    once: bool = False


@dataclass(frozen=True)
class StopWatching:
    """The camera rests: nothing on the board to check now."""


@dataclass(frozen=True)
class SetUpCamera:
    """The camera learns the empty board (its spaces, its light); answered as :class:`CameraSetUp`. With
    ``ends`` (column -> its bottom and top space, tapped on the last set-up's photo) the spaces are placed
    there rather than fitted."""

    ticket: int
    ends: dict | None = field(default=None, hash=False, compare=True)


Effect = (DrawDice | Append | PopLast | StartGame | FinishGame | LoadStats | LoadUnfinished | ContinueGame | PairPhone
          | ForgetPhones | After | KeepRoster | KeepFacts | Dimming | Lamps | PhoneReply | WatchBoard | StopWatching
          | SetUpCamera)
