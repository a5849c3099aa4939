"""Every word the box shows, one formatter per kind of thing, in every language the box speaks.

Neither the UI (:mod:`firmware.ui`) nor the renderer (:mod:`firmware.screens`)
spells out a word itself: a flash, a legend, an instruction for the board,
the text of a pairing, a chance or a status in the top bar all come from
here, so one change (or one translation) reaches every screen that shows
it. Names are the seats' display names (a player's name from the roster, else
the seat's colour), passed in as strings.

Each sentence is written once in English and marked for translation
(docs/translating.md): ``_()`` for a sentence, ``ngettext()`` for a count,
``pgettext()`` when the same English word means two things, and ``N_`` /
``NP_`` in the tables below (marked, translated when a language is bound).
The module's own functions speak English; :func:`language` gives the same
formatters and tables bound to one language's catalogue::

    w = words.language("ja")
    w.turn_heading("赤", bot=False)   # "赤の手番"
    w.KEYS["turn"]                    # "ROLL:振る MENU:メニュー"

A formatter added here is bound like the others without any registration:
write it with ``_()`` and it speaks every language.
"""

from __future__ import annotations

import functools
import sys

from engine import GameState, Move, Pairing, Phase, Roll, Rules, Stop

from . import i18n
from .i18n import N_, NP_


# -- marking: English is the source text; language() rebinds these three ----------


def _(message: str) -> str:
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    return message



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
    "set_board": N_("Set the board like this"),
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
    "stats": N_("A/B:page MENU:menu"),
    "recap": N_("ROLL:back MENU:menu"),
    "back": N_("MENU:menu"),
    "pick": N_("A/B:pick STOP:back"),
    "board": N_("A/B:col C:+4 ROLL:game"),
    "hint": N_("ROLL:ok MENU:menu"),
    "column": N_("A/B:column MENU:back"),
    "menu": N_("A/B:move ROLL:ok MENU:back"),
    "message": N_("ROLL:ok"),
    "stats_one": N_("ROLL:back MENU:menu"),
}


def next_turn_key(name: str) -> str:
    """The one press that ends a handover: the next player's dice are rolled."""
    # TRANSLATORS: no space inside the label: a space starts a new legend entry.
    return _("ROLL:{name} rolls").format(name=name)


# -- titles and fixed screens --------------------------------------------------

NEW_GAME = N_("New game")
MENU = N_("Menu")
CONFIRM_NEW = (N_("New game?"), (N_("This game will end"), N_("(it stays in history).")))
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
}

CONTINUE = N_("Continue")
#: The name statistics give every seat the box played.
BOX_PLAYER = N_("Box")
NO_UNFINISHED = (N_("Continue"), (N_("No unfinished games."),))
RECAP = N_("Recap")


def continue_item(game_id: int, names: tuple[str, ...], turns: int) -> str:
    """A game left unfinished, as the list of games to continue shows it: "12 Ann, Bob T5"."""
    return f"{game_id} {', '.join(names)} T{turns}"


def win_keys(recap: bool) -> str:
    """The win screen's legend; B opens the recap of the game."""
    return _("B:recap ROLL:new MENU:menu") if recap else _("ROLL:new game MENU:menu")


# -- statistics per person ---------------------------------------------------

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


def setup_row(key: str, value) -> tuple[str, str]:
    """(label, value) of a new-game row; ``value`` is the row's raw value."""
    if key == "players":
        # TRANSLATORS: new-game row: how many players.
        return _("Players"), str(value)
    if key.startswith("colour"):
        # TRANSLATORS: new-game row: player n's colour.
        return _("P{n} colour").format(n=int(key[6:]) + 1), colour(value)
    if key.startswith("name"):
        # TRANSLATORS: new-game row: player n's name from the roster ("-" for none).
        return _("P{n} name").format(n=int(key[4:]) + 1), value or "-"
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


# -- the dice: one text per pairing, the same on the dice screen and in hints --


