"""Every word the box shows, one formatter per kind of thing.

Neither the UI (:mod:`firmware.ui`) nor the renderer (:mod:`firmware.screens`)
spells out a word itself: a flash, a legend, an instruction for the board,
the text of a pairing, a chance or a status in the top bar all come from
here, so one change (or one translation) reaches every screen that shows
it. Names are the seats' display names (a player's name from the roster, else
the seat's colour), passed in as strings.
"""

from __future__ import annotations

from engine import GameState, Move, Pairing, Phase, Roll, Rules, Stop

# -- short notes over the top line (until the next press) ----------------------

FLASH = {
    "new_game": "ROLL: new game",
    "confirm_keys": "C: yes  MENU: no",
    "roll_first": "Press ROLL to roll",
    "choose": "Choose A, B or C",
    "risky_stop": "Risky: can't stop",
    "roll_or_stop": "ROLL or STOP",
    "which_column": "A or B: which column",
    "nothing_to_undo": "Nothing to undo",
    "game_over": "Game is over",
    "dice_stay": "Dice stay rolled",
    "box_moves_stay": "Box moves stay",
    "set_board": "Set the board like this",
}


def cannot_move(label: str) -> str:
    return f"{label} cannot move"


def not_saved(message: str) -> str:
    return f"NOT SAVED: {message}"


# -- the bottom line: what the buttons do now ------------------------------------

KEYS = {
    "setup": "A/B:move C:change ROLL:start",
    "confirm": "C:yes MENU:no",
    "turn": "ROLL:roll MENU:menu",
    "box_turn": "ROLL:faster MENU:menu",
    "choose": "A B C:choose",
    "box_ok": "ROLL:faster MENU:menu",
    "box_next": "ROLL:box plays",
    "roll_or_stop": "ROLL:roll STOP:stop",
    "roll": "ROLL:roll",
    "page": "A/B:page ROLL:next",
    "done": "ROLL:done",
    "see_winner": "ROLL:see the winner",
    "stats": "A/B:page MENU:menu",
    "recap": "ROLL:back MENU:menu",
    "back": "MENU:menu",
    "pick": "A/B:pick STOP:back",
    "board": "A/B:col C:+4 ROLL:game",
    "hint": "ROLL:ok MENU:menu",
}


def next_turn_key(name: str) -> str:
    """The one press that ends a handover: the next player's dice are rolled."""
    return f"ROLL:{name} rolls"


# -- titles and fixed screens --------------------------------------------------

NEW_GAME = "New game"
MENU = "Menu"
CONFIRM_NEW = ("New game?", ("This game will end", "(it stays in history)."))
NO_GAME = ("No game", ("ROLL: new game",))

MENU_ITEMS = {
    "back": "Back to game",
    "undo": "Undo",
    "hint": "Hint",
    "board": "Board",
    "new": "New game",
    "stats": "Statistics",
    "continue": "Continue a game",
}

CONTINUE = "Continue"
#: The name statistics give every seat the box played.
BOX_PLAYER = "Box"
NO_UNFINISHED = ("Continue", ("No unfinished games.",))
RECAP = "Recap"


def continue_item(game_id: int, names: tuple[str, ...], turns: int) -> str:
    """A game left unfinished, as the list of games to continue shows it: "12 Ann, Bob T5"."""
    return f"{game_id} {', '.join(names)} T{turns}"


def win_keys(recap: bool) -> str:
    """The win screen's legend; B opens the recap of the game."""
    return "B:recap ROLL:new MENU:menu" if recap else "ROLL:new game MENU:menu"


# -- statistics per person ---------------------------------------------------

#: The recap's column headings: turns, busts, biggest turn (squares climbed).
RECAP_HEADINGS = ("turn", "bust", "best")


def recap_status(rounds: int) -> str:
    return count(rounds, "round", "rounds")


