"""The screens of a turn in play: whose turn it is, the dice and pairings, the pick, the move."""

from __future__ import annotations

from ..views import DiceView, MoveView, Option, PickView, TurnView
from .frame import legend, top_bar, who
from .icons import claim_tags, column_tag, die
from .kit import BODY_BOTTOM, BODY_TOP, INK_TOP, PITCH, Canvas, cut_names, width_of, wrap, wrap_all

BODY_SPACE = BODY_BOTTOM - BODY_TOP + 1
PAIRING_TOP = 24  # the dice screen's row of A B C tabs, under the dice


# ---- turn ----------------------------------------------------------------


def _turn_layout(c: Canvas, heading: str, note: tuple[str, ...], player: str = "",
                 names: tuple[str, ...] = (), space: int = BODY_SPACE) -> tuple[str, str, list[str]]:
    """Heading font, note font and the wrapped note lines: the largest fonts that fit the body.

    A name too long for the note's room ("Maximiliane-... starts.", with the rules under it; a long name
    in kana or Hangul, which wraps anywhere, "김김김… stopped.") is cut in the note, the player's and
    ``names`` (those the note names), so that the rest of the note keeps its lines: a cut name, never a
    lost rule or a lost "stopped".
    """
    for head_font, note_font in (("large", "medium"), ("large", "small"), ("medium", "small")):
        notes = wrap_all(note, c.width, note_font)
        need = PITCH[head_font] + 1 + len(notes) * PITCH[note_font]
        if need <= space and width_of(heading, head_font) <= c.width:
            return head_font, note_font, notes
    head_font, note_font = "medium", "small"
    note, cut = cut_names(note, (player, *names), c.width, note_font)
    for name in cut:
        c.cut(name)
    notes = wrap_all(note, c.width, note_font)
    keep = (space - PITCH[head_font] - 1) // PITCH[note_font]
    if len(notes) > keep:
        c.cut(" / ".join(note))
        notes = notes[:keep]
    return head_font, note_font, notes


def turn_bar(c: Canvas, v: TurnView, rule: int = 9) -> None:
    """The turn's top bar: who plays, the round, and their claimed columns as tags."""
    name = who(c, v.player, v.bot)
    status = c.words.turn_status(v.turn)
    tags_w = sum(width_of(str(col), "small") + 3 for col in v.claims)
    if tags_w + width_of(status, "small") + width_of(name, "small") + 14 > c.width:
        status = c.words.turn_status(v.turn, short=True)
    top_bar(c, name, status, v.seat, v.alert, reserve=tags_w + 2, rule=rule)
    if v.claims and not v.alert:
        # claimed columns as inverted tags just left of the status
        claim_tags(c, v.claims, c.width - width_of(status, "small") - 3, 0)


def turn(c: Canvas, v: TurnView) -> None:
    turn_body(c, v)
    legend(c, v.keys)


def turn_body(c: Canvas, v: TurnView, space: int = BODY_SPACE) -> None:
    """The turn screen but its legend: the top bar, the heading and the note over ``space`` rows of body."""
    turn_bar(c, v)
    heading = c.words.turn_heading(v.player, v.bot)
    head_font, note_font, notes = _turn_layout(c, heading, v.note, v.player, v.note_names, space)
    c.center(BODY_TOP - INK_TOP[head_font], heading, head_font)
    y = BODY_TOP + PITCH[head_font] + 1
    c.lines(y - INK_TOP[note_font], notes, note_font, PITCH[note_font])


# ---- dice ----------------------------------------------------------------


def dice(c: Canvas, v: DiceView) -> None:
    dice_body(c, v)
    legend(c, v.keys)


