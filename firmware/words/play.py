"""Words of the game itself: the pairings, hints, a turn, a stop, a bust, an undo, the end."""

from __future__ import annotations

from engine import Decision, GameState, Move, Pairing, Phase, Roll, Rules, Stop

from ..i18n import N_
from .marks import _, ngettext, pgettext


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


def decision_text(action: Decision, rolled: bool) -> str:
    """A hint's roll or stop: "Stop", "Roll" (a turn's first roll) or "Roll again"."""
    # TRANSLATORS: what the strong player would do.
    if action is Decision.STOP:
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
    """Why the hint advises what it does, from :class:`firmware.table.bot.HintFacts`: one or two sentences."""
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
    """A box seat's bust: its runners never went on the board, so the table has nothing to do."""
    return (_("Board: nothing to do."), _("No runner was placed."))


def squares(steps: dict[int, int], empty: str | None = None) -> str:
    """Column:square pairs on one line, e.g. ``5:1  9:off``."""
    if empty is None:
        # TRANSLATORS: a marker not on the board, as in 7:off.
        empty = pgettext("marker", "off")
    return "  ".join(f"{c}:{s or empty}" for c, s in steps.items())


def stop_lines(name: str, runners: dict[int, int], claims: list[tuple[int, list[str]]],
               box: bool = False, mover: str | None = None) -> tuple[str, ...]:
    """A stop: where the markers go; per claimed column, whose markers come off.

    A box seat's stop names who moves its markers: ``mover``, the person whose turn is next,
    or someone when the box plays next too.
    """
    if not box:
        # TRANSLATORS: followed by a line like 7:3  8:2 (column:square).
        first = _("{name} markers to:").format(name=name)
    elif mover is not None:
        # TRANSLATORS: a box seat stopped: {mover} (the person who plays next) moves {name}'s markers;
        # followed by a line like 7:3  8:2 (column:square).
        first = _("{mover} moves {name} to:").format(mover=mover, name=name)
    else:
        # TRANSLATORS: a box seat stopped and the box plays next too: anyone at the table moves {name}'s markers.
        first = _("Someone moves {name} to:").format(name=name)
    lines = [first, squares(runners)]
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
    "update": (N_("Update undone"), ()),  # the updater went back to this version (docs/update.md)
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
