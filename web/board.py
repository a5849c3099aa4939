"""The live game as HTML: every name and stored text escaped.

The order is a guest's: who plays (or who bust, or who won), then the recap
after a win, the dice and their pairings, then the board (:mod:`web.squares`),
then what just happened turn by turn, the box's screen in its shorthand, and
on a box with a camera what it last saw (:mod:`web.camera`).
On a phone held upright that is the order down the page; on a landscape
screen the board is on the left.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from firmware import words
from firmware.camera.link import READ, VIEW

from .live import Live
from .patch import El
from .squares import (FALLBACK, MARKS, PIECE_COLOURS, board, board_parts, colour_css, e, marks_of,  # noqa: F401
                      piece, seat_classes)
from .text import in_language


def players(live: Live, t: Mapping[str, str]) -> str:
    """The players' chips: the one whose turn the box's screen shows marked by a tag and aria-current as well."""
    current = live.turn_seat if live.state is not None else None
    winner = live.state.winner if live.state is not None else None
    bust = live.bust_moment.seat if live.bust_moment is not None and current == live.bust_moment.seat else None
    items = []
    for i, name in enumerate(live.names):
        classes = "player" + (" current" if i == current else "") + (" winner" if i == winner else "")
        claims = live.state.claims_of(i) if live.state is not None else ()
        claimed = f' <span class="claims">{e(t["claimed"])} {e(" ".join(map(str, claims)))}</span>' if claims else ""
        bot = f' <span class="bot" title="{e(t["bot_legend"])}">🤖</span>' if live.bots and live.bots[i] else ""
        tag = ""
        if i == current:
            tag = f' <span class="tag now">▶ {e(t["bust_short"] if i == bust else t["now"])}</span>'
        aria = ' aria-current="true"' if i == current else ""
        items.append(f'<li class="{classes}" data-seat="{i}"{aria}>{piece(i, live.marks)} '
                     f'<span class="name">{e(name)}</span>{bot}{claimed}{tag}</li>')
    legend = f'<p class="legend">{e(t["bot_legend"])}</p>' if any(live.bots) else ""
    return f'<ul class="players">{"".join(items)}</ul>{legend}'


def options(dice_out, opts, t: Mapping[str, str]) -> str:
    """The dice and their three pairings (which are legal, which was chosen); a pick says the box's question."""
    if not dice_out:
        return ""
    faces = "".join(f'<span class="die">{d}</span>' for d in dice_out)
    out = []
    for o in opts:
        classes = "opt" + (" chosen" if o.chosen else "") + (" illegal" if o.effect == "none" else "")
        (a, b), (c, d) = o.pairs
        if o.effect == "none":
            text = t["illegal"]
        elif o.effect == "pick":
            text = t["pick"].format(a=o.sums[0], b=o.sums[1]) + f' ({t["pick_ask"]})'
        else:
            text = o.text
        out.append(f'<li class="{classes}" data-label="{e(o.label)}" data-effect="{e(o.effect)}"><b>{e(o.label)}</b> '
                   f'<span class="pair">{a}+{b} · {c}+{d}</span> <span class="sums">→ {e(text)}</span>'
                   + (f' <span class="tag">{e(t["chosen"])}</span>' if o.chosen else "") + "</li>")
    return (f'<section class="dice"><h2>{e(t["dice"])}</h2><div class="faces">{faces}</div>'
            f'<ol class="options">{"".join(out)}</ol></section>')


def lost_dice(live: Live, t: Mapping[str, str]) -> str:
    """The bust moment: the dice that bust, ghosted, until the next roll."""
    b = live.bust_moment
    faces = "".join(f'<span class="die lost">{d}</span>' for d in b.dice)
    return (f'<section class="dice busted"><h2>{e(t["dice"])}</h2><div class="faces">{faces}</div>'
            f'<p class="said">{e(t["bust_now"])}</p></section>')


def status_line(live: Live, t: Mapping[str, str]) -> str:
    box = {"on": t["box_on"], "off": t["box_off"], "quiet": t["box_quiet"]}.get(live.box, t["box_unknown"])
    parts = [f'<span class="badge box-{e(live.box)}" id="box">{e(box)}</span>']
    if live.status == "over":
        parts.append(f'<span class="badge over">{e(t["over"])}</span>')
    if live.status == "damaged":
        parts.append(f'<span class="badge damaged">{e(t["damaged"])}</span>')
    return f'<div class="status">{"".join(parts)}</div>'


