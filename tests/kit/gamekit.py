"""Shared helpers for the engine tests: play events, find dice, a reference model, random games.

Imported by the test modules of ``tests/engine`` (and by its ``conftest.py`` for the
fixtures). The reference model below is written from RULES.md alone, move by
move and step by step, so the engine's table-driven fast path is checked
against a second, deliberately plain reading of the rules.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import engine
from engine import (
    ALL_ROLLS,
    COLUMNS,
    HEIGHTS,
    STOP,
    GameOverError,
    GameState,
    IllegalEventError,
    Move,
    Phase,
    Record,
    Roll,
    Rules,
    apply,
    can_stop,
    new_game,
    state_view,
)

NAMES = ("Red", "Blue", "Green", "Yellow")

# Property tests run a moderate number of games in `make test`; the soak
# profile (behind @pytest.mark.slow) runs many more.
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOAK = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- playing events ---------------------------------------------------------


def play(players=2, events=(), rules: Rules | None = None, state: GameState | None = None) -> GameState:
    """The state after applying ``events`` to a new game (or to ``state``).

    ``players`` is a count (names taken from NAMES) or a list of names.
    """
    if state is None:
        names = NAMES[:players] if isinstance(players, int) else players
        state = new_game(names, rules)
    for event in events:
        state = apply(state, event)
    return state


def dice_for(state: GameState, move: Move) -> tuple[int, int, int, int]:
    """The first roll (in ALL_ROLLS order) after which ``move`` is legal."""
    for dice in ALL_ROLLS:
        after = apply(state, Roll(dice))
        if after.phase is Phase.MOVE and move in after.moves:
            return dice
    raise AssertionError(f"no roll allows {move} in {state}")


def advance(state: GameState, *moves: Move) -> GameState:
    """Roll dice that allow each move in turn and make it (all in the current turn)."""
    for move in moves:
        state = apply(apply(state, Roll(dice_for(state, move))), move)
    return state


def take_turn(state: GameState, *moves: Move) -> GameState:
    """The current player makes ``moves`` (rolling suitable dice for each) and stops."""
    return apply(advance(state, *moves), STOP)


def bust_roll(state: GameState) -> tuple[int, int, int, int]:
    """The first roll that busts in ``state``."""
    for dice in ALL_ROLLS:
        if rolls_bust(state, dice):
            return dice
    raise AssertionError(f"no roll busts in {state}")


def rolls_bust(state: GameState, dice) -> bool:
    """Whether rolling ``dice`` now busts: the turn passes straight back to phase ROLL."""
    return apply(state, Roll(dice)).phase is Phase.ROLL


def brute_force_bust_count(state: GameState) -> int:
    """How many of the 1,296 rolls bust when applied to ``state`` (which must allow a roll)."""
    return sum(rolls_bust(state, dice) for dice in ALL_ROLLS)


def raises_illegal(state: GameState, event) -> IllegalEventError | None:
    """The IllegalEventError that applying ``event`` raises, or None if it is accepted."""
    try:
        apply(state, event)
    except IllegalEventError as err:
        return err
    return None


# -- a plain reference model of RULES.md ------------------------------------


def three_pairings(dice) -> list[tuple[int, int]]:
    """Rule 2: (d1+d2, d3+d4), (d1+d3, d2+d4), (d1+d4, d2+d3)."""
    d1, d2, d3, d4 = dice
    return [(d1 + d2, d3 + d4), (d1 + d3, d2 + d4), (d1 + d4, d2 + d3)]


def ref_step(state: GameState, column: int, step: int) -> int:
    """Rule 5 (and the speedy variant): the square one step above ``step``."""
    step += 1
    if state.rules.speedy:
        others = {state.markers[p][column] for p in range(len(state.players)) if p != state.current}
        while step < HEIGHTS[column] and step in others:
            step += 1
    return step


def ref_take_step(state: GameState, runners: dict[int, int], column: int) -> bool:
    """Advance ``column`` by one step in ``runners`` if the rules allow it (rules 3, 5, 6)."""
    if state.claimed[column] >= 0:
        return False
    if column in runners:
        if runners[column] >= HEIGHTS[column]:
            return False
        runners[column] = ref_step(state, column, runners[column])
        return True
    if len(runners) >= 3:
        return False
    runners[column] = ref_step(state, column, state.markers[state.current][column])
    return True


def ref_moves(state: GameState, dice) -> list[tuple[int, ...]]:
    """Rule 4: the legal moves of ``dice`` as sorted sums tuples, sorted, without repeats."""
    runners = state.runner_steps()
    found = set()
    for a, b in three_pairings(dice):
        both = dict(runners)
        if ref_take_step(state, both, a) and ref_take_step(state, both, b):
            found.add(tuple(sorted((a, b))))  # both move; dropping one is not allowed
            continue
        for s in {a, b}:
            if ref_take_step(state, dict(runners), s):
                found.add((s,))
    return sorted(found)


def ref_runners_after(state: GameState, sums) -> dict[int, int]:
    runners = state.runner_steps()
    for s in sums:
        assert ref_take_step(state, runners, s), f"reference model cannot move {s}"
    return runners


@dataclass(frozen=True)
class StopResult:
    markers: list[dict[int, int]]
    claimed: dict[int, int]
    winner: int | None


def ref_stop(state: GameState) -> StopResult:
    """Rule 9 and claiming: runners become the player's markers; topped runners claim."""
    cur = state.current
    markers = [state.marker_steps(p) for p in range(len(state.players))]
    claimed = state.claimed_columns()
    for column, step in state.runner_steps().items():
        markers[cur][column] = step
        if step == HEIGHTS[column]:
            claimed[column] = cur
            for p in range(len(state.players)):
                if p != cur:
                    markers[p].pop(column, None)
    won = sum(1 for owner in claimed.values() if owner == cur) >= state.rules.columns_to_win
    return StopResult(markers, dict(sorted(claimed.items())), cur if won else None)


