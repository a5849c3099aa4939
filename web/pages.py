"""Whole HTML pages: the layout, the history, one game step by step, the statistics, not found.

Every stored text (names, colours, problems) goes through :func:`board.e`.
Only the box's own files are linked: no page loads anything from elsewhere.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from engine import CantStopError

from firmware import i18n, words
from firmware.table import person_stats as people
from firmware.table.records import duration_text, rounds
from firmware.table.seat import called, seats_from_meta

from . import board
from .board import e, seat_classes
from . import turns
from .live import event_text, step_dice, step_options
from .text import in_language

PAGE_SIZE = 20
COLUMNS = ("game", "started", "players", "rounds", "winner", "duration", "status")  # the history's, as `history` has them
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def layout(lang: str, title: str, body: str, *, nav: str = "", script: str | None = None,
           path: str = "/", head: str = "", page: str = "") -> str:
    """A whole page; ``page`` is the body's class (``live``: the page a landscape screen fits to its height)."""
    t = in_language(lang)
    links = [("live", "/", t["live"]), ("history", "/games", t["history"]), ("people", "/people", t["people"])]
    menu = "".join(f'<a href="{href}"' + (' aria-current="page"' if key == nav else "") + f'>{e(label)}</a>'
                   for key, href, label in links)
    langs = "".join(f'<a href="{e(path)}?lang={code}" lang="{code}"' + (' aria-current="true"' if code == lang else "")
                    + f">{e(i18n.NAMES[code])}</a>" for code in i18n.LANGUAGES)
    js = f'<script src="/static/{script}" defer></script>' if script else ""
    classes = f' class="{page}"' if page else ""
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{e(title)} · {e(t["title"])}</title><link rel="stylesheet" href="/static/style.css">'
            f'<link rel="stylesheet" href="/static/seats.css"><link rel="icon" href="/static/icon.svg">{js}{head}</head>'
            f'<body{classes}><header><span class="brand">{e(t["title"])}</span><nav>{menu}</nav>'
            f'<nav class="langs" aria-label="{e(t["language"])}">{langs}</nav></header>'
            f'<main>{body}</main></body></html>')


#: Without JavaScript the live page reloads itself this often (seconds): it still follows the game.
NOSCRIPT_REFRESH = 5


def live_page(lang: str, fragment: str, version: int) -> str:
    """The live game: the fragment (replaced in place by live.js), and one line a screen reader announces
    (``#say``, outside the replaced part, so it is the same element from change to change)."""
    t = in_language(lang)
    body = f'<div id="live" data-version="{version}" data-lang="{lang}">{fragment}</div>' \
           f'<p class="sr" id="say" aria-live="polite" role="status"></p>' \
           f'<p class="conn" id="conn" hidden>{e(t["reconnecting"])}</p>'
    refresh = f'<noscript><meta http-equiv="refresh" content="{NOSCRIPT_REFRESH}"></noscript>'
    return layout(lang, t["live"], body, nav="live", script="live.js", path="/", head=refresh, page="live")


def not_found(lang: str) -> str:
    t = in_language(lang)
    return layout(lang, t["not_found"], f'<h1>{e(t["not_found"])}</h1><p>{e(t["not_found_text"])}</p>')


def problem_page(lang: str, text: str) -> str:
    t = in_language(lang)
    return layout(lang, t["damaged"], f'<h1>{e(t["damaged"])}</h1><p class="problem">{e(text)}</p>')


def _when(seconds) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def seat_html(name: str, bot: bool, t: Mapping[str, str]) -> str:
    """A seat as every page names it: its person (the name they go by now) or its colour, and the box's part as a
    mark after it ("Cat 🤖"): the same seat the box's history and ``cantstop-box history`` name (issue 47, item 1)."""
    return e(name) + (f' <span class="bot" title="{e(t["bot_legend"])}">🤖</span>' if bot else "")


# -- the history -----------------------------------------------------------------