def option_text(p: Pairing) -> tuple[str, str]:
    """(effect, text) of a pairing: what choosing it moves, as the dice screen draws it (digits in every language)."""
    a, b = p.sums
    moves = [m.sums for m in p.moves]
    if not moves:
        return "none", "--"
    if len(moves) == 2:
        return "pick", f"{a}/{b}"
    if moves[0] == (a, a):
        return "both", f"{a}x2"
    if len(moves[0]) == 2:
        return "both", f"{a}+{b}"
    if moves[0] == (a,):
        return "first", f"{a}"
    return "second", f"{b}"


def action_text(g: GameState, action, pairs: tuple[Pairing, ...]) -> str:
    """An action in the words of the screens: a move as its pairing shows it on the dice screen."""
    if isinstance(action, Move):
        for p in pairs:
            if action in p.moves:
                text = str(action.sums[0]) if p.needs_pick else option_text(p)[1]
                return f"{p.label}: {text}"
        return "+".join(map(str, action.sums))
    return decision_text(action, rolled=g.phase is not Phase.ROLL)


def decision_text(action: str, rolled: bool) -> str:
    """A hint's roll or stop: "Stop", "Roll" (a turn's first roll) or "Roll again"."""
    # TRANSLATORS: what the strong player would do.
    if action == "stop":
        return pgettext("hint", "Stop")
    return pgettext("hint", "Roll again") if rolled else pgettext("hint", "Roll")


# -- hints: the numbers behind the advice, in plain words ------------------------


def whole_percent(p: float) -> str:
    """A chance as a whole percentage for a sentence: "74%", never "0%" above zero nor "100%" below one."""
    if 0 < p < 0.005:
        return _("under 1%")
    if 0.995 <= p < 1:
        return _("over 99%")
    return f"{round(p * 100)}%"


def hint_reason(facts) -> tuple[str, ...]:
    """Why the hint advises what it does, from :class:`firmware.bots.HintFacts`: one or two sentences."""
    bust = whole_percent(facts.bust)
    kind = facts.kind
    if kind == "move":
        return (_("After {sums} the next roll busts {percent} of the time.").format(
            sums="+".join(map(str, facts.sums)), percent=bust),)
    if kind == "start":
        return (_("Roll to start your turn."),)
    if kind == "must_roll":
        return (_("Risky: you may not stop now."), _("Rolling busts {percent} of the time.").format(percent=bust))
    if kind == "win":
        return (_("Stopping now wins the game!"),)
    if kind == "chances":
        return (_("Rolling again wins {roll} of games like this, stopping {stop}.").format(
            roll=whole_percent(facts.roll_win), stop=whole_percent(facts.stop_win)),)
    if kind == "turns":
        text = _("Rolling again saves {turns:.1f} turns on average.") if facts.roll \
            else _("Stopping saves {turns:.1f} turns on average.")
        return (text.format(turns=facts.saved_turns),)
    if facts.roll:
        return (_("Rolling busts {percent} of the time.").format(percent=bust),)
    return (ngettext("Stopping keeps {n} square; rolling busts {percent}.",
                     "Stopping keeps {n} squares; rolling busts {percent}.", facts.at_risk).format(
        n=facts.at_risk, percent=bust),)


# -- the turn ------------------------------------------------------------------


def opening_note(names: tuple[str, ...], first: str, rules: Rules, box_average: float | None) -> tuple[str, ...]:
    """Shown as a game's first turn starts: who starts and the variants; for solitaire, the goal."""
    if len(names) > 1:
        return (_("{name} starts.").format(name=first),) + rules_note(rules)
    k = rules.columns_to_win
    # TRANSLATORS: solitaire practice; a line break (\n) is kept as a line break on the screen.
    goal = ngettext("Claim {n} column in as\nfew turns as you can.",
                    "Claim {n} columns in as\nfew turns as you can.", k).format(n=k)
    lines = tuple(goal.split("\n"))
    if box_average is not None:
        lines += (_("Box average: {average:.1f} turns.").format(average=box_average),)
    return lines


