"""Applying events to a game: the rules of a turn, busts, stops, claims, the win.

``apply(state, event)`` is pure and deterministic: the dice arrive inside the
:class:`~engine.events.Roll` event. Worked example from the rules (first roll
2,3,4,5):

>>> from engine import new_game, apply, Roll, Move
>>> s = apply(new_game(["Red", "Blue"]), Roll((2, 3, 4, 5)))
>>> [m.sums for m in s.moves]
[(5, 9), (6, 8), (7, 7)]
>>> s = apply(s, Move.of(7, 7))
>>> s.runner_steps()
{7: 2}
"""

from typing import NamedTuple

from .board import COLUMNS, DISTINCT_PAIRS, TOP, pairing_sums
from .errors import GameOverError, IllegalEventError
from .events import Move, Roll, Stop
from .state import EMPTY_RUNNERS, GameState, Phase

_ROLL, _MOVE, _DECIDE, _OVER = Phase.ROLL, Phase.MOVE, Phase.DECIDE, Phase.OVER
# GameState is a NamedTuple: building it with tuple.__new__ skips a Python-level
# __new__ frame on the hot path (the fields are given in declaration order).
_new = tuple.__new__

# One shared Move per possible effect, so legal-move lists allocate nothing.
_MOVE_OF: dict[tuple[int, ...], Move] = {}
for _a in COLUMNS:
    _MOVE_OF[(_a,)] = Move((_a,))
    for _b in COLUMNS:
        if _a <= _b:
            _MOVE_OF[(_a, _b)] = Move((_a, _b))
del _a, _b

# What a roll's pairings found (in pairing order, repeats included) to the
# sorted, de-duplicated legal moves. Bounded: at most a few thousand keys.
_MOVES_OF: dict[tuple[tuple[int, ...], ...], tuple[Move, ...]] = {}


def _next_step(state: GameState, column: int, step: int) -> int:
    """The square a piece at ``step`` reaches with one step in ``column``.

    Standard rules: one square up. Speedy variant: squares holding another
    player's marker are skipped; the top is never passed (and is always free
    in a column that is still open).
    """
    step += 1
    if not state.rules.speedy:
        return step
    top = TOP[column]
    cur = state.current
    occupied = {m[column] for i, m in enumerate(state.markers) if i != cur}
    while step < top and step in occupied:
        step += 1
    return step


def _pair_moves(state: GameState, a: int, b: int, free: int) -> list[tuple[int, ...]]:
    """The moves one pairing with sums a <= b allows, as sorted sums tuples."""
    runners = state.runners
    claimed = state.claimed
    ra = runners[a]
    movable_a = claimed[a] < 0 and ra < TOP[a] and (ra or free)
    if a == b:
        if not movable_a:
            return []
        base = ra or state.markers[state.current][a]
        first = base + 1 if not state.rules.speedy else _next_step(state, a, base)
        return [(a, a)] if first < TOP[a] else [(a,)]
    rb = runners[b]
    movable_b = claimed[b] < 0 and rb < TOP[b] and (rb or free)
    if movable_a:
        if movable_b:
            if (not ra) + (not rb) <= free:
                return [(a, b)]
            return [(a,), (b,)]  # two new runners needed, one free: the player picks
        return [(a,)]
    if movable_b:
        return [(b,)]
    return []


def _legal_moves(state: GameState, dice) -> tuple[Move, ...]:
    # The hot path of every roll: _pair_moves inlined, for speed.
    runners = state.runners
    claimed = state.claimed
    free = runners.count(0) - 10
    found = []
    for a, b in DISTINCT_PAIRS[dice]:
        ra = runners[a]
        movable_a = claimed[a] < 0 and ra < TOP[a] and (ra or free)
        if a == b:
            if movable_a:
                found += _pair_moves(state, a, b, free)
            continue
        rb = runners[b]
        movable_b = claimed[b] < 0 and rb < TOP[b] and (rb or free)
        if movable_a:
            if movable_b:
                if (not ra) + (not rb) <= free:
                    found.append((a, b))
                else:
                    found.append((a,))
                    found.append((b,))
            else:
                found.append((a,))
        elif movable_b:
            found.append((b,))
    key = tuple(found)
    moves = _MOVES_OF.get(key)
    if moves is None:
        moves = _MOVES_OF[key] = tuple(_MOVE_OF[m] for m in sorted(set(found)))
    return moves