def history_page(lang: str, games, more: bool, newer: bool, late: int = 0, name_of=None) -> str:
    """One page of the history, newest first; ``games`` are the page's summaries (damage checked); ``more``: older
    games follow, ``newer``: newer ones come before; ``late``: how many are still to be checked for damage. The
    pager's links are by key (the same cost at any depth). ``name_of``: the roster's names by id (a rename follows
    the person)."""
    t = in_language(lang)
    w = words.language(lang)
    rows = []
    for g in games:
        seats = seats_from_meta(g.meta, g.players)
        names = [seat_html(called(s, name_of) or w.colour(s.colour), bool(s.bot), t) for s in seats]
        winner = names[g.winner] if g.winner is not None and 0 <= g.winner < len(names) else "–"
        status = t.get(f"status_{g.status}", g.status)
        problem = f'<div class="problem">{e(g.problem)}</div>' if g.problem else ""
        cells = (f'<a href="/games/{g.id}">{g.id}</a>', e(_when(g.started)), ", ".join(names), str(rounds(g)),
                 winner, e(duration_text(g.duration)), e(status) + problem)
        rows.append(f'<tr data-game="{g.id}" class="st-{e(g.status)}">'
                    + "".join(f'<td data-label="{e(t[k])}">{c}</td>' for k, c in zip(COLUMNS, cells)) + "</tr>")
    head = "".join(f"<th>{e(t[k])}</th>" for k in COLUMNS)
    pager = []
    if newer and games:
        pager.append(f'<a rel="prev" href="/games?after={games[0].id}">← {e(t["newer"])}</a>')
    if more and games:
        pager.append(f'<a rel="next" href="/games?before={games[-1].id}">{e(t["older"])} →</a>')
    table = f'<table class="history"><tr class="head">{head}</tr>{"".join(rows)}</table>' if rows else \
        f'<p class="empty">{e(t["no_store"])}</p>'
    legend = f'<p class="legend">{e(t["bot_legend"])}</p>' if "🤖" in table else ""
    if late:
        legend += f'<p class="checking">{e(t["checking"].format(n=late))}</p>'
    return layout(lang, t["history"], f'<h1>{e(t["history"])}</h1>{table}{legend}<nav class="pager">{"".join(pager)}</nav>',
                  nav="history", path="/games")


# -- one game, step by step --------------------------------------------------------


def game_page(lang: str, game, step: int | None, palette: tuple[str, ...], name_of=None) -> str:
    """Game ``game`` (a StoredGame) after ``step`` of its events (None: all of them), with links to step through;
    each seat drawn with its colour's symbol (``palette``: the config's colours, as the box draws them), each
    person by the name they go by now (``name_of``, the roster's)."""
    t = in_language(lang)
    w = words.language(lang)
    seats = seats_from_meta(game.meta, game.players)
    names = tuple(called(s, name_of) or w.colour(s.colour) for s in seats)
    total = len(game.events)
    step = total if step is None else max(0, min(step, total))
    href = f"/games/{game.id}"
    status = t.get(f"status_{game.status}", game.status)
    events = tuple(game.events[:step])
    try:
        states = turns.replay(game.players, game.rules, events)
    except CantStopError:  # damaged: its players do not read (the problem says why), so there is no board
        head = (f'<h1>{e(t["game"])} {game.id} <small>{e(status)}</small></h1>'
                f'<p class="meta">{e(t["started"])} {e(_when(game.started))} · <a href="{href}.json">{e(t["record"])}</a></p>')
        body = f'<div id="replay" data-game="{game.id}" data-step="0" data-total="0">{head}{_damage(game)}</div>'
        return layout(lang, f'{t["game"]} {game.id}', body, nav="history", path=href)
    state = states[-1]
    said = event_text(w, names, states[-2], events[-1]) if step else t["start"]
    colours = tuple(game.players)
    marks = board.marks_of(palette, colours)
    items = "".join(f'<li data-seat="{i}"' + (' class="current" aria-current="true"'
                                              if i == state.current and not state.is_over else "")
                    + f'>{board.piece(i, marks)} {seat_html(n, bool(seats[i].bot), t)}'
                    + "</li>" for i, n in enumerate(names))
    moved = tuple(dict.fromkeys(getattr(events[-1], "sums", ()))) if step else ()
    moment = turns.bust_of(states, events)
    if state.is_over and state.winner is not None and state.winner < len(names):
        said_html = (f'<p class="headline winner" id="said">{board.piece(state.winner, marks)} '
                     f'{e(t["wins"].format(name=names[state.winner]))}</p>')
    else:
        said_html = f'<p class="said" id="said">{e(said)}</p>'
    if moment is not None:
        dice_html = ('<section class="dice busted"><div class="faces">'
                     + "".join(f'<span class="die lost">{d}</span>' for d in moment.dice) + "</div></section>")
    else:
        dice_html = board.options(step_dice(states, events), step_options(states, events), t)
    log = turns.log(lang, w, names, states, events, limit=3)
    log_html = (f'<section class="log"><h2>{e(t["log"])}</h2><ol>' + "".join(f"<li>{e(x)}</li>" for x in log)
                + "</ol></section>") if log else ""
    drawn = board.board(state, moved, marks, names=names, t=t, lost=moment.lost if moment else None,
                        lost_seat=moment.seat if moment else 0)

    def link(label: str, to: int, key: str) -> str:
        if to == step or not 0 <= to <= total:
            return f'<span class="off">{e(label)}</span>'
        return f'<a href="{href}?step={to}" data-key="{key}" id="{key}">{e(label)}</a>'

    controls = (f'<nav class="steps">{link(t["first"], 0, "first")}{link(t["prev"], step - 1, "prev")}'
                f'<span class="at">{e(t["step"])} <b id="step">{step}</b>/{total}</span>'
                f'{link(t["next"], step + 1, "next")}{link(t["end"], total, "last")}</nav>')
    problem = _damage(game)
    head = (f'<h1>{e(t["game"])} {game.id} <small>{e(status)}</small></h1>'
            f'<p class="meta">{e(t["started"])} {e(_when(game.started))} · '
            f'{e(w.turn_status(state.round))} · <a href="{href}.json">{e(t["record"])}</a></p>')
    body = (f'<div id="replay" data-game="{game.id}" data-step="{step}" data-total="{total}" '
            f'class="{seat_classes(colours, marks)}"><div class="play"><div class="top">{head}{problem}'
            f'<ul class="players">{items}</ul>{controls}{said_html}</div><div class="act">{dice_html}</div>'
            f'<div class="left">{drawn}</div><div class="right">{log_html}</div></div></div>')
    return layout(lang, f'{t["game"]} {game.id}', body, nav="history", script="replay.js", path=href)


