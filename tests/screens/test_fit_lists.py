"""Property-based fit test of the screens around the game (issue 22): menus, the Continue list, the new-game screen,
messages and notices, statistics (paged as the UI pages them, up to a roster's people), a person's numbers, the recap, the board and the safe-to-unplug frame.

The longest values each field takes (names as long as a seat's may be, game numbers and turns in the
thousands, every setup row, every notice), every alert, every language and size; :func:`fitkit.problems`
fails on any cut but a name's, any text off its page or over another, a missing legend or needed word.
"""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings, strategies as st

from firmware import ui, words
from firmware.config import GameConfig
from firmware.table.names import MAX_ROSTER
from firmware.ui.model import StatsScreen
from firmware.ui.people import stats_view
from firmware.devtools.samples import HEIGHTS
from firmware.views import (BoardView, Column, MenuView, MessageView, OffView, RecapRow, RecapView, SetupView,
                            StatsView, TableView)
from tests.kit.examples import examples

from .fitgen import alerts, langs, names, reasons, seat_name, sizes
from .fitkit import problems

FIT = settings(max_examples=examples(test=125, soak=1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
MENU_KEYS = ("back", "undo", "hint", "board", "new", "stats", "continue", "mute", "sound_on")


@st.composite
def menus(draw):
    lang = draw(langs)
    w = words.language(lang)
    keys = draw(st.lists(st.sampled_from(MENU_KEYS), min_size=1, max_size=8, unique=True))
    items = tuple(w.MENU_ITEMS[k] for k in keys)
    off = tuple(sorted(draw(st.sets(st.integers(0, len(items) - 1)))))
    view = MenuView(w.MENU, items, draw(st.integers(0, len(items) - 1)), w.KEYS["menu"], draw(alerts(lang)), lang, off)
    return view, set(), items[view.cursor:view.cursor + 1]


@st.composite
def continue_lists(draw):
    lang = draw(langs)
    w = words.language(lang)
    games = draw(st.lists(st.tuples(st.integers(1, 99999), st.lists(names, min_size=1, max_size=4),
                                    st.integers(1, 9999)), min_size=1, max_size=6))
    items = tuple(w.continue_item(i, tuple(seat_name(lang, n) for n in ns), t) for i, ns, t in games)
    seat_names = {seat_name(lang, n) for _, ns, _ in games for n in ns}
    cursor = draw(st.integers(0, len(items) - 1))
    view = MenuView(w.CONTINUE, items, cursor, w.KEYS["menu"], draw(alerts(lang)), lang)
    # the game's number and turn come first: a cut may take the names only, in any row (the cursor's row must
    # keep its number and turn)
    listed = {w.listed(seat_name(lang, n) for n in ns) for _, ns, _ in games}
    i, _, t = games[cursor]
    return view, seat_names | listed, (w.continue_item(i, ("",), t),)


@st.composite
def setups(draw):
    lang = draw(langs)
    w = words.language(lang)
    players = draw(st.integers(1, 4))
    rows, seat_names = [("players", players)], set()
    for i in range(players):
        name = draw(st.one_of(st.none(), names))
        rows += [(f"colour{i}", draw(st.sampled_from(("Red", "Blue", "Burgundy", "Purple")))), (f"name{i}", name),
                 (f"plays{i}", draw(st.sampled_from((None, "strong", "random"))))]
        seat_names.add(name or "-")
    first = draw(names)
    rows += [("first", first), ("win", draw(st.integers(1, 11))), ("speedy", draw(st.booleans())),
             ("risky", draw(st.booleans())), ("language", draw(langs)), ("start", None)]
    shown = tuple(w.setup_row(k, v) for k, v in rows)
    view = SetupView(w.NEW_GAME, shown, draw(st.integers(0, len(shown) - 1)), w.KEYS["setup"], draw(alerts(lang)), lang)
    label, _ = shown[view.cursor]
    return view, seat_names | {first}, (label,)


@st.composite
def messages(draw):
    lang = draw(langs)
    w = words.language(lang)
    kind = draw(st.sampled_from(("confirm", "no_game", "no_unfinished", "notice", "counting")))
    if kind == "confirm":
        (title, lines), keys = w.CONFIRM_NEW, w.KEYS["confirm"]
    elif kind == "no_game":
        (title, lines), keys = w.NO_GAME, w.KEYS["message"]
    elif kind == "no_unfinished":
        (title, lines), keys = w.NO_UNFINISHED, w.KEYS["none_left"]
    elif kind == "notice":
        title, lines = w.notice(draw(st.sampled_from(("reset", "unreadable", "damaged"))), draw(reasons))
        keys = w.KEYS["message"]
    else:
        title, lines = w.counting(draw(st.integers(0, 10**6)), draw(st.integers(1, 10**6)))
        keys = w.KEYS["stats_one"]
    view = MessageView(title, lines, keys, draw(alerts(lang)), lang)
    return view, set(), lines


@st.composite
def stats(draw):
    """A page of the statistics as the UI pages them: any number of people up to a roster's (``MAX_ROSTER``)."""
    lang = draw(langs)
    n = draw(st.one_of(st.integers(0, 9), st.integers(0, MAX_ROSTER)))
    rows = tuple((draw(names), draw(st.integers(0, 99999))) for _ in range(n))
    people = tuple(ui.PersonStats(name, wins, wins, 1.0, 0.25) for name, wins in rows[:draw(st.integers(0, n))])
    screen = StatsScreen(rows=rows, games=draw(st.integers(0, 99999)), people=people, page=draw(st.integers(0, 99)))
    app = replace(ui.boot(GameConfig(), language=lang), screen=screen)
    view = stats_view(app, draw(alerts(lang)))
    if isinstance(view, StatsView):
        return view, {n for n, _ in view.rows}, tuple(str(n) for _, n in view.rows)
    return view, {view.title}, tuple(v for _, v in view.rows) + tuple(label for label, _ in view.rows)


@st.composite
def tables(draw):
    lang = draw(langs)
    w = words.language(lang)
    games = draw(st.integers(0, 99999))
    wins = draw(st.integers(0, games))
    solo = {k: (draw(st.integers(1, 999)), draw(st.floats(1, 99.9))) for k in draw(st.sets(st.integers(1, 11), max_size=3))}
    rows = w.person_rows(games, wins, wins / games if games else None, draw(st.one_of(st.none(), st.floats(0, 99))), solo)
    start = draw(st.integers(0, len(rows) - 1))
    page = rows[start:start + 4]
    name = draw(names)
    view = TableView(name, w.page_of(draw(st.integers(1, 99)), 99), page, w.KEYS["stats"], draw(alerts(lang)), lang)
    return view, {name}, tuple(v for _, v in page) + tuple(label for label, _ in page)


@st.composite
def recaps(draw):
    lang = draw(langs)
    w = words.language(lang)
    # a game has no turn limit: four digits of turns (and of busts, at most one a turn); the biggest turn is at
    # most three runners to the tops of the three longest columns (13 + 11 + 11 squares)
    rows = []
    for i in range(draw(st.integers(1, 4))):
        turns = draw(st.integers(1, 9999))
        rows.append(RecapRow(seat_name(lang, draw(names)), i, turns, draw(st.integers(0, turns)), draw(st.integers(0, 35))))
    rows = tuple(rows)
    view = RecapView(w.RECAP, w.recap_status(draw(st.integers(1, 999))), rows,
                     draw(st.one_of(st.none(), st.integers(0, len(rows) - 1))), w.KEYS["recap"], draw(alerts(lang)), lang)
    return view, {r.player for r in rows}, tuple(f"{r.turns}" for r in rows)


@st.composite
def boards(draw):
    lang = draw(langs)
    w = words.language(lang)
    players = tuple(seat_name(lang, draw(names)) for _ in range(draw(st.integers(1, 4))))
    cols = []
    for c, h in HEIGHTS.items():
        markers = tuple(draw(st.integers(0, h)) for _ in players)
        cols.append(Column(c, h, markers, draw(st.integers(0, h)), draw(st.one_of(st.none(), st.integers(0, len(players) - 1)))))
    view = BoardView(players, tuple(cols), draw(st.one_of(st.none(), st.integers(0, len(players) - 1))),
                     draw(st.one_of(st.none(), st.integers(2, 12))), w.KEYS["board"], draw(alerts(lang)), lang,
                     tuple(draw(st.permutations(range(4)))[:len(players)]))
    return view, set(players), ()


@st.composite
def offs(draw):
    lang = draw(langs)
    w = words.language(lang)
    reason = w.off_reason(draw(st.sampled_from(("Game saved", "Power button: game saved"))))
    return OffView(reason, lang), set(), (reason,)


@FIT
@given(st.one_of(menus(), continue_lists(), setups(), messages(), stats(), tables(), recaps(), boards(), offs()), sizes)
def test_fit_the_screens_around_the_game_cut_nothing_but_a_name(case, size):
    view, allowed, needs = case
    assert problems(view, size, allowed, needs=needs) == [], view
