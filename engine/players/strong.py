"""The strong player: an exact look at the next roll over a value of the whole position.

**Value of a position.** Each open column ``c`` costs ``w[c]`` turns per
square still to climb, where ``w[c]`` is proportional to ``1 / p(c)`` and
``p(c)`` is the chance that a roll offers sum ``c`` (so every column, top to
bottom, costs about the same). A player's *turns to go* ``T`` is the sum of
the cheapest costs it needs (its claimed columns cost 0; the cheapest
``columns_to_win`` count fully, the next ones with a small weight so that
spreading over many columns is not free). Progress in a column where an
opponent is closer to the top costs more (a race it is likely to lose).

Solitaire maximises ``-T``. With opponents the value is a win chance,
``1 / (1 + exp(-(T_opp - T + tempo) / scale))`` with ``T_opp`` the closest
opponent's turns to go: ahead it plays safe, behind it takes risks, and a
stop that claims a column the opponent needed raises ``T_opp``.

**Within the turn.** Stopping is worth the value of the position with the
runners turned into markers. Rolling is worth the exact expectation over the
126 distinct rolls (weighted by their 1,296 orderings) of the best option
each roll allows, a bust falling back to the position at the start of the
turn. Once no runner can be placed any more the turn is a fixed three-column
race and the player solves it exactly (memoised on the runners); while
runners are free it looks one roll ahead. Every decision is a handful of
table lookups: well under a millisecond on average.
"""

import math
from dataclasses import dataclass

from ..board import COLUMNS, HEIGHTS
from ..events import Move
from ..game import can_stop
from ..odds import hit_count
from ..state import GameState, free_runners_of
from .base import Player, runners_after
from .turn import climbing_mask, outcomes, placeable_mask

_HIT: dict[int, float] | None = None


def _hit() -> dict[int, float]:
    global _HIT
    if _HIT is None:
        _HIT = {c: hit_count([c]) / 1296 for c in COLUMNS}
    return _HIT


@dataclass(frozen=True, slots=True)
class Tuning:
    """The knobs of the strong player's value (found by simulation, see docs/players.md)."""

    scale_turns: float = 0.15
    """Turns per (square / p(c)): calibrates ``T`` to turns."""
    exponent: float = 1.0
    """Cost per square is proportional to ``p(c) ** -exponent``."""
    spread: float = 0.25
    """Weight of the first column beyond those needed (then squared, cubed...)."""
    contest: float = 0.5
    """Extra cost per turn an opponent is ahead in a column."""
    tempo: float = 0.5
    """Turns added to the opponent's side (it moves next)."""
    temperature: float = 1.5
    """Scale, in turns, of the win-chance curve."""
    exact: bool = False
    """Solve the rest of the turn exactly once no runner can be placed (slower, a little stronger)."""