def someone_can_still_win(state: GameState) -> bool:
    open_columns = sum(1 for c in COLUMNS if state.claimed[c] < 0)
    need = state.rules.columns_to_win
    return any(len(state.claims_of(p)) + open_columns >= need for p in range(len(state.players)))


def ref_outcome(state: GameState) -> tuple[bool, int | None]:
    """(ended, winner): a won game (phase OVER), or a turn starting when nobody can reach the goal."""
    if state.phase is Phase.OVER:
        return True, state.winner
    if state.phase is Phase.ROLL and not someone_can_still_win(state):
        return True, None
    return False, None


def ref_stop_claims(state: GameState) -> list[int]:
    """The columns a stop in phase DECIDE would newly claim, from the reference stop."""
    if state.phase is not Phase.DECIDE:
        return []
    claimed = ref_stop(state).claimed
    return sorted(c for c, owner in claimed.items() if state.claimed[c] < 0 and owner == state.current)


def ref_jumped(before: GameState, after: GameState, column: int) -> list[int]:
    """Speedy: the squares strictly between the piece's start and its runner now that other markers hold."""
    if not before.rules.speedy:
        return []
    start = before.runners[column] or before.markers[before.current][column]
    others = {before.markers[p][column] for p in range(len(before.players)) if p != before.current}
    return [sq for sq in range(start + 1, after.runners[column]) if sq in others]


