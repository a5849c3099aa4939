"""Where the game says every piece stands: a game state as pieces on the board's spaces.

Each seat's markers are pieces of its colour (the config's name: what the
camera tells apart), each of this turn's runners a runner. A claimed column
has only its owner's marker, on its top: the engine takes the others off.

>>> from engine import Move, Roll, STOP, apply, new_game
>>> s = apply(apply(apply(new_game(["Red", "Blue"]), Roll((2, 3, 4, 5))), Move.of(5, 9)), STOP)
>>> pieces_of(s, ("Red", "Blue"))
(Piece(column=5, step=1, kind='Red'), Piece(column=9, step=1, kind='Red'))
"""

from __future__ import annotations

from engine import COLUMNS, GameState

from sight.layout import RUNNER, Piece


def pieces_of(state: GameState | None, colours) -> tuple[Piece, ...]:
    """Every piece ``state`` puts on the board (none before a game), seat ``i`` in ``colours[i]``."""
    if state is None:
        return ()
    out = []
    for seat, steps in enumerate(state.markers):
        for c in COLUMNS:
            if steps[c]:
                out.append(Piece(c, steps[c], colours[seat]))
    for c in COLUMNS:
        if state.runners[c]:
            out.append(Piece(c, state.runners[c], RUNNER))
    return tuple(sorted(out))
