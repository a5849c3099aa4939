"""The gallery and the golden images, made from the sample views (:mod:`firmware.devtools.samples`).

The screen tests compare ``render(view)`` of each sample with
``tests/screens/golden/<name>.png``; the gallery shows them scaled up, in
every language side by side, for people to look at. Each other screen size
(:data:`firmware.screens.LAYOUTS`) has its own folder of both, named after it
(``golden/128x32/``, ``docs/gallery/128x32/``); a frame of several pages is
one image, its pages top to bottom.

    python -m firmware.devtools.gallery docs/gallery   # scaled-up PNGs + README.md index
    python -m firmware.devtools.gallery --golden tests/screens/golden   # rewrite the golden images
"""

from __future__ import annotations

import argparse
import posixpath
import sys
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from PIL import Image

from hw.display import size_name

from firmware import i18n
from firmware.devtools.samples import LANGUAGES, SAMPLES, SAMPLES_AT
from firmware.screens import LAYOUTS, STANDARD, render_pages

def size_folder(folder: Path, size: tuple[int, int] = STANDARD.size) -> Path:
    """The folder of one screen size's images: ``folder`` itself for 128x64, else ``folder/<W>x<H>``."""
    return folder if size == STANDARD.size else folder / size_name(size)


def golden_path(name: str, lang: str, folder: Path, size: tuple[int, int] = STANDARD.size) -> Path:
    """Where the golden image of a sample lives: English at the top, other languages in a folder each."""
    folder = size_folder(folder, size)
    return (folder if lang == "en" else folder / lang) / f"{name}.png"


def sheet(view, size: tuple[int, int] = STANDARD.size) -> Image.Image:
    """The frame for ``view`` at ``size`` as one image: its pages top to bottom (one page: the frame itself)."""
    pages = render_pages(view, size)
    if len(pages) == 1:
        return pages[0]
    out = Image.new(pages[0].mode, (size[0], size[1] * len(pages)), 0)
    for k, page in enumerate(pages):
        out.paste(page, (0, k * size[1]))
    return out


def write_golden(folder: Path) -> list[Path]:
    """Render every sample in every language at every size as a PNG named after it (the golden images)."""
    paths = []
    for size in LAYOUTS:
        for lang, views in SAMPLES_AT[size].items():
            for name, view in views.items():
                path = golden_path(name, lang, folder, size)
                path.parent.mkdir(parents=True, exist_ok=True)
                sheet(view, size).save(path)
                paths.append(path)
    return paths


LIT = (150, 210, 255)  # a light OLED blue
DARK = (8, 10, 16)
BEZEL = (90, 90, 96)
SCALE = 4


def scaled(image: Image.Image, scale: int = SCALE) -> Image.Image:
    """A frame scaled up (nearest neighbour) in OLED colours, inside a grey bezel (grey levels as shades)."""
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
    "move_two_steps": ("After a move: what to move on the board and the bust chance of rolling again (its caption the "
                       "one word \"bust\" where two lines do not fit beside it; on 128x32 on a page of its own)."),
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
    "board_three_players": "Three players: on 128x32 the third player's row is a page of its own.",
    "board_solo": "One player with runners out.",
    "board_game_over": "A finished game: Red claimed 2, 7 and 12.",
    "board_column_players": "Column page: every player's marker and the runner in column 8.",
    "board_column_claimed": "Column page of a claimed column.",
    "board_column_empty": "Column page of an empty column.",
    "board_alert": "The board with an alert.",
    "menu_game": "The in-game menu, cursor on Undo.",
    "menu_scrolled": "The menu scrolled to its last row.",
    "menu_after_win": "The menu after a win: every item in its place; those that cannot be used now are struck through.",
    "menu_short": "A short menu (no game running).",
    "menu_network": "The menu's last row: the box's address on the home network (its network status known).",
    "network": "That row chosen: the box's .local name, its addresses and the Wi-Fi it joined.",
    "wifi_wrong_key": "The Wi-Fi refused wifi.txt's password: said once, and the box plays offline.",
    "wifi_none": "First boot with no wifi.txt and no cable: said once, and the box plays offline.",
    "setup_top": "New-game settings: label left, value right.",
    "setup_scrolled": "Settings scrolled (triangles show hidden rows).",
    "setup_last": "Settings on the last row.",
    "setup_language": "The Language row, before Start: C steps through English, 日本語, 한국어 (each by its own name).",
    "message_confirm": "A yes/no question.",
    "message_long": "A long message word-wrapped in the small font.",
    "hint": "A hint with its reason in plain words and the bust chance.",
    "hint_pairing": "A hint naming a pairing.",
    "stats": "Wins per colour.",
    "stats_empty": "Statistics before any game.",
    "setup_names": "New game with names from the roster; a long name is cut, and who starts is chosen.",
    "stats_people": "Wins per person (the first statistics page, its number in the top bar; A/B page on to each person).",
    "stats_many": "A big group: the second page of wins, four people a page, each bar against the most wins of all.",
    "stats_person": "One person's numbers: games, wins and win rate, busts per turn, solitaire.",
    "stats_person_solo": "A person's solitaire best and average turns per number of columns.",
    "recap": "After a win: each player's turns, busts and biggest turn (the game's biggest inverted).",
    "recap_long": "A long practice: three-digit turns and busts keep their room; the name is cut instead.",
    "recap_four": "A four-player recap in the small font.",
    "win_recap_key": "The win screen with B opening the recap.",
    "continue_list": "Games left unfinished, to continue one.",
    "turn_name_hangul": "A player's name in Hangul (Galmuri glyphs beside Spleen).",
    "stats_people_scripts": "Names in Korean, Japanese and with an accent.",
    "phone": "Menu, Phone: the pairing page's address with its one-time code as a QR code, and the code to type.",
    "phone_wait": "Menu, Phone, the moment before the box has made its code.",
    "off": "Shutting down: safe to unplug.",
    "off_reason": "Shutting down with a reason.",
}