def _pass_turn(state: GameState, markers, claimed) -> GameState:
    n = len(state.players)
    return _new(GameState, (
        state.players,
        state.rules,
        (state.current + 1) % n,
        _ROLL,
        None,
        (),
        EMPTY_RUNNERS,
        markers,
        claimed,
        None,
        state.turn + 1,
    ))


def _roll(state: GameState, dice) -> GameState:
    phase = state.phase
    if phase is not _ROLL and phase is not _DECIDE:
        if phase is _MOVE:
            raise IllegalEventError("a roll cannot come now: the dice are out, choose a move first")
        raise GameOverError(_over_message(state))
    try:
        moves = _legal_moves(state, dice)
    except (KeyError, TypeError):
        raise IllegalEventError(f"dice must be four whole numbers 1 to 6, not {dice!r}") from None
    if not moves:  # bust: the runners come off, the markers stay, play passes on
        return _pass_turn(state, state.markers, state.claimed)
    return _new(GameState, (
        state.players,
        state.rules,
        state.current,
        _MOVE,
        dice,
        moves,
        state.runners,
        state.markers,
        state.claimed,
        None,
        state.turn,
    ))


def _move(state: GameState, move: Move) -> GameState:
    if state.phase is not _MOVE:
        if state.phase is _OVER:
            raise GameOverError(_over_message(state))
        raise IllegalEventError("a move must come right after a roll")
    if move not in state.moves:
        legal = ", ".join(_sums_text(m) for m in state.moves)
        raise IllegalEventError(
            f"move {_sums_text(move)} is not legal for dice {list(state.dice)}; legal moves: {legal}"
        )
    runners = list(state.runners)
    own = state.markers[state.current]
    speedy = state.rules.speedy
    for s in move.sums:
        base = runners[s] or own[s]
        runners[s] = _next_step(state, s, base) if speedy else base + 1
    return _new(GameState, (
        state.players,
        state.rules,
        state.current,
        _DECIDE,
        None,
        (),
        tuple(runners),
        state.markers,
        state.claimed,
        None,
        state.turn,
    ))


def _stop(state: GameState) -> GameState:
    phase = state.phase
    if phase is not _DECIDE:
        if phase is _ROLL:
            raise IllegalEventError("cannot stop before rolling and moving at least once")
        if phase is _MOVE:
            raise IllegalEventError("cannot stop now: the dice are out, choose a move first")
        raise GameOverError(_over_message(state))
    if state.rules.risky and _is_risky_blocked(state):
        raise IllegalEventError(
            "cannot stop (risky variant): a runner shares a square with another player's marker; roll again"
        )
    cur = state.current
    runners = state.runners
    own = list(state.markers[cur])
    claimed = state.claimed
    new_claims = []
    for c in COLUMNS:
        r = runners[c]
        if r:
            own[c] = r
            if r == TOP[c]:
                new_claims.append(c)
    markers = list(state.markers)
    markers[cur] = tuple(own)
    if new_claims:
        claimed = list(claimed)
        for c in new_claims:
            claimed[c] = cur
            for i, m in enumerate(markers):
                if i != cur and m[c]:
                    lst = list(m)
                    lst[c] = 0
                    markers[i] = tuple(lst)
        claimed = tuple(claimed)
        if claimed.count(cur) >= state.rules.columns_to_win:
            return _finish(state, tuple(markers), claimed, cur)
    return _pass_turn(state, tuple(markers), claimed)


def _finish(state: GameState, markers, claimed, winner: int) -> GameState:
    return _new(GameState, (
        state.players,
        state.rules,
        state.current,
        _OVER,
        None,
        (),
        EMPTY_RUNNERS,
        markers,
        claimed,
        winner,
        state.turn,
    ))


