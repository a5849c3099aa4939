"""Sample views of every screen, and the gallery / golden images made from them.

``SAMPLES`` maps a name to a view; the screen tests compare ``render(view)``
for each with ``tests/screens/golden/<name>.png``, and the gallery shows them
scaled up for people to look at.

    python -m firmware.gallery docs/gallery   # scaled-up PNGs + README.md index
    python -m firmware.gallery --golden       # rewrite tests/screens/golden/*.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

from . import words
from .screens import render
from .views import (
    BoardView,
    Column,
    DiceView,
    HintView,
    InstructionsView,
    MenuView,
    MessageView,
    MoveView,
    OffView,
    Option,
    PickView,
    RunnerMove,
    RecapRow,
    RecapView,
    SetupView,
    StatsView,
    TableView,
    TurnView,
    WinView,
)

HEIGHTS = {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "screens" / "golden"


def _option(label, pairs, effect, text) -> Option:
    (a, b), (c, d) = pairs
    return Option(label, pairs, (a + b, c + d), effect, text)


def _board(players, markers=None, runners=None, owners=None, current=0, focus=None, alert=None) -> BoardView:
    markers = markers or {}
    runners = runners or {}
    owners = owners or {}
    columns = tuple(
        Column(c, h, tuple(markers.get(c, {}).get(s, 0) for s in range(len(players))), runners.get(c, 0), owners.get(c))
        for c, h in HEIGHTS.items()
    )
    return BoardView(tuple(players), columns, current, focus, alert=alert)


FOUR = ("Red", "Blue", "Green", "Yellow")
MID_MARKERS = {
    2: {0: 1},
    4: {1: 3, 2: 5},
    5: {0: 2, 3: 4},
    6: {0: 6, 1: 6, 2: 2, 3: 9},
    7: {0: 13},
    8: {1: 4, 2: 7, 3: 1},
    9: {0: 3, 1: 9},
    10: {2: 2},
    11: {3: 3},
}
MID_RUNNERS = {5: 4, 8: 9, 10: 3}
MID_OWNERS = {7: 0, 9: 1}

#: name -> a sample view; every view type and the variants that matter.
SAMPLES = {
    # turns
    "turn_first": TurnView("Red", 0, 1, (), ("Red starts.",)),
    "turn_after_stop": TurnView("Blue", 1, 5, (7,), ("Red stopped.",)),
    "turn_after_claim": TurnView("Green", 2, 9, (4, 12), ("Red stopped.",)),
    "turn_after_bust": TurnView("Yellow", 3, 3, (), ("Green bust.",)),
    "turn_bot": TurnView("Burgundy", 1, 4, (3, 11), ("Red stopped.",), bot=True, keys="ROLL:faster MENU:menu"),
    "turn_alert": TurnView("Red", 0, 2, (), ("Blue stopped.",), alert="NOT SAVED: disk full"),
    "turn_solo": TurnView("Red", 0, 1, (), ("Claim 3 columns in as", "few turns as you can.",
                                         "Box average: 7.7 turns.")),
    # what to do on the board after a stop or a bust, and after an undo
    "handover_stop": InstructionsView("Red", 0, "Red stops", ("Red markers to:", "7:7  8:2  9:1"),
                                      keys="ROLL:Blue rolls"),
    "handover_box_stop": InstructionsView("Blue", 1, "Blue stops", ("Blue markers to:", "6:5  8:9  10:3",
                                                                    "Blue claims 10!"), keys="ROLL:Red rolls"),
    "handover_box_bust": InstructionsView("Blue", 1, "Blue busts", ("Nothing to move.", "Markers stay."),
                                          big="BUST! 3 3 6 6", keys="ROLL:faster MENU:menu"),
    "handover_claim": InstructionsView("Red", 0, "Red stops", ("Red markers to:", "4:7  6:4  7:10", "Red claims 4!",
                                                               "Take off 4: Blue,"), page=1, pages=2,
                                       keys="A/B:page ROLL:next"),
    "handover_claim_page2": InstructionsView("Red", 0, "Red stops", ("Green, Yellow.",), page=2, pages=2,
                                             keys="ROLL:see the winner"),
    "handover_bust": InstructionsView("Green", 2, "Green busts", ("Take the runners off.", "Markers stay."),
                                      big="BUST! 1 1 2 2", keys="ROLL:Yellow rolls"),
    "undone_move": InstructionsView("Red", 0, "Undone: move 5+9", ("Take runner off 5.", "Take runner off 9.",
                                                                   "Same dice: pick again")),
    "undone_stop": InstructionsView("Red", 0, "Undone: stop", ("Runners back on:", "2:3  12:1",
                                                               "Red markers back to:", "2:off  12:off"),
                                    page=1, pages=2, keys="A/B:page ROLL:next"),
    # dice
    "dice_all_legal": DiceView(
        "Red", 0, (2, 3, 4, 5),
        (
            _option("A", ((2, 3), (4, 5)), "both", "5+9"),
            _option("B", ((2, 4), (3, 5)), "both", "6+8"),
            _option("C", ((2, 5), (3, 4)), "both", "7x2"),
        ),
    ),
    "dice_pick_and_illegal": DiceView(
        "Blue", 1, (1, 1, 5, 6),
        (
            _option("A", ((1, 1), (5, 6)), "pick", "2/11"),
            _option("B", ((1, 5), (1, 6)), "pick", "6/7"),
            _option("C", ((1, 6), (1, 5)), "none", "--"),
        ),
    ),
    "dice_one_sum": DiceView(
        "Green", 2, (6, 6, 4, 6),
        (
            _option("A", ((6, 6), (4, 6)), "second", "10"),
            _option("B", ((6, 4), (6, 6)), "first", "10"),
            _option("C", ((6, 6), (6, 4)), "second", "10"),
        ),
    ),
    "dice_bot_chose": DiceView(
        "Magentas", 3, (3, 3, 4, 4),
        (
            _option("A", ((3, 3), (4, 4)), "both", "6+8"),
            _option("B", ((3, 4), (3, 4)), "both", "7x2"),
            _option("C", ((3, 4), (3, 4)), "both", "7x2"),
        ),
        bot=True, chosen="A", keys="ROLL:faster MENU:menu",
    ),
    "dice_bot_pick": DiceView(
        "Blue", 1, (1, 1, 5, 6),
        (
            _option("A", ((1, 1), (5, 6)), "pick", "2/11"),
            _option("B", ((1, 5), (1, 6)), "pick", "6/7"),
            _option("C", ((1, 6), (1, 5)), "none", "--"),
        ),
        bot=True, chosen="A:11", keys="ROLL:faster MENU:menu",
    ),
    "dice_alert": DiceView(
        "Red", 0, (6, 6, 6, 6),
        (
            _option("A", ((6, 6), (6, 6)), "both", "12x2"),
            _option("B", ((6, 6), (6, 6)), "both", "12x2"),
            _option("C", ((6, 6), (6, 6)), "both", "12x2"),
        ),
        alert="Undo: move taken back",
    ),
    # pick
    "pick": PickView("Blue", 1, (1, 1, 5, 6), "A", (2, 11)),
    # move
    "move_two_steps": MoveView(
        "Red", 0, (RunnerMove(7, 3, False, False), RunnerMove(9, 1, True, False)), 0.239, True, 1
    ),
    "move_top": MoveView("Yellow", 3, (RunnerMove(12, 3, False, True),), 0.4405, True, 0),
    "move_double": MoveView("Green", 2, (RunnerMove(7, 2, True, False),), 0.0, True, 2),
    "move_speedy": MoveView("Blue", 1, (RunnerMove(6, 5, False, False, (4,)), RunnerMove(8, 3, True, False, (1, 2))),
                            0.1103, True, 1),
    "move_risky_stop": MoveView(
        "Blue", 1, (RunnerMove(6, 6, False, False), RunnerMove(8, 4, True, False)), 0.0772, False, 1,
        stop_note="Risky: 8 shares with Red", keys="ROLL:roll",
    ),
    "move_risky_long_note": MoveView(
        "Red", 0, (RunnerMove(4, 5, False, False),), 0.2431, False, 0,
        stop_note="Risky: 10 shares with Burgundy", keys="ROLL:roll",
    ),
    "move_risky_many": MoveView(
        "Blue", 1, (RunnerMove(5, 2, True, False),), 0.1620, False, 0,
        stop_note="Risky: 5 Red Green, 9 Red", keys="ROLL:roll",
    ),
    "move_bot": MoveView(
        "Burgundy", 1, (RunnerMove(5, 4, True, False), RunnerMove(10, 3, False, False)), 0.5563, True, 0,
        bot=True, bot_next="stop", keys="ROLL:faster MENU:menu",
    ),
    # win
    "win": WinView("Red", 0, (2, 7, 12), 14, ("Red: markers to", "2:3  7:13  12:3")),
    "win_long_name": WinView("Burgundy", 1, (4, 6, 10), 31),
    "win_nobody": WinView(None, None, (), 40, ("No one can move.",)),
    # board
    "board_empty": _board(("Red", "Blue"), current=0),
    "board_mid_game": _board(FOUR, MID_MARKERS, MID_RUNNERS, MID_OWNERS, current=2),
    "board_solo": _board(("Red",), {4: {0: 5}, 6: {0: 11}, 8: {0: 2}}, {6: 11, 8: 4}, current=0),
    "board_two_players": _board(("Red", "Blue"), {3: {0: 2}, 5: {0: 4, 1: 6}, 7: {1: 9}, 8: {0: 3, 1: 3}},
                                {6: 8, 8: 5}, {12: 1}, current=0),
    "board_game_over": _board(("Red", "Blue"), {3: {1: 2}}, {}, {2: 0, 7: 0, 12: 0}, current=None),
    "board_column_players": _board(FOUR, MID_MARKERS, MID_RUNNERS, MID_OWNERS, current=2, focus=8),
    "board_column_claimed": _board(FOUR, MID_MARKERS, MID_RUNNERS, MID_OWNERS, current=2, focus=7),
    "board_column_empty": _board(("Red", "Blue"), current=1, focus=12),
    "board_alert": _board(FOUR, MID_MARKERS, MID_RUNNERS, MID_OWNERS, current=2, alert="Check the board: 8"),
    # menus
    "menu_game": MenuView("Menu", ("Back to game", "Undo", "Hint", "Board", "New game", "Statistics"), 1),
    "menu_scrolled": MenuView("Menu", ("Back to game", "Undo", "Hint", "Board", "New game", "Statistics"), 5),
    "menu_short": MenuView("Menu", ("New game", "Statistics"), 0),
    "setup_top": SetupView(
        "New game",
        (("Players", "4"), ("P1 colour", "Red"), ("P1 plays", "person"), ("P2 colour", "Burgundy"),
         ("P2 plays", "box"), ("To win", "3 cols"), ("Speedy", "off"), ("Risky", "off"), ("Start game", "")),
        0,
    ),
    "setup_scrolled": SetupView(
        "New game",
        (("Players", "4"), ("P1 colour", "Red"), ("P1 plays", "person"), ("P2 colour", "Burgundy"),
         ("P2 plays", "box"), ("To win", "3 cols"), ("Speedy", "off"), ("Risky", "off"), ("Start game", "")),
        6,
    ),
    "setup_last": SetupView(
        "New game",
        (("Players", "2"), ("P1 colour", "Red"), ("P1 plays", "person"), ("P2 colour", "Blue"),
         ("P2 plays", "box"), ("To win", "3 cols"), ("Speedy", "off"), ("Risky", "on"), ("Start game", "")),
        8,
    ),
    # text screens
    "message_confirm": MessageView("New game?", ("This game will end", "(it stays in history)."), "C:yes MENU:no"),
    "message_long": MessageView(
        "Config error",
        ("/etc/cantstop-box/config.toml line 12: pin 17 is used twice (ROLL and MENU); fix the file and restart",),
        keys="fix the file",
    ),
    "hint": HintView("Red", 0, "Roll again", ("Rolling again wins 74% of games like this, stopping 65%.",),
                     0.0772),
    "hint_pairing": HintView("Blue", 1, "A: 6+8", ("After 6+8 the next roll busts 8% of the time.",)),
    "stats": StatsView((("Red", 7), ("Blue", 4), ("Burgundy", 2), ("Yellow", 0)), 13),
    "stats_empty": StatsView((), 0),
    # people: names on the new-game screen, statistics per person, a game's recap, continuing a game
    "setup_names": SetupView(
        "New game",
        (("Players", "2"), ("P1 colour", "Red"), ("P1 name", "Ann"), ("P1 plays", "person"),
         ("P2 colour", "Blue"), ("P2 name", "Maximiliane-Louise"), ("P2 plays", "person"),
         ("Starts", "Maximiliane-Louise"), ("To win", "3 cols"), ("Speedy", "off"), ("Risky", "off"),
         ("Start game", "")),
        5,
    ),
    "stats_people": StatsView((("Ann", 5), ("Maximiliane-Louise", 3), ("Box", 2), ("Red", 1)), 11,
                              words.KEYS["stats"]),
    "stats_person": TableView("Ann", "2/4", words.person_rows(8, 5, 5 / 8, 0.2857, {3: (9, 11.25)})[:4],
                              words.KEYS["stats"]),
    "stats_person_solo": TableView("Maximiliane-Louise", "3/4",
                                   words.person_rows(0, 0, None, None, {1: (2, 3.5), 3: (12, 14.0)})[2:6],
                                   words.KEYS["stats"]),
    "recap": RecapView(words.RECAP, words.recap_status(11), (RecapRow("Ann", 0, 11, 3, 9),
                       RecapRow("Maximiliane-Louise", 1, 11, 5, 6)), 0, words.KEYS["recap"]),
    "recap_four": RecapView(words.RECAP, words.recap_status(14), (
        RecapRow("Ann", 0, 14, 4, 7), RecapRow("Bob", 1, 14, 6, 12), RecapRow("Box", 2, 14, 2, 8),
        RecapRow("Christopher", 3, 13, 7, 5)), 1, words.KEYS["recap"]),
    "win_recap_key": WinView("Ann", 0, (2, 7, 12), 14, ("Ann: markers to", "2:3  7:13  12:3"), words.win_keys(True)),
    "turn_name_hangul": TurnView("김민준", 0, 3, (7,), ("Ann stopped.",)),
    "stats_people_scripts": StatsView((("김민준", 4), ("さくら", 3), ("Zoë", 1)), 8, words.KEYS["stats"]),
    "continue_list": MenuView(words.CONTINUE, (words.continue_item(41, ("Ann", "Bob"), 17),
                                               words.continue_item(37, ("Maximiliane-Louise", "Red", "Box"), 5)), 0),
    "off": OffView(),
    "off_reason": OffView("Power button: game saved"),
}

#: Samples that show a long player's name cut to fit, on purpose (the test checks they are cut).
CUT_NAMES = {"setup_names", "stats_people", "recap", "recap_four", "continue_list"}


def write_golden(folder: Path = GOLDEN) -> list[Path]:
    """Render every sample as a 1-bit PNG named after it (the golden images)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, view in SAMPLES.items():
        path = folder / f"{name}.png"
        render(view).save(path)
        paths.append(path)
    return paths