def person_rows(games: int, wins: int, win_rate: float | None, busts_per_turn: float | None,
                solo: dict[int, tuple[int, float]]) -> tuple[tuple[str, str], ...]:
    """One person's statistics as (label, value) rows; ``solo``: columns -> (best, average) turns of solitaire wins."""
    rows = [("Games", str(games)), ("Wins", f"{wins} ({win_rate:.0%})" if win_rate is not None else str(wins))]
    rows.append(("Busts a turn", f"{busts_per_turn:.2f}" if busts_per_turn is not None else "-"))
    for columns in sorted(solo):
        best, average = solo[columns]
        rows.append((f"{columns} col solo best", str(best)))
        rows.append((f"{columns} col solo avg", f"{average:.1f}"))
    return tuple(rows)


def page_of(page: int, pages: int) -> str:
    return f"{page}/{pages}"


def setup_row(key: str, value) -> tuple[str, str]:
    """(label, value) of a new-game row; ``value`` is the row's raw value."""
    if key == "players":
        return "Players", str(value)
    if key.startswith("colour"):
        return f"P{int(key[6:]) + 1} colour", value
    if key.startswith("name"):
        return f"P{int(key[4:]) + 1} name", value or "-"
    if key.startswith("plays"):
        return f"P{int(key[5:]) + 1} plays", "box" if value else "person"
    if key == "first":
        return "Starts", value
    if key == "win":
        return "To win", f"{value} col" + ("s" if value > 1 else "")
    if key in ("speedy", "risky"):
        return key.capitalize(), "on" if value else "off"
    return "Start game", ""


# -- the dice: one text per pairing, the same on the dice screen and in hints --


def option_text(p: Pairing) -> tuple[str, str]:
    """(effect, text) of a pairing: what choosing it moves, as the dice screen draws it."""
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
    if action == "stop":
        return "Stop"
    return "Roll" if g.phase is Phase.ROLL else "Roll again"


# -- hints: the numbers behind the advice, in plain words ------------------------


def whole_percent(p: float) -> str:
    """A chance as a whole percentage for a sentence: "74%", never "0%" above zero nor "100%" below one."""
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 <= p < 1:
        return "over 99%"
    return f"{round(p * 100)}%"


def hint_reason(facts) -> tuple[str, ...]:
    """Why the hint advises what it does, from :class:`firmware.bots.HintFacts`: one or two sentences."""
    bust = whole_percent(facts.bust)
    kind = facts.kind
    if kind == "move":
        return (f"After {'+'.join(map(str, facts.sums))} the next roll busts {bust} of the time.",)
    if kind == "start":
        return ("Roll to start your turn.",)
    if kind == "must_roll":
        return ("Risky: you may not stop now.", f"Rolling busts {bust} of the time.")
    if kind == "win":
        return ("Stopping now wins the game!",)
    if kind == "chances":
        return (f"Rolling again wins {whole_percent(facts.roll_win)} of games like this, "
                f"stopping {whole_percent(facts.stop_win)}.",)
    if kind == "turns":
        choice = "Rolling again" if facts.roll else "Stopping"
        return (f"{choice} saves {facts.saved_turns:.1f} turns on average.",)
    if facts.roll:
        return (f"Rolling busts {bust} of the time.",)
    return (f"Stopping keeps {count(facts.at_risk, 'square', 'squares')}; rolling busts {bust}.",)


# -- the turn ------------------------------------------------------------------


def opening_note(names: tuple[str, ...], first: str, rules: Rules, box_average: float | None) -> tuple[str, ...]:
    """Shown as a game's first turn starts: who starts and the variants; for solitaire, the goal."""
    if len(names) > 1:
        return (f"{first} starts.",) + rules_note(rules)
    k = rules.columns_to_win
    lines = (f"Claim {k} column{'s' if k > 1 else ''} in as", "few turns as you can.")
    if box_average is not None:
        lines += (f"Box average: {box_average:.1f} turns.",)
    return lines


