"""Board positions from real played games, for the camera's photos: what a table really looks like mid-game.

Games between the engine's own strategy players (strong, Rule of 28, random;
mixed at a table, as people play differently), 2 to 4 seats in the usual
colours (now and then Orange or Purple), snapshot at the moments a camera
checks the board: mostly hand-overs (after a stop or a bust: markers only),
some mid-turn (the three runners out), some late in the game (claimed
columns: the claimer's marker on the top, the others' gone from them).
Deterministic from the seed; position ``i`` does not depend on ``n``.

>>> positions = sample_positions(3, seed=1)
>>> pieces, colours = positions[0]
>>> all(p.kind in colours or p.kind == RUNNER for p in pieces)
True
>>> sample_positions(2, seed=1) == positions[:2] and sample_position(2, seed=1) == positions[2]
True
"""

from __future__ import annotations

import random

from engine import ALL_ROLLS, COLUMNS, STOP, GameState, Phase, Roll, apply, new_game, outcome
from engine.players import make_player
from sight.layout import RUNNER, Piece

COLOURS = ("Red", "Blue", "Green", "Yellow")
OTHER_COLOURS = ("Orange", "Purple")
#: Strategy players and how often each sits at a table.
KINDS = (("rule28", 5), ("strong", 2), ("random", 2))
#: Which moment a position is taken at, and how often.
MOMENTS = (("hand-over", 0.6), ("mid-turn", 0.28), ("late", 0.12))
MAX_TURNS = 400
_ROLLS = tuple(Roll(d) for d in ALL_ROLLS)


def pieces_of(state: GameState, colours) -> tuple[Piece, ...]:
    """The pieces on the board in ``state``: each seat's markers in its colour, this turn's runners."""
    out = []
    for seat, markers in enumerate(state.markers):
        out.extend(Piece(c, markers[c], colours[seat]) for c in COLUMNS if markers[c] > 0)
    out.extend(Piece(c, state.runners[c], RUNNER) for c in COLUMNS if state.runners[c] > 0)
    return tuple(out)


def play(seats: int, rng: random.Random) -> list[GameState]:
    """One game's states at the moments the board stands still: each turn's start and each decision."""
    names, weights = zip(*KINDS)
    players = [make_player(k) for k in rng.choices(names, weights, k=seats)]
    state = new_game([f"P{k + 1}" for k in range(seats)])
    seen = []
    while state.turn <= MAX_TURNS:
        phase = state.phase
        if phase is Phase.ROLL or phase is Phase.OVER:
            seen.append(state)
            if outcome(state) is not None:
                return seen
        elif phase is Phase.DECIDE:
            seen.append(state)
        player = players[state.current]
        if phase is Phase.MOVE:
            event = player.choose_move(state, rng)
        elif phase is Phase.DECIDE and not player.should_roll(state, rng):
            event = STOP
        else:
            event = _ROLLS[int(rng.random() * len(_ROLLS))]
        state = apply(state, event)
    return seen


def _colours(seats: int, rng: random.Random) -> tuple[str, ...]:
    colours = rng.sample(COLOURS, seats)
    if rng.random() < 0.15:
        colours[rng.randrange(seats)] = rng.choice(OTHER_COLOURS)
    return tuple(colours)


def _moment(states: list[GameState], rng: random.Random) -> GameState:
    """One state of a game, at a hand-over, mid-turn, or late with claimed columns."""
    names, weights = zip(*MOMENTS)
    moment = rng.choices(names, weights)[0]
    if moment == "late":
        claimed = [s for s in states if max(s.claimed) >= 0]
        if claimed:
            return rng.choice(claimed[len(claimed) // 3:])
        moment = "hand-over"
    if moment == "mid-turn":
        mid = [s for s in states if s.phase is Phase.DECIDE]
        if mid:
            return rng.choice(mid)
    handovers = [s for s in states if s.phase is not Phase.DECIDE and s.turn > 1] or states
    return rng.choice(handovers)


def sample_position(index: int, seed: int) -> tuple[tuple[Piece, ...], tuple[str, ...]]:
    """Position ``index`` of ``seed``'s sample, ``(pieces, colours)``, from a game of its own (``colours[k]``:
    seat ``k``'s). Each is drawn from its own generator, so it is the same however many are drawn."""
    rng = random.Random(f"camera-positions:{seed}:{index}")
    seats = rng.choices((2, 3, 4), (4, 3, 2))[0]
    colours = _colours(seats, rng)
    state = _moment(play(seats, rng), rng)
    return pieces_of(state, colours), colours


def sample_positions(n: int, seed: int) -> list[tuple[tuple[Piece, ...], tuple[str, ...]]]:
    """The first ``n`` positions of ``seed``'s sample (``sample_position``)."""
    return [sample_position(i, seed) for i in range(n)]


if __name__ == "__main__":
    import time
    from collections import Counter

    start = time.perf_counter()
    sample = sample_positions(200, seed=1)
    took = time.perf_counter() - start
    sizes = Counter(min(len(p) // 5 * 5, 30) for p, _ in sample)
    runners = sum(any(x.kind == RUNNER for x in p) for p, _ in sample)
    print(f"200 positions in {took:.1f} s; with runners: {runners}; pieces (by fives): {sorted(sizes.items())}")