LIT = (150, 210, 255)  # a light OLED blue
DARK = (8, 10, 16)
BEZEL = (90, 90, 96)
SCALE = 4


def scaled(image: Image.Image, scale: int = SCALE) -> Image.Image:
    """A frame scaled up (nearest neighbour) in OLED colours, inside a grey bezel."""
    big = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    rgb = Image.new("RGB", big.size, DARK)
    rgb.paste(Image.new("RGB", big.size, LIT), (0, 0), big.convert("L"))
    border = 2 * scale
    framed = Image.new("RGB", (rgb.width + 2 * border, rgb.height + 2 * border), BEZEL)
    framed.paste(rgb, (border, border))
    return framed


CAPTIONS = {
    "turn_first": "A turn starts: the first turn of the game.",
    "turn_after_stop": "A turn starts, once the table has confirmed Red's stop.",
    "turn_after_claim": "A turn starts; Green's claimed columns are tagged in the top bar.",
    "turn_after_bust": "A turn starts after a bust was confirmed.",
    "handover_stop": "After a stop: where the markers go. One ROLL when the board is done rolls the next dice.",
    "handover_box_stop": "A box seat stopped: the one confirm of its turn says where its markers go.",
    "handover_box_bust": "A box seat bust: said for a moment, nothing to confirm; the game moves on.",
    "handover_claim": "A claim: whose markers come off, paged with A/B when long.",
    "handover_claim_page2": "The last page; on a winning stop ROLL then shows the winner.",
    "handover_bust": "A bust, impossible to miss; ROLL confirms (it does not roll for Yellow).",
    "undone_move": "Undo (hold MENU) of a move: what to take back; then the same dice again.",
    "undone_stop": "Undo of a stop: runners back on, markers back where they were.",
    "turn_bot": "The box's turn (a bot) with an 8-character colour name.",
    "turn_alert": "An alert drawn inverted over the top bar.",
    "turn_solo": "One player (solitaire practice).",
    "dice_all_legal": "Dice out: three pairings, all legal (7x2 is a double).",
    "dice_pick_and_illegal": "A and B move one sum of two (2/11 pick), C is illegal (--, hollow label).",
    "dice_one_sum": "Only one sum of each pairing moves.",
    "dice_bot_chose": "A bot's choice highlighted (inverted) before confirming.",
    "dice_bot_pick": "A bot chose pairing A and picked column 11.",
    "dice_alert": "Four sixes, with an alert.",
    "pick": "The chosen pairing moves only one sum: A or B picks the column.",
    "move_speedy": "Speedy variant: each runner says which squares (other markers) it jumped.",
    "move_two_steps": "After a move: what to move on the board and the bust chance of rolling again.",
    "move_top": "A runner reached the top; no runner left.",
    "move_double": "A double: a new runner moved two squares; 0% bust.",
    "move_risky_stop": "Risky variant: stopping is not allowed now.",
    "move_risky_long_note": "A longer stop note: the chance drops to the large font to make room.",
    "move_risky_many": "Risky variant: every runner sharing a square is named.",
    "move_bot": "A bot's move, and what it will do next.",
    "win": "Red wins: claimed columns, turns and the last markers to place.",
    "win_long_name": "A win with an 8-character colour name (large font).",
    "win_nobody": "The game ended with nobody winning.",
    "board_empty": "The board overview at the start (two players).",
    "board_mid_game": "Four players mid-game: a row per player, a bar as high as each marker has climbed, "
                      "the current player's runners as outlines, claimed columns' numbers inverted.",
    "board_two_players": "Two players mid-game: Red to play with runners on 6 and 8; Blue claimed 12.",
    "board_solo": "One player with runners out.",
    "board_game_over": "A finished game: Red claimed 2, 7 and 12.",
    "board_column_players": "Column page: every player's marker and the runner in column 8.",
    "board_column_claimed": "Column page of a claimed column.",
    "board_column_empty": "Column page of an empty column.",
    "board_alert": "The board with an alert.",
    "menu_game": "The in-game menu, cursor on Undo.",
    "menu_scrolled": "The menu scrolled to its last row.",
    "menu_short": "A short menu (no game running).",
    "setup_top": "New-game settings: label left, value right.",
    "setup_scrolled": "Settings scrolled (triangles show hidden rows).",
    "setup_last": "Settings on the last row.",
    "message_confirm": "A yes/no question.",
    "message_long": "A long message word-wrapped in the small font.",
    "hint": "A hint with its reason in plain words and the bust chance.",
    "hint_pairing": "A hint naming a pairing.",
    "stats": "Wins per colour.",
    "stats_empty": "Statistics before any game.",
    "setup_names": "New game with names from the roster; a long name is cut, and who starts is chosen.",
    "stats_people": "Wins per person (the first statistics page; A/B page on to each person).",
    "stats_person": "One person's numbers: games, wins and win rate, busts per turn, solitaire.",
    "stats_person_solo": "A person's solitaire best and average turns per number of columns.",
    "recap": "After a win: each player's turns, busts and biggest turn (the game's biggest inverted).",
    "recap_four": "A four-player recap in the small font.",
    "win_recap_key": "The win screen with B opening the recap.",
    "continue_list": "Games left unfinished, to continue one.",
    "turn_name_hangul": "A player's name in Hangul (Galmuri glyphs beside Spleen).",
    "stats_people_scripts": "Names in Korean, Japanese and with an accent.",
    "off": "Shutting down: safe to unplug.",
    "off_reason": "Shutting down with a reason.",
}


