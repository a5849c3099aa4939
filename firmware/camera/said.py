"""What a camera's verdict says to the table: one line a finding, in the words of the box's language.

One owner for the box's screen (:func:`firmware.ui.camera.verdict_lines`) and the web page
(:func:`web.camera.finding_lines`): a marker on a column another seat claimed is said as "Take Blue off 6:
Red claimed it", so the sentences on the page are the screen's, word for word.
"""

from __future__ import annotations

from sight.layout import RUNNER


def verdict_lines(w, verdict, claimed=(), colours=()) -> tuple[str, ...]:
    """``verdict`` (a :class:`sight.verdict.Verdict`) in the words ``w`` speak; ``claimed`` the game's
    claims (the seat that claimed each column, by column number; -1 for none) and ``colours`` the seats'."""
    if verdict.state == "blind":
        return (w.blind_line(verdict.why),)
    if verdict.state == "right":
        return (w.board_right(),)
    if verdict.state == "unsure":
        return (w.board_unsure(len(verdict.unsure)),)
    out = []
    for f in verdict.wrong:
        owner = ""
        if f.what == "extra" and f.kind != RUNNER and 0 <= f.column < len(claimed):
            seat = claimed[f.column]
            owner = colours[seat] if 0 <= seat < len(colours) else ""
            owner = "" if owner == f.kind else owner
        out.append(w.finding_line(f.what, f.kind, f.column, f.should, f.seen, owner))
    return tuple(out)
