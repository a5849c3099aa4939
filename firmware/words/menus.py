"""Words around the game: flashes, key legends, titles, menus, the new-game rows, statistics."""

from __future__ import annotations

from .. import i18n
from ..i18n import N_, NP_
from .marks import _, ngettext, pgettext


# -- short notes over the top line (until the next press) ----------------------

FLASH = {
    # TRANSLATORS: a short note over the top line until the next press.
    "new_game": N_("ROLL: new game"),
    # TRANSLATORS: two buttons with what they answer; keep the button names.
    "confirm_keys": N_("C: yes  MENU: no"),
    "roll_first": N_("Press ROLL to roll"),
    "choose": N_("Choose A, B or C"),
    # TRANSLATORS: risky variant: a runner shares a square with another player's marker.
    "risky_stop": N_("Risky: can't stop"),
    "roll_or_stop": N_("ROLL or STOP"),
    "which_column": N_("A or B: which column"),
    "nothing_to_undo": N_("Nothing to undo"),
    "game_over": N_("Game is over"),
    "dice_stay": N_("Dice stay rolled"),
    "box_moves_stay": N_("Box moves stay"),
    "no_game": N_("No game yet"),
    "no_hint": N_("No hint for the box"),
    "set_board": N_("Set the board as shown"),
}


def cannot_move(label: str) -> str:
    # TRANSLATORS: {label} is the pairing A, B or C.
    return _("{label} cannot move").format(label=label)


def not_saved(message: str) -> str:
    # TRANSLATORS: {message} is a short reason such as 'disk full'.
    return _("NOT SAVED: {message}").format(message=message)


# -- the bottom line: what the buttons do now ------------------------------------

KEYS = {
    # TRANSLATORS: bottom line. Keep the button names and the colon; no space inside a label.
    "setup": N_("A/B:move C:change ROLL:start"),
    "confirm": N_("C:yes MENU:no"),
    "turn": N_("ROLL:roll MENU:menu"),
    "box_turn": N_("ROLL:faster MENU:menu"),
    "choose": N_("A B C:choose"),
    "box_ok": N_("ROLL:faster MENU:menu"),
    "box_next": N_("ROLL:box plays"),
    "roll_or_stop": N_("ROLL:roll STOP:stop"),
    "roll": N_("ROLL:roll"),
    "page": N_("A/B:page ROLL:next"),
    "done": N_("ROLL:done"),
    "see_winner": N_("ROLL:see the winner"),
    "stats": N_("A/B:page ROLL:back MENU:menu"),
    "recap": N_("ROLL:back MENU:menu"),
    "none_left": N_("ROLL:ok MENU:menu"),  # nothing to continue: both go back to the menu
    "pick": N_("A/B:pick STOP:back"),
    "board": N_("A/B:col C:+4 ROLL:game"),
    "hint": N_("ROLL:ok MENU:menu"),
    "column": N_("A/B:column MENU:back"),
    "menu": N_("A/B:move ROLL:ok MENU:back"),
    "message": N_("ROLL:ok"),
    "stats_one": N_("ROLL:back MENU:menu"),
    # TRANSLATORS: the camera's screen: ROLL goes back, C sets the camera up (learns the empty board).
    "camera": N_("ROLL:back C:set up"),
    "camera_ask": N_("C:set up ROLL:back"),
}


def next_turn_key(name: str) -> str:
    """The one press that ends a handover: the next player's dice are rolled."""
    # TRANSLATORS: no space inside the label: a space starts a new legend entry.
    return _("ROLL:{name} rolls").format(name=name)


# -- titles and fixed screens --------------------------------------------------

NEW_GAME = N_("New game")
MENU = N_("Menu")
CONFIRM_NEW = (N_("New game?"), (N_("This game is set aside:"), N_("Continue reopens it.")))
NO_GAME = (N_("No game"), (N_("ROLL: new game"),))

