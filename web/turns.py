"""What just happened, in words: the turn under way and the ones before it, and the bust moment.

Derived from the game's events only, replayed with the engine (the same for
the live page and a replay's step): a turn begins with a roll from the roll
phase and ends with a stop or a roll with no move (a bust). The words are
the page's (:mod:`web.text`), with the box's list separator
(:func:`firmware.words.listed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import HEIGHTS, GameState, Phase, Roll, Stop, apply, new_game, stop_claims

from .text import in_language

#: Turns the log keeps (newest first): the one under way and a round or two before it.
LOG_TURNS = 6


@dataclass(frozen=True)
class Bust:
    """The last roll bust: who, the dice, and the runners it cost (column -> square), shown until the next roll."""

    seat: int
    dice: tuple[int, ...]
    lost: dict


@dataclass(frozen=True)
class Stopped:
    """The last event is a stop the table has not confirmed on the board yet (the box's screen tells them
    what to move, and ROLL goes on): who stopped, where their markers go, and per claimed column the seats
    whose markers come off it."""

    seat: int
    squares: dict
    claims: tuple


def stopped_of(states, events, pending: bool) -> Stopped | None:
    """The stop moment (``pending``: the box still shows its instructions), else None."""
    if not (pending and events and isinstance(events[-1], Stop)):
        return None
    before = states[-2]
    who = before.current
    claims = tuple((c, tuple(i for i, m in enumerate(before.markers) if i != who and m[c])) for c in stop_claims(before))
    return Stopped(who, dict(before.runner_steps()), claims)


def replay(players, rules, events) -> list[GameState]:
    """Every state of a game: before its first event, and after each."""
    states = [new_game(list(players), rules) if rules is not None else new_game(list(players))]
    for event in events:
        states.append(apply(states[-1], event))
    return states


def bust_of(states, events) -> Bust | None:
    """The bust moment: the last event is a roll that left no move (the next roll ends it)."""
    if not events or not isinstance(events[-1], Roll):
        return None
    before, after = states[-2], states[-1]
    if after.phase is Phase.MOVE or before.phase is Phase.MOVE:
        return None
    lost = {c: before.runners[c] for c in range(2, 13) if before.runners[c]}
    return Bust(before.current, tuple(events[-1].dice), lost)


def log(lang: str, w, names, states, events, limit: int = LOG_TURNS) -> tuple[str, ...]:
    """The last ``limit`` turns in words, newest first; the one under way says where its runners are."""
    t = in_language(lang)
    out: list[str] = []
    seat = None
    for i, event in enumerate(events):
        before, after = states[i], states[i + 1]
        if isinstance(event, Roll) and before.phase is Phase.ROLL:
            seat = before.current
        if seat is None:
            continue
        who = names[seat] if seat < len(names) else w.seat_name(seat)
        if isinstance(event, Roll) and after.phase is not Phase.MOVE and before.phase is not Phase.MOVE:
            lost = [str(c) for c in range(2, 13) if before.runners[c]]
            dice = " ".join(map(str, event.dice))
            out.append(t["log_bust"].format(name=who, dice=dice, columns=w.listed(lost)) if lost
                       else t["log_bust_none"].format(name=who, dice=dice))
            seat = None
        elif isinstance(event, Stop):
            out.append(_stopped(t, w, who, before))
            seat = None
    if seat is not None and states[-1].phase is not Phase.ROLL:
        g = states[-1]
        steps = _steps(t, w, g)
        who = names[seat] if seat < len(names) else w.seat_name(seat)
        if steps:
            out.append(t["log_now"].format(name=who, steps=steps))
        else:  # the turn's first roll, not moved yet: its dice
            out.append(t["log_rolled"].format(name=who, dice=" ".join(map(str, events[-1].dice))))
    return tuple(reversed(out[-limit:]))


def _steps(t, w, g: GameState) -> str:
    return w.listed(t["log_to"].format(column=c, step=s) for c, s in g.runner_steps().items())


def _stopped(t, w, who: str, before: GameState) -> str:
    text = t["log_stop"].format(name=who, steps=_steps(t, w, before))
    claimed = [str(c) for c, s in before.runner_steps().items() if s >= HEIGHTS[c]]
    if claimed:
        text += t["log_claimed"].format(columns=w.listed(claimed))
    return text