def previous_turn_note(who: str, last) -> tuple[str, ...]:
    """Shown as the next turn starts: how the previous one ended."""
    if isinstance(last, Stop):
        return (_("{name} stopped.").format(name=who),)
    if isinstance(last, Roll):
        return (_("{name} bust.").format(name=who),)
    return ()


def rules_note(rules: Rules) -> tuple[str, ...]:
    """The variants in force, said once as the game starts (nothing for the standard game)."""
    parts = []
    if rules.columns_to_win != 3:
        parts.append(_("{n} to win").format(n=rules.columns_to_win))
    if rules.speedy:
        parts.append(pgettext("variant", "speedy"))
    if rules.risky:
        parts.append(pgettext("variant", "risky"))
    # TRANSLATORS: {rules} is a list of the variants in force.
    return (_("Rules: {rules}.").format(rules=listed(parts)),) if parts else ()


def listed(items) -> str:
    """Items of a list joined as the language joins them ("Blue, Green")."""
    # TRANSLATORS: between the items of a list.
    return pgettext("list", ", ").join(items)


def risky_note(conflicts: list[tuple[int, list[str]]]) -> str:
    """Why the risky variant forbids a stop now: every runner sharing a square, and with whom."""
    if not conflicts:
        return _("Risky: roll again")
    if len(conflicts) == 1 and len(conflicts[0][1]) == 1:
        column, (owner,) = conflicts[0]
        return _("Risky: {column} shares with {name}").format(column=column, name=owner)
    # TRANSLATORS: {shared} is like '8 Red, 10 Blue Green' (a column and who shares it).
    return _("Risky: {shared}").format(shared=listed(f"{column} {' '.join(owners)}" for column, owners in conflicts))


# -- after a stop, a bust, an undo ---------------------------------------------


def handover_title(name: str, bust: bool) -> str:
    # TRANSLATORS: the top bar after a bust, or after a stop.
    return (_("{name} busts") if bust else _("{name} stops")).format(name=name)


def bust_big(dice) -> str:
    # TRANSLATORS: {dice} is the four dice, like 1 1 2 2.
    return _("BUST! {dice}").format(dice=" ".join(map(str, dice)))


def bust_lines(had_runners: bool) -> tuple[str, ...]:
    return (_("Take the runners off."), _("Markers stay.")) if had_runners else (_("No move possible."),)


def box_bust_lines() -> tuple[str, ...]:
    """A box seat's bust: its runners never went on the board, so there is nothing to do."""
    return (_("Nothing to move."), _("Markers stay."))


def squares(steps: dict[int, int], empty: str | None = None) -> str:
    """Column:square pairs on one line, e.g. ``5:1  9:off``."""
    if empty is None:
        # TRANSLATORS: a marker not on the board, as in 7:off.
        empty = pgettext("marker", "off")
    return "  ".join(f"{c}:{s or empty}" for c, s in steps.items())


def stop_lines(name: str, runners: dict[int, int], claims: list[tuple[int, list[str]]]) -> tuple[str, ...]:
    """A stop: where the markers go; per claimed column, whose markers come off."""
    # TRANSLATORS: followed by a line like 7:3  8:2 (column:square).
    lines = [_("{name} markers to:").format(name=name), squares(runners)]
    for column, off in claims:
        lines.append(_("{name} claims {column}!").format(name=name, column=column))
        if off:
            # TRANSLATORS: {names}: the colours whose markers leave the claimed column.
            lines.append(_("Take off {column}: {names}.").format(column=column, names=listed(off)))
    return tuple(lines)


def undone_title(event) -> str:
    if isinstance(event, Move):
        # TRANSLATORS: {sums} is like 7+8.
        return _("Undone: move {sums}").format(sums="+".join(map(str, event.sums)))
    if isinstance(event, Stop):
        return _("Undone: stop")
    return _("Undone: roll")


