"""Property-based fit test of the screens of a turn (issue 22): turn, dice, pick, hint, win, in every language and size.

Each screen is drawn with the longest values its fields take (names as long
as a seat's may be, two-digit columns, every column, large counts, every
catalogue variant, every alert) and checked by :func:`fitkit.problems`:
nothing but a name is cut, no text runs off its page or over another, the
legend is drawn, and the words a player needs are on some page.
"""

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import Decision, Roll, Rules, Stop
from firmware import words
from firmware.table.bot import HintFacts
from firmware.devtools.samples import HEIGHTS
from firmware.views import DiceView, HintView, Option, PickView, Track, TurnView, WinView
from tests.kit.examples import examples

from .fitgen import alerts, column_set, langs, names, seat_name, seats, sizes
from .fitkit import problems, who

SMALL = (128, 32)
FIT = settings(max_examples=examples(test=50, soak=400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
dice4 = st.tuples(*(st.integers(1, 6),) * 4)


@st.composite
def turns(draw):
    lang = draw(langs)
    w = words.language(lang)
    seat_names = [seat_name(lang, draw(names)) for _ in range(draw(st.integers(1, 4)))]
    name, bot = seat_names[0], draw(st.booleans())
    k = draw(st.integers(1, 11))
    rules = Rules(columns_to_win=k, speedy=draw(st.booleans()), risky=draw(st.booleans()))
    note = draw(st.sampled_from((
        w.opening_note(tuple(seat_names), name, rules, draw(st.sampled_from((None, 7.7, 12.25)))),
        w.previous_turn_note(seat_names[-1], Stop()),
        w.previous_turn_note(seat_names[-1], Roll((1, 1, 2, 2))),
        (),
    )))
    claims = tuple(sorted(draw(column_set(0, max(0, k - 1)))))
    view = TurnView(name, draw(seats), draw(st.integers(1, 999)), claims, note, bot,
                    w.KEYS["box_turn" if bot else "turn"], draw(alerts(lang)), lang=lang, note_names=tuple(seat_names))
    allowed = who(lang, name, bot) | set(seat_names) | {w.turn_heading(name, bot)}
    return view, allowed, note


@FIT
@given(turns(), sizes)
def test_fit_the_turn_screen_cuts_nothing_but_a_name(case, size):
    view, allowed, note = case
    assert problems(view, size, allowed, needs=note) == [], view


def _options(dice, chosen_pick: bool):
    a, b, c, d = dice
    pairs = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    out = []
    for label, ((p, q), (r, s)) in zip("ABC", pairs):
        x, y = p + q, r + s
        out.append((label, ((p, q), (r, s)), (x, y)))
    return out


@st.composite
def dice_views(draw):
    lang = draw(langs)
    w = words.language(lang)
    name, bot = seat_name(lang, draw(names)), draw(st.booleans())
    dice = draw(dice4)
    options = []
    for label, pairs, (x, y) in _options(dice, False):
        effect = draw(st.sampled_from(("both", "first", "second", "pick", "none")))
        text = {"both": f"{x}x2" if x == y else f"{x}+{y}", "first": f"{x}", "second": f"{y}",
                "pick": f"{x}/{y}", "none": "--"}[effect]
        options.append(Option(label, pairs, (x, y), effect, text))
    chosen = None
    if bot:
        legal = [o for o in options if o.effect != "none"] or options[:1]
        o = draw(st.sampled_from(legal))
        chosen = f"{o.label}:{draw(st.sampled_from(o.sums))}" if o.effect == "pick" else o.label
    view = DiceView(name, draw(seats), dice, tuple(options), bot, chosen, w.KEYS["box_ok" if bot else "choose"],
                    draw(alerts(lang)), lang=lang)
    # a box seat's pick shows the sum it took ("A:11" draws 11 under A)
    texts = [chosen.split(":")[1] if chosen and ":" in chosen and chosen[0] == o.label else o.text for o in options]
    return view, who(lang, name, bot), texts


@FIT
@given(dice_views(), sizes)
def test_fit_the_dice_screen_cuts_nothing_but_a_name(case, size):
    view, allowed, texts = case
    # 128x32: A B C sit on the pairings' tabs, the dice screen has no legend (docs/display.md)
    needs = [*texts, *(f"{p}+{q}{r}+{s}" for (p, q), (r, s) in (o.pairs for o in view.options))]
    assert problems(view, size, allowed, needs=needs, legend=size != SMALL) == [], view


@st.composite
def picks(draw):
    lang = draw(langs)
    w = words.language(lang)
    name = seat_name(lang, draw(names))
    choices = tuple(draw(column_set(2, 2)))
    # with the board of the player to act (the wide screen draws it beside the question), or none
    board = draw(st.sampled_from(((), tuple(Track(c, h, h // 2, h // 2 + 1, "") for c, h in HEIGHTS.items()))))
    view = PickView(name, draw(seats), draw(dice4), draw(st.sampled_from("ABC")), choices, w.KEYS["pick"],
                    draw(alerts(lang)), lang=lang, board=board)
    return view, who(lang, name, False)


@FIT
@given(picks(), sizes)
def test_fit_the_pick_screen_cuts_nothing_but_a_name(case, size):
    view, allowed = case
    needs = [str(c) for c in view.choices]
    assert problems(view, size, allowed, needs=needs, legend=size != SMALL) == [], view


@st.composite
def hints(draw):
    lang = draw(langs)
    w = words.language(lang)
    name = seat_name(lang, draw(names))
    kind = draw(st.sampled_from(("move", "start", "must_roll", "win", "chances", "turns", "plain")))
    roll = draw(st.booleans())
    chance = st.sampled_from((0.0, 0.001, 0.4405, 0.996, 1.0))
    facts = HintFacts(kind, roll, draw(chance), draw(chance), draw(chance), draw(st.sampled_from((0.1, 12.5, 99.9))),
                      draw(st.integers(0, 40)), tuple(draw(column_set(1, 2))))
    reason = w.hint_reason(facts)
    decisions = [w.decision_text(Decision.STOP, True), w.decision_text(Decision.ROLL, True),
                 w.decision_text(Decision.ROLL, False)]
    action = draw(st.sampled_from(decisions + ["A: 10+12", "B: 12x2", "C: 11"]))
    view = HintView(name, draw(seats), action, reason, draw(st.one_of(st.none(), chance)), w.KEYS["hint"],
                    draw(alerts(lang)), lang=lang)
    return view, who(lang, name, False), (action, *reason)


@FIT
@given(hints(), sizes)
def test_fit_the_hint_cuts_nothing_but_a_name(case, size):
    view, allowed, needs = case
    assert problems(view, size, allowed, needs=needs) == [], view


@st.composite
def wins(draw):
    lang = draw(langs)
    w = words.language(lang)
    nobody = draw(st.booleans())
    name = None if nobody else seat_name(lang, draw(names))
    k = draw(st.integers(1, 11))
    turns = draw(st.integers(1, 999))
    note = (w.nobody_can_win(k),) if nobody else ()
    if not nobody and draw(st.booleans()):  # solitaire practice (always won): the turns against the box's average
        note = w.practice_result(turns, draw(st.sampled_from((1.0, 7.7, 99.5)))) + note
    claims = () if nobody else tuple(sorted(draw(column_set(k, k))))
    view = WinView(name, None if nobody else draw(seats), claims, turns, note, w.win_keys(draw(st.booleans())),
                   draw(alerts(lang)), lang=lang)
    allowed = set() if nobody else who(lang, name, False) | {w.win_heading(name)}
    return view, allowed, note


@FIT
@given(wins(), sizes)
def test_fit_the_win_cuts_nothing_but_a_name(case, size):
    view, allowed, note = case
    assert problems(view, size, allowed, needs=note) == [], view