MENU_ITEMS = {
    "back": N_("Back to game"),
    "undo": N_("Undo"),
    "hint": N_("Hint"),
    # TRANSLATORS: menu item: the board view.
    "board": NP_("menu", "Board"),
    "new": N_("New game"),
    "stats": N_("Statistics"),
    "continue": N_("Continue a game"),
    # TRANSLATORS: menu item: silence the buzzer.
    "mute": N_("Mute sounds"),
    # TRANSLATORS: menu item: the buzzer sounds again.
    "sound_on": N_("Sounds on"),
    # TRANSLATORS: menu item: the camera over the board compares the real pieces with the game.
    "look": N_("Check board"),
    # TRANSLATORS: menu item: pair a phone (a QR code and a six-digit code), or forget the phones paired.
    "phone": N_("Phone"),
}

CONTINUE = N_("Continue")
#: The name statistics give every seat the box played.
BOX_PLAYER = N_("Box")
NO_UNFINISHED = (N_("Continue"), (N_("No unfinished games."),))
RECAP = N_("Recap")


def continue_item(game_id: int, names: tuple[str, ...], turns: int) -> str:
    """A game left unfinished, as the list of games to continue shows it: "12 turn 5: Ann, Bob".

    The names come last, so a long name is what gets cut, never the game's number or its turn.
    """
    # TRANSLATORS: an item of the list of games to continue; {names} (last, as it may be cut) like "Ann, Bob".
    return _("{id} turn {turns}: {names}").format(id=game_id, turns=turns, names=pgettext("list", ", ").join(names))


def win_keys(recap: bool) -> str:
    """The win screen's legend; B opens the recap of the game, C a rematch (MENU works unlit, as everywhere)."""
    # TRANSLATORS: C starts a rematch (the same players and rules) at once; ROLL opens the new-game screen.
    return _("B:recap C:again ROLL:new") if recap else _("C:rematch ROLL:new game")


# -- statistics per person ---------------------------------------------------


def counting(done: int, total: int) -> tuple[str, tuple[str, ...]]:
    """The statistics screen while it counts games kept without their numbers: its title, and how far."""
    # TRANSLATORS: shown while the statistics replay old games once, over many seconds;
    # {done} and {total} are numbers written with thousands separators, such as 1,200 and 10,000.
    line = _("{done} of {total}").format(done=f"{done:,}", total=f"{total:,}")
    return _("Statistics"), (_("Counting games..."), line)

#: The recap's column headings: turns, busts, biggest turn (squares climbed).
RECAP_HEADINGS = (N_("turn"), N_("bust"), N_("best"))


def recap_status(rounds: int) -> str:
    return ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)


def person_rows(games: int, wins: int, win_rate: float | None, busts_per_turn: float | None,
                solo: dict[int, tuple[int, float]]) -> tuple[tuple[str, str], ...]:
    """One person's statistics as (label, value) rows; ``solo``: columns -> (best, average) turns of solitaire wins."""
    rows = [(_("Games"), str(games)), (_("Wins"), f"{wins} ({win_rate:.0%})" if win_rate is not None else str(wins))]
    rows.append((_("Busts a turn"), f"{busts_per_turn:.2f}" if busts_per_turn is not None else "-"))
    for columns in sorted(solo):
        best, average = solo[columns]
        rows.append((_("{n} col solo best").format(n=columns), str(best)))
        rows.append((_("{n} col solo avg").format(n=columns), f"{average:.1f}"))
    return tuple(rows)


def page_of(page: int, pages: int) -> str:
    return f"{page}/{pages}"

#: The config's usual colours, which are the players' names on the screen; another colour stays as written.
COLOURS = {
    # TRANSLATORS: a player's colour, also the player's name on the screen.
    "Red": NP_("colour", "Red"),
    "Blue": NP_("colour", "Blue"),
    "Green": NP_("colour", "Green"),
    "Yellow": NP_("colour", "Yellow"),
    "Orange": NP_("colour", "Orange"),
    "Purple": NP_("colour", "Purple"),
    "White": NP_("colour", "White"),
    "Black": NP_("colour", "Black"),
}


def colour(name: str) -> str:
    """A seat's colour as the players' name for it ("Red" -> "赤" in Japanese); other names as they are."""
    return COLOURS.get(name, name)