def headline(live: Live, t: Mapping[str, str]) -> str:
    """One big line of what the table looks at: the winner, the bust, else whose turn (as the box's screen says)."""
    g = live.state
    w = words.language(live.lang)
    if g.is_over:
        if g.winner is None or g.winner >= len(live.names):
            return f'<p class="headline over" data-say>{e(w.win_heading(None))}</p>'
        return (f'<p class="headline winner" data-say>{piece(g.winner, live.marks)} '
                f'{e(t["wins"].format(name=live.names[g.winner]))}</p>')
    seat = live.turn_seat
    if seat is None or seat >= len(live.names):
        return ""
    name = live.names[seat]
    b = live.bust_moment
    if b is not None and seat == b.seat:
        return f'<p class="headline bust" data-say>{e(w.handover_title(name, True))}: {e(w.bust_big(b.dice))}</p>'
    if live.stopped is not None and seat == live.stopped.seat:
        return f'<p class="headline stop" data-say>{piece(seat, live.marks)} {e(stop_heading(live, t, w, name))}</p>'
    if live.pick is not None:
        a, b = live.pick
        return f'<p class="headline pick" data-say>{piece(seat, live.marks)} {e(t["picks"].format(name=name, a=a, b=b))}</p>'
    bot = bool(live.bots and seat < len(live.bots) and live.bots[seat])
    return f'<p class="headline" data-say>{piece(seat, live.marks)} {e(w.turn_heading(name, bot))}</p>'


def stop_heading(live: Live, t: Mapping[str, str], w, name: str) -> str:
    """A stop the box still shows, in one line: what to move on the board, then ROLL ("Ann claimed 2: take Green
    off 2, then ROLL"). The markers taken off are named by their colour: that is what a hand looks for."""
    s = live.stopped
    squares = w.squares(s.squares)
    if not s.claims:
        return t["stopped_to"].format(name=name, squares=squares)
    columns = w.listed(str(c) for c, _ in s.claims)
    takes = [t["take_off"].format(column=c, colours=w.listed(w.colour(live.colours[i]) for i in off
                                                                  if i < len(live.colours)))
             for c, off in s.claims if off]
    if not takes:
        return t["claimed_to"].format(name=name, columns=columns, squares=squares)
    return t["claimed_take"].format(name=name, columns=columns, takes=w.listed(takes))


def turn_log(live: Live, t: Mapping[str, str]) -> str:
    if not live.log:
        return ""
    items = "".join(f"<li>{e(line)}</li>" for line in live.log)
    return f'<section class="log"><h2>{e(t["log"])}</h2><ol>{items}</ol></section>'


def live_fragment(live: Live) -> str:
    """The part of the live page that changes: everything below the header."""
    return live_tree(live).html()


def live_tree(live: Live) -> El:
    """:func:`live_fragment` as elements (:mod:`web.patch`): each part that changes on its own has an id, so a
    press sends a page only what it changed (the dice, a column or two, the log)."""
    t = in_language(live.lang)
    if live.state is None and live.status == "damaged":  # a game whose players do not read: no board to draw
        return El("div", (("id", "game"), ("data-status", "damaged"), ("data-box", live.box),
                          ("data-game", live.game_id)),
                  (f'{status_line(live, t)}<h1>{e(t["game"])} {live.game_id}</h1>'
                   f'<p class="problem">{e(live.problem or "")}</p>',))
    if live.state is None:
        text = t["no_store"] if live.problem else t["no_game"]
        return El("div", (("id", "game"), ("data-status", live.status), ("data-box", live.box)),
                  (f'{status_line(live, t)}<p class="empty" data-say>{e(text)}</p>', camera_part(live.camera, t)))
    g = live.state
    head = f'<h1>{e(t["game"])} {live.game_id}</h1>'
    bust = ""
    if live.bust is not None:
        bust = f'<p class="bust">{e(t["bust"])}: <b>{e(words.percent(live.bust))}</b></p>'
    screen = ""
    if live.screen is not None:
        title, lines, keys = live.screen
        body = "".join(f"<li>{e(line)}</li>" for line in lines)
        screen = (f'<section class="screen"><h2>{e(t["screen"])}</h2><div class="oled"><p class="title">{e(title)}</p>'
                  f'<ul>{body}</ul><p class="keys">{e(keys)}</p></div></section>')
    problem = f'<p class="problem">{e(live.problem)}</p>' if live.problem else ""
    recap = recap_table(live, t) if live.recap else ""
    moment = live.bust_moment
    dice = lost_dice(live, t) if moment is not None and not live.dice else options(live.dice, live.options, t)
    lost = moment.lost if moment is not None else None
    drawn = board_parts(g, live.moved, live.marks, names=live.names, t=t, lost=lost,
                        lost_seat=moment.seat if moment is not None else 0, ids=True)
    return El("div", (("id", "game"), ("data-status", live.status), ("data-box", live.box),
                      ("data-game", live.game_id), ("data-events", live.events), ("data-phase", g.phase.value),
                      ("data-current", g.current), ("class", seat_classes(live.colours, live.marks))), (
        El("div", (("class", "play"), ("id", "g-play")), (
            El("div", (("class", "top"), ("id", "g-top")),
               (f'{status_line(live, t)}{head}{problem}{headline(live, t)}{players(live, t)}',)),
            El("div", (("class", "act"), ("id", "g-act")), (f"{recap}{dice}{bust}",)),
            El("div", (("class", "left"), ("id", "g-left")), drawn),
            El("div", (("class", "right"), ("id", "g-right")), (
                El("div", (("id", "g-log"),), (turn_log(live, t),)),
                El("div", (("id", "g-screen"),), (screen,)))),
            camera_part(live.camera, t))),))