def check_transition(before: GameState, event, after: GameState) -> None:
    """``after`` is what the reference model says ``event`` does to ``before``."""
    n = len(before.players)
    cur = before.current
    assert after.players == before.players and after.rules == before.rules
    if isinstance(event, Roll):
        expected = ref_moves(before, event.dice)
        if not expected:  # bust
            assert after.phase is Phase.ROLL and after.current == (cur + 1) % n
            assert after.runner_steps() == {}
            assert after.markers == before.markers and after.claimed == before.claimed
            assert after.turn == before.turn + 1 and after.dice is None and after.moves == ()
        else:
            assert after.phase is Phase.MOVE and after.current == cur and after.turn == before.turn
            assert after.dice == event.dice
            assert [m.sums for m in after.moves] == expected
            assert after.runners == before.runners and after.markers == before.markers
            assert after.claimed == before.claimed
    elif isinstance(event, Move):
        assert after.phase is Phase.DECIDE and after.current == cur and after.turn == before.turn
        assert after.runner_steps() == ref_runners_after(before, event.sums)
        assert after.markers == before.markers and after.claimed == before.claimed
        assert after.dice is None and after.moves == ()
    else:
        result = ref_stop(before)
        assert [after.marker_steps(p) for p in range(n)] == result.markers
        assert after.claimed_columns() == result.claimed
        assert after.runner_steps() == {}
        if result.winner is not None:
            assert after.phase is Phase.OVER and after.winner == cur and after.current == cur
        else:  # no draw in the rules: play passes on even when nobody can still win
            assert after.phase is Phase.ROLL and after.winner is None
            assert after.current == (cur + 1) % n and after.turn == before.turn + 1


def check_invariants(state: GameState) -> None:
    """What must hold in every state of every game."""
    assert engine.nobody_can_win(state) == (not someone_can_still_win(state))
    n = len(state.players)
    cur = state.current
    runners = state.runner_steps()
    assert len(runners) <= 3
    assert state.free_runners == 3 - len(runners)
    assert 0 <= cur < n and state.turn >= 1
    for column, step in runners.items():
        assert step <= HEIGHTS[column], f"runner above the top of {column}"
        assert step > state.markers[cur][column], f"runner on {column} not above the marker"
        assert state.claimed[column] < 0, f"runner in claimed column {column}"
    for p in range(n):
        for column, step in state.marker_steps(p).items():
            assert 1 <= step <= HEIGHTS[column], f"marker of {p} off the column {column}"
            if step == HEIGHTS[column]:
                assert state.claimed[column] == p, f"marker of {p} on top of unclaimed {column}"
    for column, owner in state.claimed_columns().items():
        assert 0 <= owner < n
        assert state.markers[owner][column] == HEIGHTS[column]
        assert all(state.markers[p][column] == 0 for p in range(n) if p != owner)
    sums = [m.sums for m in state.moves]
    assert sums == sorted(set(sums)), "moves not sorted or repeated"
    if state.phase is Phase.MOVE:
        assert state.moves and state.dice is not None
        assert all(list(m.sums) == sorted(m.sums) for m in state.moves)
    else:
        assert state.moves == () and state.dice is None
    if state.phase is Phase.ROLL:
        assert runners == {}
    if state.phase is Phase.OVER:
        assert runners == {}
        if state.winner is not None:
            assert state.winner == cur
            assert len(state.claims_of(cur)) >= state.rules.columns_to_win
    else:
        assert state.winner is None
        assert all(len(state.claims_of(p)) < state.rules.columns_to_win for p in range(n))


VIEW_KEYS = [
    "players", "current", "phase", "dice", "moves", "runners",
    "markers", "claimed", "winner", "can_stop", "bust_chance",
]


def _ascending_columns(mapping: dict) -> bool:
    keys = list(mapping)
    return all(isinstance(k, str) for k in keys) and [int(k) for k in keys] == sorted(int(k) for k in keys)