def undo_move_lines(columns: dict[int, int]) -> tuple[str, ...]:
    """Taking back a move: each runner back to ``step`` (0: off the board)."""
    # TRANSLATORS: {step} is a square, 1 = bottom.
    lines = [_("{column}: runner back to {step}.").format(column=c, step=s) if s
             else _("Take runner off {column}.").format(column=c) for c, s in columns.items()]
    return tuple(lines) + (_("Same dice: pick again"),)


def undo_stop_lines(name: str, runners: dict[int, int], markers: dict[int, int],
                    refill: list[tuple[int, list[str]]]) -> tuple[str, ...]:
    """Taking back a stop: runners back on, markers back, claimed columns refilled."""
    lines = [_("Runners back on:"), squares(runners), _("{name} markers back to:").format(name=name), squares(markers)]
    for column, back in refill:
        # TRANSLATORS: {names} is a list like 'Blue, Green'.
        lines.append(_("Put back on {column}: {names}.").format(column=column, names=listed(back)))
    return tuple(lines) + (_("{name} decides again.").format(name=name),)


# -- notices at start ---------------------------------------------------------

_NOTICES = {
    "reset": (N_("Saved games reset"), ()),
    "unreadable": (N_("Saved game unreadable"), ()),
    "damaged": (N_("Saved game damaged"), (N_("It stays in history."),)),
}


def notice(kind: str, detail: str) -> tuple[str, tuple[str, ...]]:
    """(title, lines) of a notice the box shows as it starts, e.g. a damaged saved game."""
    title, after = _NOTICES[kind]
    return title, (detail,) + after


# -- the end -------------------------------------------------------------------


def nobody_can_win(columns_to_win: int) -> str:
    return ngettext("Nobody can claim {n} column any more.", "Nobody can claim {n} columns any more.",
                    columns_to_win).format(n=columns_to_win)


def practice_result(turns: int, box_average: float) -> tuple[str, ...]:
    """Solitaire practice: the player's turns against the box's own average."""
    verdict = _("You beat the box!") if turns < box_average else _("The box is quicker.")
    counted = ngettext("{n} turn, box avg {average:.1f}", "{n} turns, box avg {average:.1f}", turns)
    return (counted.format(n=turns, average=box_average), verdict)


# -- numbers -------------------------------------------------------------------


def percent(p: float) -> str:
    """An exact chance as a short percentage: "23.9%", never "0.0%" for a chance above zero.

    The same in every language: Arabic digits and ASCII % (docs/glossary.md).
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def ranges(squares: tuple[int, ...]) -> str:
    """(4, 5, 6, 9) -> "4-6 9": runs of squares in few characters."""
    out, run = [], [squares[0]]
    for sq in squares[1:]:
        if sq == run[-1] + 1:
            run.append(sq)
        else:
            out.append(run)
            run = [sq]
    out.append(run)
    return " ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in out)


def count(n: int, one: str, many: str) -> str:
    """"1 game", "3 games" (English only: a translated count is an ``ngettext`` sentence)."""
    return f"{n} {one if n == 1 else many}"


def games_count(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


# -- what the renderer draws around the views' own texts ---------------------------


def runner_step(step: int, new: bool, top: bool, jumped: tuple[int, ...] = ()) -> str:
    """The physical instruction for one runner, without its column: "new runner on 1"."""
    if jumped:  # speedy: say which squares it jumped, or the box looks wrong
        # TRANSLATORS: speedy: {squares} are the squares jumped, like 4-6 9.
        text = _("new on {step} past {squares}") if new else _("up to {step} past {squares}")
        return text.format(step=step, squares=ranges(jumped))
    if top:
        return (_("new on {step}: TOP!") if new else _("up to {step}: TOP!")).format(step=step)
    return (_("new runner on {step}") if new else _("runner up to {step}")).format(step=step)


def box_runner_step(step: int, top: bool) -> str:
    """A box seat's runner, said only: nobody moves it on the board until its stop."""
    return (_("climbs to {step}: TOP!") if top else _("climbs to {step}")).format(step=step)