def camera_part(seen, t: Mapping[str, str]) -> El | str:
    """What the camera over the board last saw (``seen``: a :class:`web.camera.Seen`, None without a camera): the
    finding in words, when, the photo and the board as read. Each picture is named by its time, and each element
    on the way to it has an id: a new photo changes only the addresses (a press's patch), and the page keeps the
    old picture until the new one has loaded."""
    if seen is None:
        return ""
    if seen.lines:
        said = "".join(f"<li>{e(line)}</li>" for line in seen.lines)
        said = f'<ul class="found">{said}</ul>'
    elif seen.at is None:
        said = f'<p class="found">{e(t["camera_nothing"])}</p>'
    else:
        said = ""
    when = ""
    if seen.at is not None:
        at = f'<time datetime="{e(_iso(seen.at))}">{e(_clock(seen.at))}</time>'
        when = f'<p class="when">{e(t["camera_when"]).replace("{time}", at)}</p>'
    shots = []
    for name, stamp, key in ((VIEW, seen.view, "camera_photo"), (READ, seen.read, "camera_read")):
        if stamp is None:
            continue
        ident = "cam-" + name.partition(".")[0]
        url = f"/camera/{name}?v={stamp}"
        img = El("img", (("id", ident), ("src", url), ("alt", t[key]), ("decoding", "async")))
        legend = f'<figcaption class="legend">{e(t["camera_legend"])}</figcaption>' if name == READ else ""
        shots.append(El("figure", (("id", ident + "-fig"),), (El("a", (("id", ident + "-a"), ("href", url)), (img,)),
                                                             legend)))
    state = seen.state or "none"
    return El("section", (("class", f"camera cam-{state}"), ("id", "g-camera"), ("aria-labelledby", "cam-h")), (
        f'<h2 id="cam-h">{e(t["camera"])}</h2>',
        El("div", (("id", "cam-said"),), (said + when,)),
        El("div", (("class", "shots"), ("id", "cam-shots")), tuple(shots))))


def _clock(seconds: float, now=time.time) -> str:
    """A time of day as the page says when the camera read the board (with its date when not today)."""
    at, today = time.localtime(seconds), time.localtime(now())
    same_day = at[:3] == today[:3]
    return time.strftime("%H:%M:%S" if same_day else "%Y-%m-%d %H:%M", at)


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(seconds))


def recap_table(live: Live, t: Mapping[str, str]) -> str:
    def best(s) -> str:
        return e(t["best_unit"].format(n=int(s.get("best", 0))))

    rows = "".join(f'<tr><td>{piece(i, live.marks)} {e(live.names[i])}</td>'
                   f'<td>{int(s.get("turns", 0))}</td><td>{int(s.get("busts", 0))}</td><td>{best(s)}</td></tr>'
                   for i, s in enumerate(live.recap) if i < len(live.names))
    return (f'<section class="recap"><h2>{e(t["recap"])}</h2><table><tr><th>{e(t["player"])}</th><th>{e(t["turns"])}</th>'
            f'<th>{e(t["busts"])}</th><th>{e(t["best"])}</th></tr>{rows}</table></section>')
