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

from itertools import compress
from typing import NamedTuple

from .board import COLUMNS, DISTINCT_PAIRS, DISTINCT_ROLLS, PAIRING_LABELS, RUNNERS, TOP, pairing_sums
from .errors import GameOverError, IllegalEventError
from .events import Move, Roll, Stop
from .state import EMPTY_RUNNERS, GameState, Phase

_ROLL, _MOVE, _DECIDE, _OVER = Phase.ROLL, Phase.MOVE, Phase.DECIDE, Phase.OVER
# GameState is a NamedTuple: building it with tuple.__new__ skips a Python-level
# __new__ frame on the hot path (the fields are given in declaration order).
_new = tuple.__new__
_SLOTS = range(13)  # with compress(_SLOTS, runners): the columns that have a runner

# One shared Move per possible effect, so legal-move lists allocate nothing.
# Each effect also has a small code (1..77) so that what a roll's pairings
# found can be keyed by one integer.
_MOVE_OF: dict[tuple[int, ...], Move] = {}
_CODE_OF: dict[tuple[int, ...], int] = {}
_SUMS_OF_CODE: list[tuple[int, ...]] = [()]
for _a in COLUMNS:
    for _sums in [(_a,)] + [(_a, _b) for _b in COLUMNS if _a <= _b]:
        _MOVE_OF[_sums] = Move(_sums)
        _CODE_OF[_sums] = len(_SUMS_OF_CODE)
        _SUMS_OF_CODE.append(_sums)
del _a, _sums

# Per ordered roll, its distinct pairings (a <= b) with the codes of the
# effects each can have: both sums, only a, only b.
_CODES_OF_PAIRS = {
    id(pairs): tuple((a, b, _CODE_OF[(a, b)], _CODE_OF[(a,)], _CODE_OF[(b,)]) for a, b in pairs)
    for _, _, pairs in DISTINCT_ROLLS
}
_PAIR_CODES: dict[tuple[int, int, int, int], tuple[tuple[int, int, int, int, int], ...]] = dict(
    zip(DISTINCT_PAIRS, map(_CODES_OF_PAIRS.__getitem__, map(id, DISTINCT_PAIRS.values())))
)
del _CODES_OF_PAIRS

# What a roll's pairings found (codes in pairing order, 7 bits each) to the
# sorted, de-duplicated legal moves. Bounded and small: a key is what at most
# three pairings of one of the 126 distinct rolls found, each one of five
# results (nothing, both, a, b, a or b), so fewer than 126 * 5**3 keys can
# ever exist (a few thousand occur).
_MOVES_OF: dict[int, tuple[Move, ...]] = {}


def _moves_of(key: int) -> tuple[Move, ...]:
    codes = set()
    while key:
        codes.add(key & 127)
        key >>= 7
    return tuple(_MOVE_OF[sums] for sums in sorted(_SUMS_OF_CODE[c] for c in codes))


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
        first = _next_step(state, a, base)
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
    """The hot path of every roll: the legal moves of ``dice`` (:func:`_pair_moves` inlined)."""
    phase = state.phase
    if phase is _ROLL:
        free = RUNNERS  # a turn starts: every runner is free
    elif phase is _DECIDE:
        free = state.free_runners
    elif phase is _MOVE:
        raise IllegalEventError("a roll cannot come now: the dice are out, choose a move first")
    else:
        raise GameOverError(_over_message(state))
    runners = state.runners
    claimed = state.claimed
    key = 0
    try:
        pairs = _PAIR_CODES[dice]
    except (KeyError, TypeError):
        raise IllegalEventError(f"dice must be four whole numbers 1 to 6, not {dice!r}") from None
    for a, b, both, only_a, only_b in pairs:
        ra = runners[a]
        movable_a = claimed[a] < 0 and ra < TOP[a] and (ra or free)
        if a == b:
            if movable_a:  # a double climbs two squares unless the first step reaches the top
                base = ra or state.markers[state.current][a]
                first = _next_step(state, a, base) if state.rules.speedy else base + 1
                key = key << 7 | (both if first < TOP[a] else only_a)
            continue
        rb = runners[b]
        movable_b = claimed[b] < 0 and rb < TOP[b] and (rb or free)
        if movable_a:
            if movable_b:
                if (not ra) + (not rb) <= free:
                    key = key << 7 | both
                else:  # two new runners needed, one free: the player picks
                    key = (key << 7 | only_a) << 7 | only_b
            else:
                key = key << 7 | only_a
        elif movable_b:
            key = key << 7 | only_b
    if not key:  # bust: the runners come off, the markers stay, play passes on
        return _pass_turn(state, state.markers, claimed)
    moves = _MOVES_OF.get(key)
    if moves is None:
        moves = _MOVES_OF[key] = _moves_of(key)
    return _new(GameState, (
        state.players,
        state.rules,
        state.current,
        _MOVE,
        dice,
        moves,
        runners,
        state.markers,
        claimed,
        None,
        state.turn,
    ))


def _move(state: GameState, move: Move) -> GameState:
    if state.phase is not _MOVE:
        if state.phase is _OVER:
            raise GameOverError(_over_message(state))
        raise IllegalEventError("a move must come right after a roll")
    for legal_move in state.moves:  # identity first: legal moves are shared objects
        if legal_move is move:
            break
    else:
        if move not in state.moves:
            _refuse_move(state, move)
    runners = list(state.runners)
    own = state.markers[state.current]
    if state.rules.speedy:
        for s in move.sums:
            runners[s] = _next_step(state, s, runners[s] or own[s])
    else:
        for s in move.sums:
            runners[s] = (runners[s] or own[s]) + 1
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


def _refuse_move(state: GameState, move: Move):
    legal = ", ".join(_sums_text(m) for m in state.moves)
    raise IllegalEventError(
        f"move {_sums_text(move)} is not legal for dice {list(state.dice)}; legal moves: {legal}"
    )


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
    for c in compress(_SLOTS, runners):  # the columns with a runner
        r = own[c] = runners[c]
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
    free = state.free_runners
    out = []
    for label, (a, b) in zip(PAIRING_LABELS, pairing_sums(state.dice)):
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