def previous_turn_note(who: str, last) -> tuple[str, ...]:
    """Shown as the next turn starts: how the previous one ended."""
    if isinstance(last, Stop):
        return (f"{who} stopped.",)
    if isinstance(last, Roll):
        return (f"{who} bust.",)
    return ()


def rules_note(rules: Rules) -> tuple[str, ...]:
    """The variants in force, said once as the game starts (nothing for the standard game)."""
    parts = []
    if rules.columns_to_win != 3:
        parts.append(f"{rules.columns_to_win} to win")
    parts += [name for name, on in (("speedy", rules.speedy), ("risky", rules.risky)) if on]
    return (f"Rules: {', '.join(parts)}.",) if parts else ()


def risky_note(conflicts: list[tuple[int, list[str]]]) -> str:
    """Why the risky variant forbids a stop now: every runner sharing a square, and with whom."""
    if not conflicts:
        return "Risky: roll again"
    if len(conflicts) == 1 and len(conflicts[0][1]) == 1:
        column, (owner,) = conflicts[0]
        return f"Risky: {column} shares with {owner}"
    return "Risky: " + ", ".join(f"{column} {' '.join(owners)}" for column, owners in conflicts)


# -- after a stop, a bust, an undo ---------------------------------------------


def handover_title(name: str, bust: bool) -> str:
    return f"{name} busts" if bust else f"{name} stops"


def bust_big(dice) -> str:
    return "BUST! " + " ".join(map(str, dice))


def bust_lines(had_runners: bool) -> tuple[str, ...]:
    return ("Take the runners off.", "Markers stay.") if had_runners else ("No move possible.",)


def box_bust_lines() -> tuple[str, ...]:
    """A box seat's bust: its runners never went on the board, so there is nothing to do."""
    return ("Nothing to move.", "Markers stay.")


def squares(steps: dict[int, int], empty: str = "off") -> str:
    """Column:square pairs on one line, e.g. ``5:1  9:off``."""
    return "  ".join(f"{c}:{s or empty}" for c, s in steps.items())


def stop_lines(name: str, runners: dict[int, int], claims: list[tuple[int, list[str]]]) -> tuple[str, ...]:
    """A stop: where the markers go; per claimed column, whose markers come off."""
    lines = [f"{name} markers to:", squares(runners)]
    for column, off in claims:
        lines.append(f"{name} claims {column}!")
        if off:
            lines.append(f"Take off {column}: " + ", ".join(off) + ".")
    return tuple(lines)


def undone_title(event) -> str:
    if isinstance(event, Move):
        return "Undone: move " + "+".join(map(str, event.sums))
    if isinstance(event, Stop):
        return "Undone: stop"
    return "Undone: roll"


def undo_move_lines(columns: dict[int, int]) -> tuple[str, ...]:
    """Taking back a move: each runner back to ``step`` (0: off the board)."""
    lines = [f"{c}: runner back to {s}." if s else f"Take runner off {c}." for c, s in columns.items()]
    return tuple(lines) + ("Same dice: pick again",)


def undo_stop_lines(name: str, runners: dict[int, int], markers: dict[int, int],
                    refill: list[tuple[int, list[str]]]) -> tuple[str, ...]:
    """Taking back a stop: runners back on, markers back, claimed columns refilled."""
    lines = ["Runners back on:", squares(runners), f"{name} markers back to:", squares(markers)]
    for column, back in refill:
        lines.append(f"Put back on {column}: " + ", ".join(back) + ".")
    return tuple(lines) + (f"{name} decides again.",)


# -- notices at start ---------------------------------------------------------

_NOTICES = {
    "reset": ("Saved games reset", ()),
    "unreadable": ("Saved game unreadable", ()),
    "damaged": ("Saved game damaged", ("It stays in history.",)),
}


def notice(kind: str, detail: str) -> tuple[str, tuple[str, ...]]:
    """(title, lines) of a notice the box shows as it starts, e.g. a damaged saved game."""
    title, after = _NOTICES[kind]
    return title, (detail,) + after


# -- the end -------------------------------------------------------------------