def nobody_can_win(state: GameState) -> bool:
    """True when no player can reach the columns to win any more.

    Only possible with a long-game setting (e.g. 11 columns to win with two
    players, once both hold a claim). The rules know no draw, so the game
    itself goes on (every roll then busts, or can only fill the last open
    columns); the box uses this to tell the table and offer a new game.

    >>> from engine import new_game
    >>> nobody_can_win(new_game(["Red", "Blue"]))
    False
    """
    claimed = state.claimed
    open_columns = claimed.count(-1) - 2
    if open_columns == 11:  # nothing claimed yet: every goal of 1..11 columns is still open
        return False
    need = state.rules.columns_to_win
    return all(claimed.count(i) + open_columns < need for i in range(len(state.players)))


def _is_risky_blocked(state: GameState) -> bool:
    cur = state.current
    runners = state.runners
    others = [m for i, m in enumerate(state.markers) if i != cur]
    return any(r and any(m[c] == r for m in others) for c, r in enumerate(runners))


def _over_message(state: GameState) -> str:
    name = state.players[state.winner]
    if not name.isprintable():  # keep the message on one line whatever the name holds
        name = repr(name)
    return f"the game is over: {name} won"


def _sums_text(move: Move) -> str:
    return "[" + ", ".join(map(str, move.sums)) + "]"


def apply(state: GameState, event) -> GameState:
    """The state after ``event``; raises :class:`IllegalEventError` if it is not allowed now."""
    kind = type(event)
    if kind is Roll:
        return _roll(state, event.dice)
    if kind is Move:
        return _move(state, event)
    if kind is Stop:
        return _stop(state)
    raise TypeError(f"not a game event: {event!r}")


def can_stop(state: GameState) -> bool:
    """Whether a stop is legal now (after a move, and not blocked by the risky variant)."""
    if state.phase is not _DECIDE:
        return False
    return not (state.rules.risky and _is_risky_blocked(state))


def can_roll(state: GameState) -> bool:
    """Whether a roll is legal now (at the start of a turn or after a move)."""
    return state.phase is _ROLL or state.phase is _DECIDE


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """The legal moves of the pending roll (empty outside phase MOVE)."""
    return state.moves


class Pairing(NamedTuple):
    """One of the three ways to pair the dice, with what it allows now."""

    label: str
    """"A", "B" or "C", for d1+d2/d3+d4, d1+d3/d2+d4, d1+d4/d2+d3."""
    sums: tuple[int, int]
    """The two sums in dice order (not sorted)."""
    moves: tuple[Move, ...]
    """What choosing this pairing allows: () if illegal, one move, or two
    single-sum moves between which the player picks."""

    @property
    def is_legal(self) -> bool:
        return bool(self.moves)

    @property
    def needs_pick(self) -> bool:
        """True when the player must pick which one sum moves."""
        return len(self.moves) > 1


def pairings(state: GameState) -> tuple[Pairing, Pairing, Pairing]:
    """The three pairings of the pending roll in the fixed order, each with its moves.

    >>> from engine import new_game, apply, Roll
    >>> s = apply(new_game(["Red"]), Roll((4, 4, 4, 6)))
    >>> [(p.label, p.sums, [m.sums for m in p.moves]) for p in pairings(s)]
    [('A', (8, 10), [(8, 10)]), ('B', (8, 10), [(8, 10)]), ('C', (10, 8), [(8, 10)])]
    """
    if state.phase is not _MOVE:
        raise IllegalEventError("there are no dice out to pair")
    free = state.runners.count(0) - 10
    out = []
    for label, (a, b) in zip("ABC", pairing_sums(state.dice)):
        lo, hi = (a, b) if a <= b else (b, a)
        out.append(Pairing(label, (a, b), tuple(_MOVE_OF[m] for m in _pair_moves(state, lo, hi, free))))
    return tuple(out)


def step_after(state: GameState, column: int) -> int:
    """The step a runner in ``column`` would reach with one more step now.

    For a column without a runner this is where a new runner would be placed.
    Never past the top (a topped runner stays where it is); it does not say
    whether the column is movable at all (see ``state.moves``).
    """
    base = state.runners[column] or state.markers[state.current][column]
    return min(_next_step(state, column, base), TOP[column])