class _Context:
    """Everything about the position that stays fixed during one turn (built once per turn)."""

    __slots__ = ("key", "tuning", "cur", "own", "claimed", "need", "multi", "risky", "speedy",
                 "cost", "open_cols", "base_costs", "col_index", "opp_costs", "opp_claims",
                 "next_step", "others_at", "s0", "memo_s", "memo_d")

    def __init__(self, state: GameState, tuning: Tuning):
        self.tuning = tuning
        cur = self.cur = state.current
        own = self.own = state.markers[cur]
        claimed = self.claimed = state.claimed
        rules = state.rules
        self.need = rules.columns_to_win
        self.risky = rules.risky
        self.speedy = rules.speedy
        n = len(state.players)
        self.multi = n > 1
        hit = _hit()
        unit = {c: tuning.scale_turns / hit[c] ** tuning.exponent for c in COLUMNS}
        self.open_cols = tuple(c for c in COLUMNS if claimed[c] < 0)
        # Opponents: their cost per open column, and their claims.
        opp_costs = []
        opp_claims = []
        for j in range(n):
            if j == cur:
                continue
            m = state.markers[j]
            opp_costs.append({c: (HEIGHTS[c] - m[c]) * unit[c] for c in self.open_cols})
            opp_claims.append(claimed.count(j))
        self.opp_costs = opp_costs
        self.opp_claims = opp_claims
        # My cost per step in each open column (contested columns cost more).
        contest = tuning.contest
        cost = {}
        for c in self.open_cols:
            best_opp = min((oc[c] for oc in opp_costs), default=None)
            row = []
            for s in range(HEIGHTS[c] + 1):
                x = (HEIGHTS[c] - s) * unit[c]
                if best_opp is not None and x > best_opp and s < HEIGHTS[c]:
                    x += contest * (x - best_opp)
                row.append(x)
            cost[c] = row
        self.cost = cost
        self.col_index = {c: k for k, c in enumerate(self.open_cols)}
        self.base_costs = [cost[c][own[c]] for c in self.open_cols]
        # Next square for one step (speedy skips other players' markers).
        nxt = {}
        others_at = {}
        for c in self.open_cols:
            occ = {state.markers[j][c] for j in range(n) if j != cur} - {0}
            others_at[c] = occ
            row = []
            for s in range(HEIGHTS[c] + 1):
                t = min(s + 1, HEIGHTS[c])
                if self.speedy:
                    while t < HEIGHTS[c] and t in occ:
                        t += 1
                row.append(t)
            nxt[c] = row
        self.next_step = nxt
        self.others_at = others_at
        self.memo_s = {}
        self.memo_d = {}
        self.s0 = self.stop_value((0,) * 13)

    # -- value of stopping with these runners --------------------------------

    def stop_value(self, runners) -> float:
        got = self.memo_s.get(runners)
        if got is not None:
            return got
        t = self.tuning
        costs = self.base_costs[:]
        idx = self.col_index
        new_claims = []
        for c in self.open_cols:
            r = runners[c]
            if r:
                costs[idx[c]] = self.cost[c][r]
                if r == HEIGHTS[c]:
                    new_claims.append(c)
        mine = self.claimed.count(self.cur) + len(new_claims)
        if mine >= self.need:
            return _remember(self.memo_s, runners, 1.0 if self.multi else 0.0)
        me = _turns_to_go(costs, mine, self.need, t.spread, new_claims, idx)
        if not self.multi:
            value = -me
        else:
            opp = math.inf
            for oc, oclaims in zip(self.opp_costs, self.opp_claims):
                ocosts = [v for c, v in oc.items() if c not in new_claims]
                opp = min(opp, _turns_to_go(ocosts, oclaims, self.need, t.spread, (), None))
            if opp == math.inf and me == math.inf:
                value = 0.5
            elif opp == math.inf:
                value = 1.0
            elif me == math.inf:
                value = 0.0
            else:
                x = (opp - me + t.tempo) / t.temperature
                value = 1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0
        return _remember(self.memo_s, runners, value)

    # -- rolling ----------------------------------------------------------------

    def child(self, runners, opt):
        r = list(runners)
        own = self.own
        nxt = self.next_step
        for s in opt:
            r[s] = nxt[s][r[s] or own[s]]
        return tuple(r)

    def blocked(self, runners) -> bool:
        """Whether the risky variant forbids stopping with these runners."""
        return self.risky and any(runners[c] and runners[c] in self.others_at[c] for c in self.open_cols)

    def roll_value(self, runners, exact: bool) -> float:
        """Expected value of rolling now; children valued exactly (``exact``) or by stopping."""
        free = free_runners_of(runners)
        weights, option_sets, bust = outcomes(climbing_mask(runners), placeable_mask(runners, self.claimed), free)
        total = bust * self.s0
        seen = {}
        for weight, options in zip(weights, option_sets):
            best = -math.inf
            for opt in options:
                v = seen.get(opt)
                if v is None:
                    ch = self.child(runners, opt)
                    v = self.decide_value(ch) if exact else self.settle_value(ch)
                    seen[opt] = v
                if v > best:
                    best = v
            total += weight * best
        return total / 1296

    def settle_value(self, runners) -> float:
        """Value of stopping, or of the one forced roll the risky variant imposes."""
        s = self.stop_value(runners)
        if self.blocked(runners):
            free = free_runners_of(runners)
            bust = outcomes(climbing_mask(runners), placeable_mask(runners, self.claimed), free)[2]
            q = bust / 1296
            return (1 - q) * s + q * self.s0
        return s

    def decide_value(self, runners) -> float:
        """Value at a roll-or-stop point: exact once no runner can be placed, else one roll ahead."""
        got = self.memo_d.get(runners)
        if got is not None:
            return got
        can = not self.blocked(runners)
        s = self.stop_value(runners) if can else -math.inf
        if s == (1.0 if self.multi else 0.0):  # stopping wins
            return _remember(self.memo_d, runners, s)
        free = free_runners_of(runners)
        fixed = self.tuning.exact and (free == 0 or not placeable_mask(runners, self.claimed))
        if fixed:
            one = self.roll_value(runners, exact=False)
            if can and s >= one:
                value = s  # monotone: once one more roll is not worth it, none is
            else:
                value = max(s, self.roll_value(runners, exact=True))
        else:
            value = max(s, self.roll_value(runners, exact=False))
        return _remember(self.memo_d, runners, value)


