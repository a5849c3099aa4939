"""Boards of the camera benchmark (make camera-bench, make camera-heldout) drawn again as the benchmark draws them,
for the tests that read one board."""

from __future__ import annotations

import numpy as np

from benchmarks.camera import HAND_EVERY, truth_layout
from benchmarks.camera_positions import sample_position
from engine import HEIGHTS
from sight import scene
from sight.calibrate import calibrate
from sight.layout import Piece, centred
from sight.palette import Palette
from sight.read import look
from sight.verdict import verdict

SEED = 49  # the benchmark's own


def game_night(index: int, seed: int = SEED, runner: str = "white"):
    """Board ``index``'s draw as the benchmark makes it (of ``seed``'s boards, with ``runner`` runners): its
    generator (the shot is drawn next), the board, the table, and the photo of the empty board the camera is set up
    from."""
    rng = np.random.default_rng([seed, index])
    truth = truth_layout(rng)
    table = scene.random_table(rng, truth, runner=runner)
    return rng, truth, table, scene.render(truth, [], table, scene.calm_shot())


def right_board(index: int, seed: int = SEED, runner: str = "white"):
    """Board ``index`` of the benchmark (of ``seed``'s boards, with ``runner`` runners): its set-up, its photo, and
    the game it shows."""
    pieces, colours = sample_position(index, seed=seed)
    rng, truth, table, empty = game_night(index, seed, runner)
    cal = calibrate(empty, HEIGHTS, centred(HEIGHTS))
    photo = scene.render(truth, tuple(pieces), table, scene.random_shot(rng, hand=index % HAND_EVERY == HAND_EVERY - 1))
    return photo, cal, tuple(pieces), Palette.of(colours, runner=runner)


def said_extra_where_the_game_lacks(index: int, piece: Piece) -> None:
    """Board ``index``'s photo read against its game less ``piece``: the one finding is ``piece``, extra."""
    photo, cal, pieces, palette = right_board(index)
    assert piece in pieces
    game = tuple(p for p in pieces if p != piece)
    found = verdict(look(photo, cal, game, palette), game)
    assert [tuple(f) for f in found.wrong] == [("extra", piece.kind, piece.column, 0, piece.step)], found


def read_right(index: int, seed: int = SEED, runner: str = "white"):
    """Board ``index``'s photo (of ``seed``'s boards, with ``runner`` runners) read against its own, right game:
    the game's pieces and the verdict."""
    photo, cal, pieces, palette = right_board(index, seed, runner)
    return pieces, verdict(look(photo, cal, pieces, palette), pieces)


def right_verdict(index: int, seed: int = SEED):
    """Board ``index``'s photo (of ``seed``'s boards) read against its own, right game: the verdict."""
    return read_right(index, seed)[1]
