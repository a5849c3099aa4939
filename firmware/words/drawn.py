"""Numbers, and the words the renderer draws around the views' own texts."""

from __future__ import annotations

from ..i18n import N_, NP_
from .marks import _, ngettext, pgettext


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
    """A box seat's runner, said only: nobody moves it on the board until its stop (the move screen says so).

    Where it is, never a verb: beside "Board: as is" an instruction ("climbs to 1") said the opposite.
    """
    # TRANSLATORS: a box seat's runner, where it is, said and not placed (no verb: nobody moves it);
    # at most 17 characters with a two-digit square.
    return (_("at {step}: TOP!") if top else _("at {step}")).format(step=step)


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
    """Beside a box seat's move: what the table does on the board (nothing: the box's runners are said,
    never placed; its stop says where its markers go), and what the box does next."""
    # TRANSLATORS: two short lines beside the bust chance of a box seat's move; {action} is ROLL or STOP.
    return _("Board: as is"), _("next: {action}").format(action=action.upper())


def bust_status(p: float | None) -> str:
    # TRANSLATORS: {percent} is like 23.9%.
    return _("bust {percent}").format(percent=percent(p)) if p is not None else pgettext("top bar", "hint")


def win_heading(player: str | None) -> str:
    # a name is shown as typed, never in capitals ("ANNの勝ち!" was not how Ann writes it)
    return _("GAME OVER") if player is None else _("{name} WINS!").format(name=player)


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
    # TRANSLATORS: one word beside the big percentage, where 'bust if you' / 'roll again' does not fit.
    # The glossary's word for bust: 8 Latin letters or 5 Japanese or Korean characters at most.
    "bust_word": NP_("move screen", "bust"),
    "board": NP_("top bar", "board"),
    "board_title": NP_("title", "Board"),
    "game_over": NP_("top bar", "game over"),
    "game_over_title": N_("Game over"),
    "no_pieces": N_("no pieces"),
    "wins": N_("Wins"),
    "no_games": N_("No games yet"),
    # TRANSLATORS: two lines in large letters: 'Safe to' / 'unplug'.
    "safe": (N_("Safe to"), N_("unplug")),
    # TRANSLATORS: the same in one line, on the 32-row screen (16 letters at most, 10 Japanese or Korean).
    "safe_line": N_("Safe to unplug"),
}