def dice_body(c: Canvas, v: DiceView) -> None:
    """The dice screen but its legend: the top bar, the four dice and the three pairings under them."""
    chosen_label = v.chosen.split(":", 1)[0] if v.chosen else None
    status = c.words.dice_status(v.bot, chosen_label)
    top_bar(c, who(c, v.player, v.bot), status, v.seat, v.alert)
    for i, value in enumerate(v.dice):
        die(c, c.width // 8 + c.width // 4 * i, BODY_TOP, value)
    cell = (c.width - 2) // 3  # each pairing's cell, one pixel apart: 42 wide on 128 pixels
    for i, option in enumerate(v.options):
        _pairing_cell(c, i * (cell + 1), cell, option, option.label == chosen_label, v.chosen)
        if i:  # the rule between two cells, under the dice
            c.draw.line((i * (cell + 1) - 1, PAIRING_TOP + 1, i * (cell + 1) - 1, BODY_BOTTOM), fill=c.grey)


def _pairing_cell(c: Canvas, x0: int, cell: int, option: Option, on: bool, chosen: str | None) -> None:
    """One pairing under its button, ``cell`` wide: the label tab, what it moves, and the dice as paired.

    The chosen one is highlighted (``Canvas.mark_fill``: inverted on a 1-bit screen, a grey fill on a grey one).
    """
    y = PAIRING_TOP  # label row; sums below it, then the dice as paired (medium, to be read across the table)
    bg, fg = (c.mark_fill, c.mark_ink) if on else (0, c.lit)
    if on:
        c.draw.rectangle((x0, y - 1, x0 + cell - 1, BODY_BOTTOM), fill=bg)
    # the label: a filled tab when the pairing is legal, hollow when not
    mid = x0 + cell // 2
    tab = (mid - 6, y, mid + 5, y + 8)
    if option.effect != "none":
        c.draw.rectangle(tab, fill=fg)
        c.raw((mid - 2, y + 1), option.label, "small", fill=bg)
    else:
        c.draw.rectangle(tab, outline=fg)
        c.raw((mid - 2, y + 1), option.label, "small", fill=fg)
    big = chosen_sum(option, chosen) or option.text
    c.center(y + 10 - INK_TOP["large"], big, "large", fill=fg, x0=x0, x1=x0 + cell)
    (p, q), (r, s) = option.pairs
    # the two pairs in the medium font, 2 pixels apart ("2+3 4+5" with a whole space is too wide for the cell);
    # a rule between the cells (drawn by dice) keeps them from reading as one line with the next cell's
    first, second = f"{p}+{q}", f"{r}+{s}"
    gap = 2
    left = x0 + (cell - (width_of(first, "medium") + gap + width_of(second, "medium"))) // 2
    c.raw((left, y + 21 - INK_TOP["medium"]), first, "medium", fill=fg)
    c.raw((left + width_of(first, "medium") + gap, y + 21 - INK_TOP["medium"]), second, "medium", fill=fg)


def chosen_sum(option: Option, chosen: str | None) -> str | None:
    """A box seat that picked one sum of this pairing ("A:11"): that sum alone."""
    if chosen and ":" in chosen:
        label, column = chosen.split(":", 1)
        if label == option.label:
            return column
    return None


# ---- pick ----------------------------------------------------------------


def pick(c: Canvas, v: PickView) -> None:
    pick_body(c, v)
    legend(c, v.keys)


def pick_body(c: Canvas, v: PickView, bottom: int = BODY_BOTTOM) -> None:
    """The pick but its legend: the top bar with the dice, the question, and A and B in boxes down to row
    ``bottom``, each with its column in the huge font, in the middle of its box."""
    top_bar(c, v.player, " ".join(map(str, v.dice)), v.seat, v.alert)
    c.center(BODY_TOP - 1, c.words.pick_question(v.label), "medium")
    half = c.width // 2
    tag = 25 + (bottom - 25 - 15) // 2  # the key's tag, 16 rows, in the middle of the box: row 32 on 128x64
    for i, (key, column) in enumerate(zip("AB", v.choices)):
        x0 = 2 + i * half
        box = (x0, 25, x0 + half - 5, bottom)
        c.draw.rounded_rectangle(box, radius=4, outline=c.lit)
        c.draw.rounded_rectangle((x0 + 5, tag, x0 + 18, tag + 15), radius=2, fill=c.lit)
        c.raw((x0 + 8, tag - 1), key, "large", fill=0)
        c.center(tag + 1 - INK_TOP["huge"], str(column), "huge", x0=x0 + 16, x1=x0 + half - 4)


# ---- move ----------------------------------------------------------------


def move_lines(c: Canvas, v: MoveView, room: int, final: bool = False) -> list[str]:
    """The words beside the chance: why a stop is refused, the bot's next action, or the plain warning.

    A stop note too long for two lines has its names cut (``v.note_names``, the longest first), noted as
    cuts when ``final`` (the room the painter settled on): a cut name, never a lost reason.
    """
    if v.stop_note and not v.can_stop:
        (note,), cut = cut_names((v.stop_note,), v.note_names, room, "small",
                                 enough=lambda lines: len(wrap(lines[0], room, "small")) <= 2)
        for name in cut if final else ():
            c.cut(name)
        lines = [c.words.SCREEN["cant_stop_colon"], *wrap(note, room, "small")]
        return lines if len(lines) <= 2 else wrap(note, room, "small")
    if v.bot and v.bot_next:
        return list(c.words.bot_will(v.bot_next))
    return list(c.words.SCREEN["bust_if"])


def move(c: Canvas, v: MoveView) -> None:
    move_body(c, v)
    legend(c, v.keys)


#: Pixels between the chance's cell and the words beside it; ``CLOSE`` where that keeps the caption medium (the
#: huge "%" ends a column short of its cell: three dark columns still part it from the caption's first letter).
GAP, CLOSE = 4, 2


def is_caption(v: MoveView) -> bool:
    """Whether the words beside the chance are the bust caption ("bust if you / roll again")."""
    return not (v.stop_note and not v.can_stop) and not (v.bot and v.bot_next)


def move_body(c: Canvas, v: MoveView, bottom: int = BODY_BOTTOM) -> None:
    """The move screen but its legend, on one page: the top bar, what to do with each runner, the chance of a
    bust over rows down to ``bottom``, and the words beside it.

    The bust caption is read at arm's length (issue 32): its two lines in the medium font beside the chance
    under the runners where they fit; else (two runners leave 16 rows on 128x64, a Japanese caption is wider
    than a five-character chance leaves) its one word (``SCREEN["bust_word"]``: "bust", 「バースト」) beside
    the chance in the large font (a medium "bust", with no descender, has only 8 rows of ink), or the medium one
    where the large is too wide. The move stays one page: a flip would hide what to move half of the time. A
    risky note or a box seat's next action is medium where it fits, else small.
    """
    status = c.words.free_runners(v.free_runners) if v.can_stop or not v.stop_note else c.words.SCREEN["cant_stop"]
    top_bar(c, who(c, v.player, v.bot), status, v.seat, v.alert)
    for i, step in enumerate(v.steps[:2]):
        y = BODY_TOP + i * 14
        column_tag(c, 0, y, step.column)
        text = (c.words.box_runner_step(step.step, step.top) if v.bot
                else c.words.runner_step(step.step, step.new, step.top, step.jumped))
        if width_of(text, "medium") <= c.width - 24:
            c.raw((24, y), text, "medium")
        else:  # a two-digit square and the squares it jumped: the small font, not a cut instruction
            c.text((24, y + 3), text, "small")
    if len(v.steps) > 2:
        c.cut(repr(v.steps))
    chance = c.words.percent(v.bust)
    caption = is_caption(v)
    # the chance in the huge font; the large (or medium) one when a stop note needs the room (the caption has its
    # one word: the chance stays huge beside it)
    for font_name in ("huge",) if caption else ("huge", "large", "medium"):
        x = width_of(chance, font_name) + GAP
        lines = move_lines(c, v, c.width - x)
        if len(lines) <= 2 and all(width_of(line, "small") <= c.width - x for line in lines):
            break  # ">99.9%" in the huge font leaves too little room for "Board: as is"
    lines = move_lines(c, v, c.width - x, final=True)
    if len(lines) > 2:
        c.cut(" ".join(lines))
        lines = lines[:2]
    _chance(c, chance, font_name, bottom)
    free = BODY_TOP + 14 * min(2, len(v.steps))  # the first row under the runners
    starts = (x, x - GAP + CLOSE) if caption else (x,)
    font = "medium"
    at = _beside(c, lines, font, starts, free, bottom)
    if at is None and caption:  # the caption's one word beside the chance: large (a medium "bust" has 8 rows)
        word = [c.words.SCREEN["bust_word"]]
        for font in ("large", "medium"):
            at = _beside(c, word, font, starts, free, bottom)
            if at is not None:
                lines = word
                break
    if at is not None:
        top = bottom + 1 - len(lines) * PITCH[font]
        c.lines(top - INK_TOP[font], lines, font, PITCH[font], x=at)
    else:  # a risky note or a box seat's next action (or a translation's caption, word too) too big: small
        c.lines(bottom - 15, lines, "small", 8, x=x)


def _chance(c: Canvas, chance: str, font_name: str, bottom: int) -> None:
    """The chance at the bottom left, its ink ending near row ``bottom``."""
    if font_name == "huge":
        c.raw((0, bottom - 18 - INK_TOP["huge"] + 1), chance, "huge")
    elif font_name == "large":
        c.raw((0, bottom - 13 - INK_TOP["large"] + 1), chance, "large")
    else:  # ">99.9%" beside a risky note of two lines
        c.raw((0, bottom - 11 - INK_TOP["medium"] + 1), chance, "medium")


def _beside(c: Canvas, lines: list[str], font: str, starts: tuple[int, ...], free: int, bottom: int) -> int | None:
    """Where ``lines`` start in ``font`` beside the chance, in the rows from ``free`` to ``bottom``: the first of
    ``starts`` (the usual gap, then closer) whose room fits them; None: the rows or the width do not."""
    if len(lines) * PITCH[font] > bottom + 1 - free:
        return None
    return next((at for at in starts if all(width_of(line, font) <= c.width - at for line in lines)), None)
