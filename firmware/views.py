"""What each screen shows, as plain frozen data.

The UI state machine (:mod:`firmware.ui`) turns the game into one of these
views; the renderer (:mod:`firmware.screens`) turns a view into a 128x64
1-bit frame. Views hold only text, numbers and flags (no engine objects), so
the renderer needs nothing but Pillow and the fonts, and two equal views
always give the same frame: the daemon skips a frame when its view did not
change.

Conventions every view follows:

- ``player`` is the display name of the player concerned (``"Ann"``, or the
  colour ``"Red"`` for a seat without a name), and
  ``seat`` the symbol drawn for them (0..3: filled square, hollow square,
  filled circle, cross), so players can be told apart on a mono screen. The
  symbol belongs to the seat's colour (:func:`firmware.table.seat.symbols`),
  not to its place in the turn order: Blue keeps its symbol in every game.
  The board view, whose pieces are indexed by turn order, carries the
  symbols in ``marks``.
- ``keys`` is the legend for the bottom line: what the buttons do *now*,
  e.g. ``"ROLL:roll MENU:menu"``.
- ``alert`` is a short warning shown over the top line when set (for
  instance ``"NOT SAVED: disk full"``); the screen stays usable.
- ``expect`` (a field or a property) names the buttons the box waits for
  (the ROLL of a handover, the legal pairings of the dice), and ``refused``
  the legend's buttons that do nothing now (an illegal pairing): the
  buttons' lamps read them with the legend (:mod:`firmware.cues.lamps`).
- ``lang`` is the language of the view ("en", "ja", "ko"): its texts are
  already in it, and the renderer draws the few words it adds around them
  (a status, "bust if you roll again") in it too. It is part of the view, so
  two equal views still always give the same frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

#: The six buttons' names as printed on the box: a legend token that is one of them is drawn boxed.
BUTTONS = frozenset(("ROLL", "STOP", "A", "B", "C", "MENU"))


def legend(keys: str) -> list[tuple[str, str]]:
    """A view's ``keys`` as (button, label) pairs: what the renderer draws on the bottom line and what the
    lamps light, from one reading. ``"A B C:choose ROLL:ok"`` -> [("A", ""), ("B", ""), ("C", "choose"),
    ("ROLL", "ok")].

    A token is a button when it is one of the six button names (``A/B:move``
    keys the pair "A/B"); any other word, in any script, is a plain label. A
    button's label runs on to the next button: ``"ROLL:see the winner"`` is
    ROLL's "see the winner", and the Korean ``"ROLL:새 게임"`` keeps its space
    (issue 47, item 9: it was written closed, without one, so as not to split).
    """
    out: list[tuple[str, str]] = []
    for token in keys.split():
        key, colon, label = token.partition(":")
        if colon and all(part in BUTTONS for part in key.split("/")):
            out.append((key, label))
        elif token in BUTTONS:
            out.append((token, ""))
        elif out and out[-1][0] and out[-1][1]:
            out[-1] = (out[-1][0], f"{out[-1][1]} {token}")
        else:
            out.append(("", token))
    return out


@dataclass(frozen=True)
class Track:
    """One column as the wide screens' compact board shows it beside a turn: the progress of the player to act."""

    column: int
    height: int
    marker: int = 0  # the player's marker, 0 where none
    runner: int = 0  # this turn's runner, 0 where none
    claimed: str = ""  # "mine" (claimed by this player), "theirs" (by another), "" while open


@dataclass(frozen=True)
class TurnView:
    """A turn starts: whose turn it is, and what to do on the board after the last turn.

    ``note`` is up to four short lines about the previous turn, e.g.
    ``("Red stops:", "markers 7:7 8:2 9:1")``, ``("Red claims 7!", "Take Blue off 7")``
    or ``("Red busts: 1 1 2 2", "Take runners off")``.
    """

    #: MENU opens the menu (held: undo) from every game screen: its lamp is lit there, legend or not.
    menu_works: ClassVar[bool] = True
    player: str
    seat: int
    turn: int
    claims: tuple[int, ...]  # columns this player has claimed
    note: tuple[str, ...] = ()
    bot: bool = False
    keys: str = "ROLL:roll MENU:menu"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    note_names: tuple[str, ...] = ()  # the players ``note`` names (a long one is cut there, not the note)
    board: tuple[Track, ...] = ()  # the columns, for a screen wide enough to show them beside the turn

    @property
    def expect(self) -> tuple[str, ...]:
        """A player's turn waits for ROLL (a box seat's goes on by itself)."""
        return () if self.bot else ("ROLL",)


