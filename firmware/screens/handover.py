"""Between turns: what to do on the board after a stop, a bust or an undo, and the win."""

from __future__ import annotations

from ..views import InstructionsView, WinView
from .frame import legend, top_bar
from .kit import BODY_BOTTOM, BODY_TOP, INK_TOP, PITCH, Canvas, width_of, wrap, wrap_all

BODY_SPACE = BODY_BOTTOM - BODY_TOP + 1
#: Heading and note fonts a win screen tries, largest first.
WIN_FONTS = (("huge", "small"), ("large", "medium"), ("large", "small"), ("medium", "small"))


def instructions(c: Canvas, v: InstructionsView) -> None:
    """Physical steps: a title bar, an optional large line, then up to four medium lines."""
    status = f"{v.page}/{v.pages}" if v.pages > 1 else ""
    top_bar(c, v.title, status, v.seat, v.alert)
    y = BODY_TOP
    if v.big:
        c.draw.rectangle((0, y, c.width - 1, y + PITCH["large"]), fill=c.lit)
        c.center(y + 1 - INK_TOP["large"], c.fit(v.big, c.width - 2, "large"), "large", fill=0)
        y += PITCH["large"] + 3
    keep = (BODY_BOTTOM + 1 - y) // PITCH["medium"]
    lines = list(v.lines)
    if len(lines) > keep or any(width_of(line, "medium") > c.width for line in lines):
        c.cut(" / ".join(v.lines))
    shown = [c.fit(line, c.width, "medium") for line in lines[:keep]]
    c.lines(y - INK_TOP["medium"], shown, "medium", PITCH["medium"])
    legend(c, v.keys)


def _win_layout(c: Canvas, heading: str, note: tuple[str, ...], claims_rows: int) -> tuple[str, str, list[str]]:
    """Heading font, note font and the note lines: the largest fonts that fit the body under ``claims_rows`` rows."""
    for head_font, note_font in WIN_FONTS:
        if width_of(heading, head_font) > c.width:
            continue
        notes = wrap_all(note, c.width, note_font)
        need = PITCH[head_font] + 1 + claims_rows + len(notes) * PITCH[note_font]
        if need <= BODY_SPACE:
            return head_font, note_font, notes
    head_font, note_font = "medium", "small"
    notes = wrap_all(note, c.width, note_font)
    keep = max(0, (BODY_SPACE - PITCH[head_font] - claims_rows - 1) // PITCH[note_font])
    if len(notes) > keep:
        c.cut(" / ".join(note))
    return head_font, note_font, notes[:keep]


def _claims_lines(c: Canvas, claims: str) -> tuple[str, list[str]]:
    """The claimed columns' line: medium when it fits, else small, wrapped (eight columns or more to win)."""
    if width_of(claims, "medium") <= c.width:
        return "medium", [claims]
    return "small", wrap(claims, c.width, "small")


def win(c: Canvas, v: WinView) -> None:
    if v.player is None:
        top_bar(c, c.words.SCREEN["game_over_title"], c.words.turns_count(v.turns), None, v.alert)
    else:
        top_bar(c, v.player, c.words.turns_count(v.turns), v.seat, v.alert)
    heading = c.words.win_heading(v.player)
    claims = c.words.win_claims(v.player, v.claims, v.turns)
    claims_font, claims_lines = _claims_lines(c, claims)
    gap = 1 if claims_font == "medium" else 0  # under the medium line a row apart; small lines have their own
    head_font, note_font, notes = _win_layout(c, heading, v.note, PITCH[claims_font] * len(claims_lines) + gap)
    y = BODY_TOP
    c.center(y - INK_TOP[head_font], heading, head_font)
    y += PITCH[head_font] + 1
    for line in claims_lines:
        c.center(y - INK_TOP[claims_font], line, claims_font)
        y += PITCH[claims_font]
    y += gap
    c.lines(y - INK_TOP[note_font], notes, note_font, PITCH[note_font])
    legend(c, v.keys)
