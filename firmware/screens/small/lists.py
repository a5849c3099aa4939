"""Lists on 128x32: the menu and the new-game setup (two rows and the legend), and the wins per player.

A list one chooses from keeps its legend (A/B move, C changes, ROLL chooses
are not evident from the rows) and drops its title: the rows say what they
are. The wins are read, not chosen from: two to a page under the top bar (the UI hands
them four at a time, A/B turning to the next four, as on 128x64).
"""

from __future__ import annotations

from functools import partial

from ...views import MenuView, SetupView, StatsView
from .. import lists as standard
from ..kit import ROW_PITCH, Canvas, width_of
from .frame import BODY_TOP, LEGEND_Y, LINE, alert_band, bar, flow, keys


def _choices(c: Canvas, items: list[tuple[str, str]], cursor: int, alert: str | None, legend: str,
             off: tuple[int, ...] = ()) -> None:
    top = alert_band(c, alert) + 1
    standard.rows(c, items, cursor, top=top, room=max(1, (LEGEND_Y - top) // ROW_PITCH), off=off)
    keys(c, legend)


def menu(c: Canvas, v: MenuView) -> None:
    _choices(c, [(item, "") for item in v.items], v.cursor, v.alert, v.keys, v.off)


def setup(c: Canvas, v: SetupView) -> None:
    _choices(c, list(v.rows), v.cursor, v.alert, v.keys)


def stats(c: Canvas, v: StatsView) -> None:
    """Each player's wins as a name, a bar and a count, two to a page; the legend on the last."""
    header = partial(bar, c, standard.stats_title(c, v), c.words.games_count(v.games), None, v.alert)
    if not v.rows:
        header()
        c.center(BODY_TOP, c.words.SCREEN["no_games"], "medium")
        keys(c, v.keys)
        return
    most = max([v.most or 0, *(wins for _, wins in v.rows)]) or 1
    name_w = min(54, max(width_of(name, "medium") for name, _ in v.rows))
    blocks = [(LINE, lambda y, name=name, wins=wins: standard.wins_row(c, y, name, wins, most, name_w, pitch=LINE))
              for name, wins in v.rows]
    flow(c, header, blocks, v.keys)