@dataclass(frozen=True)
class Option:
    """One pairing of the dice and what choosing it would do."""

    label: str  # "A", "B" or "C"
    pairs: tuple[tuple[int, int], tuple[int, int]]  # the dice as paired, e.g. ((2, 3), (4, 5))
    sums: tuple[int, int]  # the two sums, in dice order
    effect: str  # "both", "first", "second", "pick", "none"
    text: str  # what moves: "5+9", "7 x2", "7", "2 or 11", "--" when illegal


@dataclass(frozen=True)
class DiceView:
    """Dice are out: the three pairings, which are legal, and (for a bot) its choice."""

    #: MENU opens the menu (held: undo) from every game screen: its lamp is lit there, legend or not.
    menu_works: ClassVar[bool] = True
    player: str
    seat: int
    dice: tuple[int, int, int, int]
    options: tuple[Option, Option, Option]
    bot: bool = False
    chosen: str | None = None  # a bot's choice, e.g. "A" (or "A:11" after a pick)
    keys: str = "A B C:choose"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    board: tuple[Track, ...] = ()  # the columns (runners before this roll's move), for a wide screen

    @property
    def refused(self) -> tuple[str, ...]:
        """The pairings that cannot move (their button only says so)."""
        return tuple(o.label for o in self.options if o.effect == "none")

    @property
    def expect(self) -> tuple[str, ...]:
        """A player's dice wait for one of the legal pairings."""
        return () if self.bot else tuple(o.label for o in self.options if o.effect != "none")


@dataclass(frozen=True)
class PickView:
    """The chosen pairing moves only one of its sums: which one?"""

    #: MENU opens the menu (held: undo) from every game screen: its lamp is lit there, legend or not.
    menu_works: ClassVar[bool] = True
    player: str
    seat: int
    dice: tuple[int, int, int, int]
    label: str  # the pairing chosen
    choices: tuple[int, int]  # the two columns; A picks the first, B the second
    keys: str = "A/B:pick STOP:back"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    expect: tuple[str, ...] = ("A", "B")  # one of the two columns is picked
    board: tuple[Track, ...] = ()  # the columns (runners before the move), for a wide screen


@dataclass(frozen=True)
class RunnerMove:
    """One physical instruction for a runner."""

    column: int
    step: int  # the square to put it on, 1 = bottom
    new: bool  # place a new runner (True) or move the one already there
    top: bool  # the runner is now on the top of its column
    jumped: tuple[int, ...] = ()  # speedy variant: squares jumped over (other players' markers)


@dataclass(frozen=True)
class MoveView:
    """After a move: what to move on the board, the bust chance of rolling again, and the choice."""

    #: MENU opens the menu (held: undo) from every game screen: its lamp is lit there, legend or not.
    menu_works: ClassVar[bool] = True
    player: str
    seat: int
    steps: tuple[RunnerMove, ...]
    bust: float  # exact probability that rolling again busts (0..1)
    can_stop: bool
    free_runners: int
    stop_note: str | None = None  # why a stop is not allowed (risky variant)
    bot: bool = False
    bot_next: str | None = None  # "roll" or "stop": what a bot will do on confirm
    keys: str = "ROLL:roll STOP:stop"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    note_names: tuple[str, ...] = ()  # the players ``stop_note`` names (a long one is cut there, not the note)
    board: tuple[Track, ...] = ()  # the columns (runners after the move), for a wide screen


@dataclass(frozen=True)
class InstructionsView:
    """What to do on the board now, page by page: after a stop, a bust, or an undo.

    ``lines`` are this page's lines (at most 4 of 21 characters; at most 2
    when ``big`` is set); ``big`` is a line in the large font above them
    (e.g. ``"BUST! 5 6 6 2"``).
    """

    #: MENU opens the menu (held: undo) from every game screen: its lamp is lit there, legend or not.
    menu_works: ClassVar[bool] = True
    player: str | None
    seat: int | None
    title: str  # the top bar: "Red stops", "Red busts", "Undone"
    lines: tuple[str, ...]
    big: str | None = None
    page: int = 1
    pages: int = 1
    keys: str = "ROLL:done"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    expect: tuple[str, ...] = ()  # ("ROLL",) at a handover: the next player's ROLL is awaited

    @property
    def refused(self) -> tuple[str, ...]:
        """A, on the first of several pages: there is no page before it."""
        return ("A",) if self.page == 1 and self.pages > 1 else ()