def shown(view, size: tuple[int, int] = STANDARD.size) -> Image.Image:
    """A sample as the gallery shows it: each page scaled up in its bezel, pages top to bottom."""
    pages = [scaled(page) for page in render_pages(view, size)]
    if len(pages) == 1:
        return pages[0]
    gap = 2 * SCALE
    out = Image.new("RGB", (pages[0].width, sum(p.height for p in pages) + gap * (len(pages) - 1)), (255, 255, 255))
    for k, page in enumerate(pages):
        out.paste(page, (0, k * (page.height + gap)))
    return out


def write_gallery(folder: Path, names: Iterable[str] | None = None) -> list[Path]:
    """Every sample at every size scaled up 4x in OLED colours, in every language, with a README.md index each.

    128x64 images are ``<name>.png`` (English) and ``<lang>/<name>.png``; each other size is
    the same in a folder named after it, linked from the first index. ``names``: only these samples
    (in the samples' order; a test's share), else all of them.
    """
    wanted = set(SAMPLES if names is None else names)
    chosen = [name for name in SAMPLES if name in wanted]
    paths = []
    for size in LAYOUTS:
        paths += _write_size(size_folder(folder, size), size, chosen)
    return paths


def _write_size(folder: Path, size: tuple[int, int], chosen: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    names = " | ".join(i18n.NAMES[lang] for lang in LANGUAGES)
    label = LAYOUTS[size].name
    here = size_folder(PurePosixPath("."), size)
    others = [f"[{layout.name}]({posixpath.relpath(size_folder(PurePosixPath('.'), other) / 'README.md', here)})"
              for other, layout in LAYOUTS.items() if other != size]
    lines = [
        f"# Screen gallery: {label}",
        "",
        *([f"Other screen sizes: {', '.join(others)}.", ""] if others else []),
        f"Every sample view of `firmware/devtools/samples.py`, rendered by `firmware/screens/` for a {label} screen",
        "and scaled up 4x (nearest neighbour, lit pixels in OLED blue, grey bezel; a frame of several",
        "pages shows them top to bottom),",
        f"side by side in every language the box speaks ({', '.join(i18n.NAMES[lang] for lang in LANGUAGES)}).",
        "The Japanese and Korean samples are the English ones said through the words",
        "module in that language (`samples(lang)`), so they show what the box says.",
        "",
        "Regenerate these with `python -m firmware.devtools.gallery docs/gallery` (`make gallery`), and the golden",
        "images the tests compare against with `make golden`",
        "(then look at `git diff --stat tests/screens/golden` and the gallery before committing).",
        "",
    ]
    for name in chosen:
        cells = []
        for lang in LANGUAGES:
            rel = f"{name}.png" if lang == "en" else f"{lang}/{name}.png"
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            shown(SAMPLES_AT[size][lang][name], size).save(path)
            paths.append(path)
            cells.append(f"![{name} {lang}]({rel})")
        lines += [f"## {name}", "", CAPTIONS.get(name, type(SAMPLES[name]).__name__), "",
                  f"| {names} |", "|" + "---|" * len(LANGUAGES), "| " + " | ".join(cells) + " |", ""]
    (folder / "README.md").write_text("\n".join(lines))
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.devtools.gallery", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="write the scaled-up gallery and README.md here")
    parser.add_argument("--golden", metavar="FOLDER", type=Path,
                        help="rewrite the golden images the tests compare against in FOLDER (tests/screens/golden)")
    args = parser.parse_args(argv)
    if not args.folder and not args.golden:
        parser.error("give a folder for the gallery, or --golden FOLDER")
    if args.golden:
        written = write_golden(args.golden)
        print(f"wrote {len(written)} golden images to {args.golden} ({', '.join(layout.name for layout in LAYOUTS.values())})")
    if args.folder:
        print(f"wrote {len(write_gallery(Path(args.folder)))} gallery images to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
