"""A turn in play on 128x32: whose turn, the dice and pairings, the pick, the move. Each a decision: one page.

The turn screen keeps its legend (ROLL:roll MENU:menu) under the heading; the
note about the last turn follows on pages of its own, the legend on each.
The dice and pick screens have no legend: A B C sit on the pairings' tabs. The
move screen keeps its legend (ROLL:roll STOP:stop) on its bottom rows, since
a newcomer cannot guess which button banks the climb; two runners then take a
small-font row each above it. The top bar keeps who plays; the move screen's
top bar says the chance of busting (or that a stop is not allowed) instead of
the free runners.
"""

from __future__ import annotations

from functools import partial

from ...views import DiceView, MoveView, Option, PickView, TurnView
from .. import game as standard
from ..frame import who
from ..kit import INK_TOP, Canvas, width_of
from .frame import BODY_TOP, BOTTOM, LEGEND_Y, LINE, RULE, alert_band, bar, flow, keys, text_blocks

#: A runner's row in the small font when two share the rows above the legend (8..23, the rule given up).
SMALL_LINE = 8


def turn(c: Canvas, v: TurnView) -> None:
    """Page 1: the top bar, the heading and the legend (ROLL rolls, MENU opens the menu: a newcomer learns the
    keys from the screen, not from a wrong press); then the note, two lines a page with the legend on each."""
    standard.turn_bar(c, v, rule=RULE)
    c.headline(BODY_TOP + 1, c.words.turn_heading(v.player, v.bot))
    keys(c, v.keys)
    if v.note:  # the note names the player it is about ("Red stops:"): no top bar, two lines to a page
        flow(c, partial(alert_band, c, v.alert), text_blocks(c, v.note), v.keys, fresh=True, every_page=True)


# ---- dice ----------------------------------------------------------------


def dice(c: Canvas, v: DiceView) -> None:
    """The dice in the top bar; under each button's tab what the pairing moves, and the dice as paired."""
    chosen_label = v.chosen.split(":", 1)[0] if v.chosen else None
    bar(c, who(c, v.player, v.bot), " ".join(map(str, v.dice)), v.seat, v.alert)
    cell = (c.width - 2) // 3  # each pairing's cell, one pixel apart: 42 wide, as on 128x64
    for i, option in enumerate(v.options):
        _pairing(c, i * (cell + 1), cell, option, option.label == chosen_label, v.chosen)


def _pairing(c: Canvas, x0: int, cell: int, option: Option, on: bool, chosen: str | None) -> None:
    """One pairing in its cell: its label tab (hollow when illegal), the sums large, the dice small; inverted when chosen."""
    bg, fg = (c.mark_fill, c.mark_ink) if on else (0, c.lit)
    if on:
        c.draw.rectangle((x0, RULE + 1, x0 + cell - 1, BOTTOM), fill=bg)
    tab = (x0, 12, x0 + 8, 20)
    legal = option.effect != "none"
    c.draw.rectangle(tab, fill=fg if legal else None, outline=fg)
    c.raw((x0 + 2, 12), option.label, "small", fill=bg if legal else fg)
    big = standard.chosen_sum(option, chosen) or option.text
    # two two-digit sums ("10+11") are wider than the large font leaves beside the tab: the medium one then
    font_name = "large" if width_of(big, "large") <= cell - 10 else "medium"
    c.center(BODY_TOP - INK_TOP[font_name] + (1 if font_name == "medium" else 0), big, font_name, fill=fg,
             x0=x0 + 10, x1=x0 + cell)
    (p, q), (r, s) = option.pairs
    c.center(BOTTOM - 7, f"{p}+{q} {r}+{s}", "small", fill=fg, x0=x0, x1=x0 + cell)


# ---- pick ----------------------------------------------------------------


def pick(c: Canvas, v: PickView) -> None:
    """The question in the top bar; A and B each with its column in the huge font."""
    bar(c, c.words.pick_question(v.label), "", v.seat, v.alert)
    half = c.width // 2
    c.draw.line((half - 1, BODY_TOP, half - 1, BOTTOM), fill=c.lit)
    for i, (key, column) in enumerate(zip("AB", v.choices)):
        x0 = i * half
        c.draw.rounded_rectangle((x0 + 3, 12, x0 + 16, 29), radius=2, fill=c.lit)
        c.raw((x0 + 6, 13 - INK_TOP["large"]), key, "large", fill=0)
        c.center(BODY_TOP - INK_TOP["huge"], str(column), "huge", x0=x0 + 18, x1=x0 + half - 2)


# ---- move ----------------------------------------------------------------


def _move_status(c: Canvas, v: MoveView) -> tuple[str, str]:
    """The top bar: a box seat's next action, a stop refused, or the chance of busting if the player rolls."""
    if v.bot and v.bot_next:
        return who(c, v.player, v.bot), v.bot_next.upper()  # the button the box presses next
    if v.stop_note and not v.can_stop:
        return who(c, v.player, v.bot), c.words.SCREEN["cant_stop"]
    return who(c, v.player, v.bot), c.words.bust_status(v.bust)


