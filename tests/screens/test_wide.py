"""The 256x64 grey layout (SSD1322): the 128x64 painters on twice the width, a turn in play beside a compact
board, grey where the issue asks.

Grey is for the board (the other players' pieces dimmer than those of the
player whose turn it is) and the highlighted choice (lit words on a grey
fill instead of an inverted block); everything else is lit or dark, as on
the 1-bit screens.
"""

from __future__ import annotations

from firmware.devtools.samples import SAMPLES
from dataclasses import replace

from firmware.screens import LAYOUTS, board, game, render, render_traced
from firmware.screens.kit import Canvas
from firmware.screens.wide import play
from firmware.screens.kit import GREY

WIDE = (256, 64)


def _levels(image, box=None) -> set[int]:
    part = image.crop(box) if box else image
    return {level for count, level in part.getcolors(256)}


def test_wide_layout_is_grey_and_128x64_stays_one_bit():
    assert LAYOUTS[WIDE].mode == "L" and LAYOUTS[(128, 64)].mode == "1"
    assert render(SAMPLES["board_mid_game"]).mode == "1"
    assert render(SAMPLES["board_mid_game"], WIDE).mode == "L"


def test_wide_frames_use_only_dark_lit_and_the_one_grey():
    for name, view in SAMPLES.items():
        assert _levels(render(view, WIDE)) <= {0, GREY, 255}, name


def test_wide_board_other_players_are_grey_the_current_one_bright():
    v = SAMPLES["board_mid_game"]  # four players, Green (seat 2) to play
    frame = render(v, WIDE)
    cell = board.cell_width(256)
    assert cell == 22  # twice the 128x64 grid's cells
    for seat in range(len(v.players)):
        top, bottom = board.row_span(seat, len(v.players))
        row = _levels(frame, (board.GUTTER, top, board.GUTTER + 11 * cell, bottom + 1)) - {0}
        assert row == ({255} if seat == v.current else {GREY}), seat


def test_wide_board_with_nobody_to_play_is_all_bright():
    frame = render(SAMPLES["board_game_over"], WIDE)
    assert _levels(frame) == {0, 255}


def test_wide_highlight_is_a_grey_fill_under_lit_words():
    chosen = render(SAMPLES["dice_bot_chose"], WIDE)  # pairing A highlighted
    cell = (play.LEFT - play.GAP - 2) // 3  # the pairings share the left column, the board beside them
    assert {GREY, 255} <= _levels(chosen, (0, 27, cell, 55))
    assert chosen.getpixel((1, 40)) == GREY  # the fill, where 128x64 would light the whole block
    assert _levels(chosen, (cell + 1, 27, 2 * cell + 1, 55)) == {0, 255}  # B is not highlighted
    menu = render(SAMPLES["setup_top"], WIDE)  # the cursor row
    assert menu.getpixel((1, 11)) == GREY and 255 in _levels(menu, (0, 10, 200, 20))
    assert render(SAMPLES["setup_top"]).getpixel((1, 11)) == 1  # inverted on the 1-bit screen


def test_wide_uses_the_width():
    """Cells and columns spread over 256 pixels: the dice screen's third pairing starts past the middle."""
    frame = render(SAMPLES["dice_all_legal"], WIDE)
    assert frame.crop((200, 11, 256, 54)).getbbox() is not None
    note = render(SAMPLES["hint"], WIDE)
    assert note.crop((128, 11, 256, 54)).getbbox() is not None


PLAY = ("turn_after_stop", "turn_after_claim", "dice_all_legal", "dice_one_sum", "pick", "move_two_steps", "move_top")


def test_wide_turn_dice_and_move_show_the_board_beside_them():
    """No wide empty band: the right part of a turn in play holds the columns, each as tall as its squares."""
    for name in PLAY:
        frame = render(SAMPLES[name], WIDE)
        assert frame.crop((play.PANEL_X, 25, 256, play.BOTTOM + 1)).getbbox() is not None, name
        for n, track in enumerate(SAMPLES[name].board):  # every column reaches its own height, and no higher
            x = play.PANEL_X + n * play.PITCH + 5
            top = play.BOTTOM - play.SQUARE * track.height + 2
            assert frame.getpixel((x, top)) != 0 and frame.getpixel((x, top - 2)) == 0, (name, track.column)