def who(player: str, bot: bool) -> str:
    """The name in the top bar: the colour, marked when the box plays it."""
    return _("{name} (bot)").format(name=player) if bot else player


def turn_status(turn: int, short: bool = False) -> str:
    """The round being played (every player's turn once), as ``history`` counts rounds."""
    # TRANSLATORS: the top bar's round (every player's turn once), and its shortest form.
    return (_("R{n}") if short else _("round {n}")).format(n=turn)


def turn_heading(player: str, bot: bool) -> str:
    return (_("{name} (bot)") if bot else _("{name}'s turn")).format(name=player)


def dice_status(bot: bool, chosen: str | None) -> str:
    if bot:
        return _("box: {label}").format(label=chosen) if chosen else pgettext("top bar", "box plays")
    return pgettext("top bar", "choose")


def pick_question(label: str) -> str:
    return _("{label} moves one: which?").format(label=label)


def free_runners(n: int) -> str:
    # TRANSLATORS: top bar: runners not yet on the board.
    return _("{n} free").format(n=n)


def bot_will(action: str) -> tuple[str, str]:
    # TRANSLATORS: followed by ROLL or STOP (the button names).
    return _("box will"), action.upper()


def bust_status(p: float | None) -> str:
    # TRANSLATORS: {percent} is like 23.9%.
    return _("bust {percent}").format(percent=percent(p)) if p is not None else pgettext("top bar", "hint")


def win_heading(player: str | None) -> str:
    return _("GAME OVER") if player is None else _("{name} WINS!").format(name=player.upper())


def win_claims(player: str | None, claims: tuple[int, ...], turns: int) -> str:
    if claims:
        return _("claimed {columns}").format(columns=" ".join(map(str, claims)))
    if player is None:
        return ngettext("after {n} round", "after {n} rounds", turns).format(n=turns)
    return _("nobody claimed {n}").format(n=3)


def turns_count(turns: int) -> str:
    """The rounds a finished game lasted (every player's turn once), as ``history`` counts rounds."""
    return ngettext("{n} round", "{n} rounds", turns).format(n=turns)


def claimed_by(owner: str) -> str:
    return _("claimed by {name}").format(name=owner)


def seat_name(seat: int) -> str:
    """A seat with no name known (a damaged view): "P2"."""
    return _("P{n}").format(n=seat + 1)


def piece_at(name: str, step: int) -> str:
    return f"{name} {step}"


def runner_at(step: int) -> str:
    return _("runner {step}").format(step=step)


def column_title(column: int, height: int | None) -> str:
    # TRANSLATORS: {height} is how many squares the column has.
    if height:
        return _("Column {column} ({height})").format(column=column, height=height)
    return _("Column {column}").format(column=column)


def no_column(column: int) -> str:
    return _("no column {column}").format(column=column)


#: Fixed words the renderer draws.
SCREEN = {
    "cant_stop": N_("can't stop"),
    "cant_stop_colon": N_("can't stop:"),
    # TRANSLATORS: two short lines beside the big percentage: 'bust if you' / 'roll again'.
    "bust_if": (NP_("move screen", "bust if you"), NP_("move screen", "roll again")),
    "board": NP_("top bar", "board"),
    "board_title": NP_("title", "Board"),
    "game_over": NP_("top bar", "game over"),
    "game_over_title": N_("Game over"),
    "no_pieces": N_("no pieces"),
    "wins": N_("Wins"),
    "no_games": N_("No games yet"),
    # TRANSLATORS: two lines in large letters: 'Safe to' / 'unplug'.
    "safe": (N_("Safe to"), N_("unplug")),
}


# -- one language --------------------------------------------------------------


@functools.cache
def language(lang: str) -> i18n.Bound:
    """This module's formatters and tables speaking ``lang`` ("en", "ja", "ko"); made once per language."""
    return i18n.Bound(sys.modules[__name__], i18n.check(lang))