def move(c: Canvas, v: MoveView) -> None:
    """What to move, a row each, and the legend, under a top bar with the chance; then a page of the chance.

    Without a legend each runner has a medium-font row; with one, a single
    runner keeps its medium row and two runners get a small-font row each
    (rows 8..23: the top bar's rule gives its row; the inverted column tags
    keep the rows apart). Under an alert with two runners the alert's band is
    a row shorter (rows 0..7, its text a row higher), so the runners and the
    legend keep their rows. The second page is the chance in the large font
    with the words beside it and the legend: the bust caption in the medium
    font, to be read at arm's length (the top bar of the first said
    "bust 23.9%" in the small one), or why a stop is refused, or what the box
    does next, or the chance an alert took from the top bar.
    """
    name, status = _move_status(c, v)
    header = partial(bar, c, name, status, v.seat, v.alert)
    compact = bool(v.keys) and len(v.steps) > 1
    if compact and v.alert:  # the alert's band a row shorter: row 8 goes to the first runner
        _short_alert(c, v.alert)
    else:
        header()
    legend_keys = v.keys
    if compact:  # kana, kanji and Hangul fill all 8 rows of the small font: the rule's row goes to the runners
        c.draw.line((0, RULE, c.width - 1, RULE), fill=0)
    for i, step in enumerate(v.steps[:2]):
        if compact:
            _small_step(c, RULE + i * SMALL_LINE, step, v.bot)
        else:
            _step(c, BODY_TOP + i * LINE, step, v.bot)
    if legend_keys:
        keys(c, legend_keys)
    if len(v.steps) > 2:
        c.cut(repr(v.steps))
    c.new_page()
    # this page is the chance, its words, the legend; an alert's band a row shorter (rows 0..7), so that two
    # lines of words keep their rows above the legend
    top = _short_alert(c, v.alert) if v.alert else alert_band(c, None)
    _chance(c, v, top)
    if legend_keys:
        keys(c, legend_keys)


def _short_alert(c: Canvas, alert: str) -> int:
    """The alert on rows 0..7 (the top bar's band a row shorter); returns the first free row."""
    c.draw.rectangle((0, 0, c.width - 1, RULE - 1), fill=c.lit)
    c.text((2, 0), "! " + alert, "small", fill=0, width=c.width - 4)
    return RULE


def _step(c: Canvas, y: int, step, bot: bool) -> None:
    """A runner's instruction: its column inverted, then what to do with it (small when the medium is too wide)."""
    c.draw.rectangle((0, y, 14, y + 9), fill=c.lit)
    c.center(y - INK_TOP["medium"], str(step.column), "medium", fill=0, x0=0, x1=15)
    text = (c.words.box_runner_step(step.step, step.top) if bot
            else c.words.runner_step(step.step, step.new, step.top, step.jumped))
    if width_of(text, "medium") <= c.width - 17:
        c.raw((17, y - INK_TOP["medium"]), text, "medium")
    else:
        c.text((17, y + 2), text, "small")


def _small_step(c: Canvas, y: int, step, bot: bool) -> None:
    """A runner's instruction in an 8-row band: its column inverted in the small font, then what to do."""
    c.draw.rectangle((0, y, 14, y + SMALL_LINE - 1), fill=c.lit)
    c.center(y, str(step.column), "small", fill=0, x0=0, x1=15)
    text = (c.words.box_runner_step(step.step, step.top) if bot
            else c.words.runner_step(step.step, step.new, step.top, step.jumped))
    c.text((17, y), text, "small")


def _chance(c: Canvas, v: MoveView, top: int) -> None:
    """The chance in the large font and, beside it, the words the 128x64 move screen puts there: the bust
    caption in the medium font where its two lines fit the rows (not under an alert) and the width, else small."""
    chance = c.words.percent(v.bust)
    for font_name in ("large", "medium"):  # the medium font when a wide chance (">99.9%") leaves too little room
        x = width_of(chance, font_name) + standard.GAP
        lines = standard.move_lines(c, v, c.width - x)
        if len(lines) <= 2 and all(width_of(line, "small") <= c.width - x for line in lines):
            break
    lines = standard.move_lines(c, v, c.width - x, final=True)
    if len(lines) > 2:
        c.cut(" ".join(lines))
        lines = lines[:2]
    # from row ``top`` to the legend's: the chance's ink in the middle, the words a line each
    room = LEGEND_Y - top
    ink = {"large": 10, "medium": 8}[font_name]
    c.raw((0, top + (room - ink) // 2 - INK_TOP[font_name]), chance, font_name)
    if standard.is_caption(v) and len(lines) * LINE < room:
        at = next((at for at in (x, x - standard.GAP + standard.CLOSE)
                   if all(width_of(line, "medium") <= c.width - at for line in lines)), None)
        if at is not None:  # a row under the last line before the legend
            c.lines(top + (room - 1 - LINE * len(lines)) // 2, lines, "medium", LINE, x=at)
            return
    pitch = 8
    c.lines(top + max(0, (room - pitch * len(lines)) // 2), lines, "small", pitch, x=x)