def _turns_to_go(costs, claims, need, spread, new_claims, idx) -> float:
    """Sum of the cheapest costs still needed, the extra columns weighted by ``spread``."""
    if new_claims:
        for c in new_claims:
            costs[idx[c]] = 0.0
        claims -= len(new_claims)
    need_more = need - claims
    if need_more <= 0:
        return 0.0
    if len(costs) < need_more:
        return math.inf
    costs = sorted(costs)
    total = sum(costs[:need_more])
    w = spread
    for x in costs[need_more:need_more + 3]:
        total += w * x
        w *= spread
    return total


# The memos are bounded: a context per turn (the last few kept), and in each
# context at most _MAX_MEMO values of stopping and of deciding (a turn of the
# default player meets a few hundred; exact=True some thousands).
_CONTEXTS: dict = {}
_MAX_CONTEXTS = 4
_MAX_MEMO = 10_000


def _remember(memo: dict, runners, value: float) -> float:
    if len(memo) >= _MAX_MEMO:
        memo.clear()
    memo[runners] = value
    return value



def _context(state: GameState, tuning: Tuning) -> _Context:
    key = (tuning, state.current, state.markers, state.claimed, state.rules, len(state.players))
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        if len(_CONTEXTS) >= _MAX_CONTEXTS:
            _CONTEXTS.pop(next(iter(_CONTEXTS)))
        ctx = _CONTEXTS[key] = _Context(state, tuning)
    return ctx


@dataclass(frozen=True, slots=True)
class StrongPlayer(Player):
    """The strong player (see the module docstring); ``tuning`` holds its knobs."""

    tuning: Tuning = Tuning()
    kind = "strong"

    def _move_values(self, state: GameState):
        ctx = _context(state, self.tuning)
        return [(ctx.decide_value(runners_after(state, m)), m) for m in state.moves]

    def choose_move(self, state: GameState, rng=None) -> Move:
        best, best_value = None, -math.inf
        for value, move in self._move_values(state):
            if value > best_value:
                best, best_value = move, value
        return best

    def values(self, state: GameState) -> tuple[float, float]:
        """(value of stopping, value of rolling) now, in the player's own units."""
        ctx = _context(state, self.tuning)
        runners = state.runners
        free = state.free_runners
        fixed = self.tuning.exact and (free == 0 or not placeable_mask(runners, ctx.claimed))
        roll = ctx.roll_value(runners, exact=fixed)
        stop = ctx.stop_value(runners) if can_stop(state) else -math.inf
        return stop, roll

    def should_roll(self, state: GameState, rng=None) -> bool:
        if not can_stop(state):
            return True
        stop, roll = self.values(state)
        return roll > stop