def check_view(state: GameState) -> dict:
    """The state view follows CONTRACT.md and agrees with the state; returns the view."""
    view = state_view(state)
    assert list(view)[: len(VIEW_KEYS)] == VIEW_KEYS
    assert json.loads(json.dumps(view)) == view, "view is not plain JSON"
    phase = view["phase"]
    assert phase == state.phase.value
    assert view["players"] == list(state.players) and view["current"] == state.current
    if phase == "move":
        assert view["dice"] == list(state.dice)
        assert view["moves"] and view["moves"] == sorted(view["moves"])
        assert all(m == sorted(m) for m in view["moves"])
        assert len({tuple(m) for m in view["moves"]}) == len(view["moves"])
    else:
        assert view["dice"] is None and view["moves"] == []
    for mapping in [view["runners"], view["claimed"], *view["markers"]]:
        assert _ascending_columns(mapping)
    assert view["runners"] == {str(c): s for c, s in state.runner_steps().items()}
    assert view["claimed"] == {str(c): p for c, p in state.claimed_columns().items()}
    assert len(view["markers"]) == len(state.players)
    for column, owner in view["claimed"].items():
        assert view["markers"][owner][column] == HEIGHTS[int(column)]
        assert all(column not in m for p, m in enumerate(view["markers"]) if p != owner)
    assert view["winner"] == state.winner
    stop_accepted = raises_illegal(state, STOP) is None
    assert view["can_stop"] is stop_accepted is can_stop(state)
    if phase in ("roll", "decide"):
        assert isinstance(view["bust_chance"], float) and 0.0 <= view["bust_chance"] <= 1.0
        assert view["bust_chance"] == round(view["bust_chance"], 4)
    else:
        assert view["bust_chance"] is None
    return view


def check_events_accepted_only_when_legal(state: GameState, rng: random.Random) -> None:
    """Each kind of event is accepted exactly when the rules allow it now."""
    phase = state.phase
    dice = rng.choice(ALL_ROLLS)
    roll_err = raises_illegal(state, Roll(dice))
    stop_err = raises_illegal(state, STOP)
    legal = set(state.moves)
    others = [Move(s) for s in [(c,) for c in COLUMNS] + [(a, b) for a in COLUMNS for b in COLUMNS if a <= b]]
    illegal_move = rng.choice([m for m in others if m not in legal])
    assert raises_illegal(state, illegal_move) is not None
    for move in legal:
        assert raises_illegal(state, move) is None
    if phase is Phase.OVER:
        assert isinstance(roll_err, GameOverError) and isinstance(stop_err, GameOverError)
        assert isinstance(raises_illegal(state, illegal_move), GameOverError)
        return
    assert (roll_err is None) == (phase in (Phase.ROLL, Phase.DECIDE))
    if phase is not Phase.DECIDE:
        assert stop_err is not None
    elif not state.rules.risky:
        assert stop_err is None


# -- random games -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    before: GameState
    event: object
    after: GameState


def random_game(seed: int, players: int = 2, rules: Rules | None = None, max_events: int = 800):
    """Play a seeded random game; yield every Step until it is over or ``max_events`` pass.

    The dice come from the seed; the player takes a random legal move and,
    when allowed, stops with a per-game probability (some games cautious,
    some reckless), so games reach claims, busts, speedy skips and risky
    blocks.
    """
    rng = random.Random(seed)
    state = new_game(NAMES[:players], rules)
    eagerness = rng.uniform(0.15, 0.8)
    for _ in range(max_events):
        if state.phase is Phase.OVER:
            return
        if state.phase is Phase.MOVE:
            event = rng.choice(state.moves)
        elif state.phase is Phase.DECIDE and can_stop(state) and rng.random() < eagerness:
            event = STOP
        else:
            event = Roll(tuple(rng.randint(1, 6) for _ in range(4)))
        after = apply(state, event)
        yield Step(state, event, after)
        state = after


def game_events(steps) -> tuple:
    return tuple(step.event for step in steps)


def record_round_trip(players, rules: Rules, events) -> GameState:
    """Write the game as a record, through JSON text, read it back and replay it."""
    text = json.dumps(Record(tuple(players), rules, tuple(events)).to_json())
    return Record.from_json(json.loads(text)).replay()


# -- hypothesis strategies ----------------------------------------------------

rules_strategy = st.builds(
    Rules,
    columns_to_win=st.integers(1, 11),
    speedy=st.booleans(),
    risky=st.booleans(),
)
"""Any legal rules setting."""

seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(1, 4)


def sums_of(moves):
    return [m.sums for m in moves]


def illegal(state, event) -> str:
    """Apply an event the rules forbid; return the error message."""
    with pytest.raises(IllegalEventError) as info:
        apply(state, event)
    return str(info.value)