@dataclass(frozen=True)
class WinView:
    """Someone won (``player`` None: the game ended with nobody able to win)."""

    player: str | None
    seat: int | None
    claims: tuple[int, ...]
    turns: int
    note: tuple[str, ...] = ()  # the last physical steps, e.g. markers to place
    keys: str = "ROLL:new game MENU:menu"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class Column:
    """One column of the board view."""

    column: int
    height: int
    markers: tuple[int, ...]  # step of each player's marker, 0 where none (index = seat)
    runner: int = 0  # this turn's runner step, 0 where none
    owner: int | None = None  # seat that claimed it


@dataclass(frozen=True)
class BoardView:
    """The whole board, to check the real one against the box's game.

    ``focus`` is None for the overview of all eleven columns (a row per
    player), or a column number for a detail page of that column.
    """

    players: tuple[str, ...]
    columns: tuple[Column, ...]
    current: int | None = None  # seat to act, None when the game is over
    focus: int | None = None
    keys: str = "A/B:col C:+4 ROLL:game"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    marks: tuple[int, ...] = ()  # each seat's symbol (its colour's), in turn order; () draws seat i with symbol i

    def mark(self, seat: int | None) -> int | None:
        """The symbol drawn for the pieces of ``seat`` (an index in turn order; None: no symbol)."""
        if seat is None:
            return None
        return self.marks[seat] if 0 <= seat < len(self.marks) else seat


@dataclass(frozen=True)
class MenuView:
    """A list to choose from: A moves up, B moves down, ROLL chooses, MENU goes back."""

    title: str
    items: tuple[str, ...]
    cursor: int
    keys: str = "A/B:move ROLL:ok MENU:back"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    off: tuple[int, ...] = ()  # items that cannot be used now: shown as such, in their places

    @property
    def refused(self) -> tuple[str, ...]:
        """ROLL on an item that cannot be used now (it only says why); A and B in a list of one."""
        return (("ROLL",) if self.cursor in self.off else ()) + (("A", "B") if len(self.items) == 1 else ())


@dataclass(frozen=True)
class SetupView:
    """New-game settings: rows of (label, value); C changes the row under the cursor."""

    title: str
    rows: tuple[tuple[str, str], ...]
    cursor: int
    keys: str = "A/B:move C:change ROLL:start"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class PhoneView:
    """Pairing a phone: the address (drawn as a QR code, with the code in it) and the code with a few words."""

    title: str
    address: str  # "" until the daemon made a code: no QR code yet
    code: str
    lines: tuple[str, ...]
    keys: str = "C:forget ROLL:back"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class MessageView:
    """A notice, an error, or a yes/no question."""

    title: str
    lines: tuple[str, ...]
    keys: str = "ROLL:ok"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class HintView:
    """What the strong player would do now, and why in a few words."""

    player: str
    seat: int
    action: str  # e.g. "Stop", "Roll again", "A: 6+8"
    reason: tuple[str, ...]  # a sentence or two, wrapped to the screen
    bust: float | None = None
    keys: str = "ROLL:ok MENU:menu"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class StatsView:
    """Wins per colour over the finished games: one page of them (four people; A/B page through the rest)."""

    rows: tuple[tuple[str, int], ...]
    games: int
    keys: str = "ROLL:back MENU:menu"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)
    page: str = ""  # which page of the statistics this is ("1/3"), when there are more
    most: int | None = None  # the most wins on any page (the bars' full length); None: this page's most


@dataclass(frozen=True)
class TableView:
    """Rows of (label, value) to read, not to choose from: one person's statistics."""

    title: str
    status: str
    rows: tuple[tuple[str, str], ...]
    keys: str = "A/B:page MENU:back"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class RecapRow:
    """One seat in a game's recap."""

    player: str
    seat: int
    turns: int
    busts: int
    best: int  # squares climbed in this seat's biggest turn


@dataclass(frozen=True)
class RecapView:
    """After a game: each seat's turns, busts and biggest turn; ``biggest`` marks the game's biggest."""

    title: str
    status: str
    rows: tuple[RecapRow, ...]
    biggest: int | None = None  # index into rows
    keys: str = "ROLL:back"
    alert: str | None = None
    lang: str = "en"  # the language of the words the renderer adds (firmware.words)


@dataclass(frozen=True)
class OffView:
    """The box is shutting down (or has stopped): safe to unplug."""

    reason: str = "Game saved"
    lang: str = "en"


View = (
    TurnView | DiceView | PickView | MoveView | InstructionsView | WinView | BoardView | MenuView
    | SetupView | MessageView | HintView | StatsView | TableView | RecapView | PhoneView | OffView
)
