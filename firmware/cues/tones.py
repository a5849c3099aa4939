"""The buzzer's tones: which cue each thing the game did sounds, and what each cue sounds like.

:func:`cues` compares the game's states at two frames: each event added
since (and only then: an undo, a new game or a game continued from the list
sounds nothing) gives at most one cue, in order:

- a roll that leaves a move: ``roll``;
- a roll that leaves none: ``bust``;
- a stop that claims a column: ``claim``; a stop that wins the game: ``win``.

A melody is notes of (frequency in hertz, seconds), a frequency of 0 being a
rest; a buzzer that cannot change its pitch plays the same rhythm, so the
four cues stay distinct by their beats too.
"""

from __future__ import annotations

from engine import GameState, Phase, Roll, Stop, stop_claims

ROLL, BUST, CLAIM, WIN = "roll", "bust", "claim", "win"
CUES = (ROLL, BUST, CLAIM, WIN)

Melody = tuple[tuple[float, float], ...]

#: Short and distinct: one tick for a roll, a falling pair for a bust,
#: a rising pair for a claim, a rising run of four for a win.
MELODIES: dict[str, Melody] = {
    ROLL: ((880.0, 0.04),),
    BUST: ((440.0, 0.12), (0.0, 0.05), (294.0, 0.25)),
    CLAIM: ((659.0, 0.08), (0.0, 0.03), (988.0, 0.15)),
    WIN: ((523.0, 0.1), (659.0, 0.1), (784.0, 0.1), (1047.0, 0.35)),
}


def cues(before: tuple[GameState, ...], after: tuple[GameState, ...], events) -> tuple[str, ...]:
    """The cues of the events that took the game from ``before``'s last state to ``after``'s.

    ``states[i + 1]`` follows ``events[i]`` (the app's own convention). Nothing
    when ``after`` does not go on from ``before`` (an undo, another game).
    """
    n = len(before)
    if not n or len(after) <= n or (after[n - 1] is not before[-1] and after[n - 1] != before[-1]):
        return ()
    out = []
    for i in range(n - 1, len(after) - 1):
        cue = _cue(after[i], events[i], after[i + 1])
        if cue is not None:
            out.append(cue)
    return tuple(out)


def _cue(state: GameState, event, result: GameState) -> str | None:
    if isinstance(event, Roll):
        return ROLL if result.phase is Phase.MOVE else BUST
    if isinstance(event, Stop):
        if result.phase is Phase.OVER and result.winner is not None:
            return WIN
        if stop_claims(state):
            return CLAIM
    return None