def setup_row(key: str, value, colour_of: str | None = None) -> tuple[str, str]:
    """(label, value) of a new-game row; ``value`` is the row's raw value; ``colour_of``, for a name row, the
    seat's colour: a seat with no name is called by it, and says so ("(Red)", not "-", which read as a
    name gone missing once a name was removed from the list)."""
    if key == "players":
        # TRANSLATORS: new-game row: how many players.
        return _("Players"), str(value)
    if key.startswith("colour"):
        # TRANSLATORS: new-game row: player n's colour.
        return _("P{n} colour").format(n=int(key[6:]) + 1), colour(value)
    if key.startswith("name"):
        # TRANSLATORS: new-game row: player n's name from the roster ("-" for none, or the seat's colour as
        # "(Red)").
        return _("P{n} name").format(n=int(key[4:]) + 1), value or (f"({colour(colour_of)})" if colour_of else "-")
    if key.startswith("plays"):
        # TRANSLATORS: new-game row: a person or the box plays seat n; the box itself is "box".
        label = _("P{n} plays").format(n=int(key[5:]) + 1)
        return label, pgettext("seat", "box") if value else pgettext("seat", "person")
    if key == "first":
        # TRANSLATORS: new-game row: who starts.
        return _("Starts"), value
    if key == "win":
        # TRANSLATORS: columns to win, as a short value.
        return _("To win"), ngettext("{n} col", "{n} cols", value).format(n=value)
    if key == "speedy":
        # TRANSLATORS: the speedy variant: runners jump squares with other markers.
        return _("Speedy"), _on_off(value)
    if key == "risky":
        # TRANSLATORS: the risky variant: no stop on a square shared with another marker.
        return _("Risky"), _on_off(value)
    if key == "language":
        # TRANSLATORS: new-game row: the language of the screen (each language shows its own name).
        return _("Language"), i18n.NAMES.get(value, str(value))
    return _("Start game"), ""


def _on_off(value: bool) -> str:
    return pgettext("setting", "on") if value else pgettext("setting", "off")


def off_reason(reason: str) -> str:
    """Why the box stopped, under "Safe to unplug": the usual "Game saved" in the language, another as given."""
    return _("Game saved") if reason == "Game saved" else reason


# -- a paired phone ------------------------------------------------------------

# TRANSLATORS: the Phone screen's title: a phone scans the QR code or types the six digits.
PHONE = N_("Phone")


def phone_lines(paired: int) -> tuple[str, ...]:
    """The Phone screen's words under the code (drawn large beside the QR code): for how long, how many phones."""
    # TRANSLATORS: the six-digit code on the Phone screen works this long, once.
    first = _("10 minutes, once")
    # TRANSLATORS: how many phones can change names and the next game now.
    second = ngettext("{n} phone paired", "{n} phones paired", paired).format(n=paired)
    return first, second


# TRANSLATORS: bottom line of the Phone screen. Keep the button names; no space inside a label.
PHONE_KEYS = N_("C:forget ROLL:back")
# TRANSLATORS: over the top line: every paired phone must pair again.
PHONES_FORGOTTEN = N_("Phones forgotten")


def from_phone(kind: str, name: str = "", new: str = "") -> str:
    """What the box says over its top line when a paired phone changed something (also the phone's answer)."""
    if kind == "add":
        # TRANSLATORS: a player was added to the names a seat can take, from a paired phone.
        return _("{name} added from a phone").format(name=name)
    if kind == "rename":
        # TRANSLATORS: a player was renamed from a paired phone.
        return _("{name} is {new} now (phone)").format(name=name, new=new)
    if kind == "remove":
        # TRANSLATORS: a player was taken off the list from a paired phone.
        return _("{name} removed from a phone").format(name=name)
    if kind == "setup":
        # TRANSLATORS: the next game's players and rules came from a phone; ROLL on the box starts it.
        return _("Next game from a phone")
    # TRANSLATORS: the box's settings (language, dimming, sound, lamps) were changed from a phone.
    return _("Settings from a phone")