#: How much of a damaged event's stored text the page shows (the game's record has it all).
SHOWN_CHARS = 200


def _damage(game) -> str:
    """A damaged game's problem and the start of each stored row that does not replay; "" for a sound game."""
    if not game.problem:
        return ""
    return (f'<p class="problem">{e(game.problem)}</p><details><summary>{len(game.damaged_rows)}</summary>'
            + "".join(f"<pre>{seq}: {e(_stored(text))}</pre>" for seq, text in game.damaged_rows) + "</details>")


def _stored(text: str | None) -> str:
    """A damaged event row as the page shows it: its start ("…" for a row too big to have been read)."""
    if text is None:
        return "…"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


# -- statistics per person ---------------------------------------------------------


def people_page(lang: str, found, contests: int, counting: tuple[int, int] | None = None) -> str:
    """The statistics; ``counting``: (games added up so far, finished games) while the sums are being brought up
    to date (said above them), else None."""
    t = in_language(lang)
    w = words.language(lang)
    note = (f'<p class="counting" id="counting">{e(t["counting"].format(done=counting[0], total=counting[1]))}</p>'
            if counting is not None else "")
    if not found and counting is not None:
        body = note
    elif not found:
        body = f'<p class="empty">{e(t["no_people"])}</p>'
    else:
        cards = []
        for p in found:
            solo = {c: (p.solo_best(c), p.solo_average(c)) for c in p.solo}
            rows = w.person_rows(p.games, p.wins, p.win_rate, p.busts_per_turn, solo)
            cells = "".join(f"<tr><th>{e(label)}</th><td>{e(value)}</td></tr>" for label, value in rows)
            name = e(p.name)
            if p.name == people.BOX:  # the seats the box played, under the box's name in this language
                name = f'<span class="bot" title="{e(t["bot_legend"])}">🤖</span> {e(w.BOX_PLAYER)}'
            cards.append(f'<section class="person"><h2>{name}</h2><table>{cells}</table></section>')
        legend = f'<p class="legend">{e(t["bot_legend"])}</p>' if any(p.name == people.BOX for p in found) else ""
        body = f'{note}<p>{e(w.games_count(contests))}</p><div class="people">{"".join(cards)}</div>{legend}'
    return layout(lang, t["people"], f'<h1>{e(t["people"])}</h1>{body}', nav="people", path="/people")