def nobody_can_win(columns_to_win: int) -> str:
    return f"Nobody can claim {columns_to_win} columns any more."


def practice_result(turns: int, box_average: float) -> tuple[str, ...]:
    """Solitaire practice: the player's turns against the box's own average."""
    verdict = "You beat the box!" if turns < box_average else "The box is quicker."
    return (f"{turns} turn{'s' if turns > 1 else ''}, box avg {box_average:.1f}", verdict)


# -- numbers -------------------------------------------------------------------


def percent(p: float) -> str:
    """An exact chance as a short percentage: "23.9%", never "0.0%" for a chance above zero."""
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
    """"1 game", "3 games"."""
    return f"{n} {one if n == 1 else many}"


# -- what the renderer draws around the views' own texts ---------------------------


def runner_step(step: int, new: bool, top: bool, jumped: tuple[int, ...] = ()) -> str:
    """The physical instruction for one runner, without its column: "new runner on 1"."""
    if jumped:  # speedy: say which squares it jumped, or the box looks wrong
        verb = "new on" if new else "up to"
        return f"{verb} {step} past {ranges(jumped)}"
    if top:
        return f"new on {step}: TOP!" if new else f"up to {step}: TOP!"
    return f"new runner on {step}" if new else f"runner up to {step}"


def box_runner_step(step: int, top: bool) -> str:
    """A box seat's runner, said only: nobody moves it on the board until its stop."""
    return f"climbs to {step}: TOP!" if top else f"climbs to {step}"


def who(player: str, bot: bool) -> str:
    """The name in the top bar: the colour, marked when the box plays it."""
    return f"{player} (bot)" if bot else player


def turn_status(turn: int, short: bool = False) -> str:
    """The round being played (every player's turn once), as ``history`` counts rounds."""
    return f"R{turn}" if short else f"round {turn}"


def turn_heading(player: str, bot: bool) -> str:
    return f"{player} (bot)" if bot else f"{player}'s turn"


def dice_status(bot: bool, chosen: str | None) -> str:
    if bot:
        return f"box: {chosen}" if chosen else "box plays"
    return "choose"


def pick_question(label: str) -> str:
    return f"{label} moves one: which?"


def free_runners(n: int) -> str:
    return f"{n} free"


def bot_will(action: str) -> tuple[str, str]:
    return "box will", action.upper()


def bust_status(p: float | None) -> str:
    return f"bust {percent(p)}" if p is not None else "hint"


def win_heading(player: str | None) -> str:
    return "GAME OVER" if player is None else f"{player.upper()} WINS!"


def win_claims(player: str | None, claims: tuple[int, ...], turns: int) -> str:
    if claims:
        return "claimed " + " ".join(map(str, claims))
    return f"after {turns} rounds" if player is None else "nobody claimed 3"


def turns_count(turns: int) -> str:
    """The rounds a finished game lasted (every player's turn once), as ``history`` counts rounds."""
    return count(turns, "round", "rounds")


def claimed_by(owner: str) -> str:
    return f"claimed by {owner}"


def seat_name(seat: int) -> str:
    """A seat with no name known (a damaged view): "P2"."""
    return f"P{seat + 1}"


def piece_at(name: str, step: int) -> str:
    return f"{name} {step}"


def runner_at(step: int) -> str:
    return f"runner {step}"


def column_title(column: int, height: int | None) -> str:
    return f"Column {column} ({height})" if height else f"Column {column} "


def no_column(column: int) -> str:
    return f"no column {column}"


#: Fixed words the renderer draws.
SCREEN = {
    "cant_stop": "can't stop",
    "cant_stop_colon": "can't stop:",
    "bust_if": ("bust if you", "roll again"),
    "board": "board",
    "board_title": "Board",
    "game_over": "game over",
    "game_over_title": "Game over",
    "no_pieces": "no pieces",
    "wins": "Wins",
    "no_games": "No games yet",
    "safe": ("Safe to", "unplug"),
}