def write_gallery(folder: Path) -> list[Path]:
    """Every sample scaled up 4x in OLED colours, plus a README.md index with captions."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    lines = [
        "# Screen gallery",
        "",
        "Every sample view of `firmware/gallery.py`, rendered by `firmware/screens/`",
        "and scaled up 4x (nearest neighbour, lit pixels in OLED blue, grey bezel).",
        "",
        "Regenerate these with `python -m firmware.gallery docs/gallery`, and the golden",
        "images the tests compare against with `python -m firmware.gallery --golden`",
        "(then look at `git diff --stat tests/screens/golden` and the gallery before committing).",
        "",
    ]
    for name, view in SAMPLES.items():
        path = folder / f"{name}.png"
        scaled(render(view)).save(path)
        paths.append(path)
        lines += [f"## {name}", "", CAPTIONS.get(name, type(view).__name__), "", f"![{name}]({name}.png)", ""]
    (folder / "README.md").write_text("\n".join(lines))
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.gallery", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="write the scaled-up gallery and README.md here")
    parser.add_argument("--golden", action="store_true", help="rewrite tests/screens/golden/*.png")
    args = parser.parse_args(argv)
    if not args.folder and not args.golden:
        parser.error("give a folder for the gallery, or --golden")
    if args.golden:
        print(f"wrote {len(write_golden())} golden images to {GOLDEN}")
    if args.folder:
        print(f"wrote {len(write_gallery(Path(args.folder)))} gallery images to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