def test_wide_board_lights_the_players_squares_greys_the_rest():
    v = SAMPLES["move_two_steps"]  # Red: markers 2:1 5:2 7:1, runners 7:3 9:1
    frame = render(v, WIDE)

    def square(column, step, dx=5):
        x = play.PANEL_X + (column - 2) * play.PITCH + dx
        return frame.getpixel((x, play.BOTTOM - play.SQUARE * (step - 1)))

    assert square(5, 2) == 255 and square(5, 3) == GREY  # up to the marker lit, above it grey
    assert square(7, 1) == 255 and square(7, 2) == 255 and square(7, 2, dx=2) == 0  # the stem climbed this turn
    assert square(7, 3, dx=0) == 255 and square(7, 3, dx=1) == 255  # the runner, wider than a square
    assert square(8, 1) == GREY
    claimed = render(SAMPLES["turn_after_claim"], WIDE)  # Green claimed 4 and 12, another player 7
    x7 = play.PANEL_X + 5 * play.PITCH + 5
    assert claimed.getpixel((x7, play.BOTTOM - 1)) == GREY and claimed.getpixel((x7, play.BOTTOM - 2)) == GREY


def test_wide_play_texts_stay_in_their_column_or_panel():
    """The left column's texts end GAP dark columns before the rule, the panel's start after it (the fit tests
    check overlaps): the top bar's "round 1" once ran on into the column numbers as "round 12 3 4"."""
    from firmware.devtools.samples import SAMPLES_AT
    from hw.glyphs import text_width

    for lang, views in SAMPLES_AT[WIDE].items():
        for name in (n for n in views if n.split("_")[0] in ("turn", "dice", "pick", "move")):
            for t in render_traced(views[name], WIDE).texts:
                right = t.x + text_width(t.text, t.font)
                assert right <= play.LEFT - play.GAP + 1 or t.x >= play.PANEL_X, (lang, name, t)


def test_wide_view_without_a_board_is_the_widened_128x64_screen():
    v = replace(SAMPLES["turn_after_stop"], board=())
    assert render(v, WIDE).crop((play.PANEL_X, 25, 256, 54)).getbbox() is None


def test_wide_board_comes_from_the_game():
    """The UI hands the turn, dice and move their board: the player to act's runners after the move."""
    from firmware import ui, views
    from firmware.config import GameConfig
    from firmware.ui.messages import Press

    app, _ = ui.update(ui.boot(GameConfig(players=2)), Press("ROLL", False))  # the game starts: Red's turn
    turn = ui.view(app)
    assert isinstance(turn, views.TurnView)
    assert [(t.column, t.height, t.marker, t.runner, t.claimed) for t in turn.board][::5] == [
        (2, 3, 0, 0, ""), (7, 13, 0, 0, ""), (12, 3, 0, 0, "")]
    app, _ = ui.update(app, Press("ROLL", False))
    app, _ = ui.update(app, ui.DiceRolled((2, 3, 4, 5)))
    assert isinstance(ui.view(app), views.DiceView) and not any(t.runner for t in ui.view(app).board)
    app, _ = ui.update(app, Press("A", False))  # 5 and 9
    moved = ui.view(app)
    assert isinstance(moved, views.MoveView)
    assert {t.column: t.runner for t in moved.board if t.runner} == {5: 1, 9: 1}


def test_wide_pick_is_the_question_and_columns_beside_the_board():
    """Issue 32: the pick (which sum of a pairing moves) keeps A and B with their columns in the left column,
    the board of the player to act beside them and the legend under it, as the dice screen before it."""
    v = SAMPLES["pick"]
    frame = render(v, WIDE)
    assert frame.crop((play.PANEL_X, 11, 256, play.BOTTOM + 1)).getbbox() is not None
    texts = render_traced(v, WIDE).texts
    for column in map(str, v.choices):
        assert any(t.text == column and t.font == "huge" and t.x + 24 <= play.LEFT for t in texts), column
    assert any(t.text in ("A/B", "A") and t.x >= play.PANEL_X and t.y >= 56 for t in texts)  # the legend, in the panel
    bare = replace(v, board=())  # without a board: the 128x64 pick, widened
    widened = Canvas(LAYOUTS[WIDE], bare.lang)
    game.pick(widened, bare)
    assert render(bare, WIDE).tobytes() == widened.image.tobytes()


def test_wide_pick_board_comes_from_the_game():
    """The pick carries the board of the player to act, the runners before the move, as the dice screen does."""
    from firmware import ui, views
    from firmware.config import GameConfig
    from firmware.ui.messages import Press

    app, _ = ui.update(ui.boot(GameConfig(players=2)), Press("ROLL", False))
    for press in (Press("ROLL", False), ui.DiceRolled((2, 3, 4, 5)), Press("A", False),  # runners on 5 and 9
                  Press("ROLL", False), ui.DiceRolled((1, 1, 5, 6)), Press("A", False)):  # 2 or 11: one runner left
        app, _ = ui.update(app, press)
    pick = ui.view(app)
    assert isinstance(pick, views.PickView) and pick.choices == (2, 11)
    assert {t.column: t.runner for t in pick.board if t.runner} == {5: 1, 9: 1}
