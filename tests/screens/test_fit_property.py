"""Property-based fit test (issue 22, bug 1's build note): the move screen and the handover after a stop or bust.

Two-digit squares, every column 2..12, the squares a speedy runner jumps,
names up to the longest a seat can have (``MAX_NAME_LENGTH``, in Latin and
wide scripts), person and box seats, the risky note with one or more owners,
every alert, every language and every size in ``LAYOUTS``, checked by
:func:`fitkit.problems`: nothing but a name is cut, no text runs off its page
or over another, the legend is drawn, the instruction for each runner, the
bust chance and the words beside it are on some page, and no wrapped sentence
leaves one character on a line of its own.
"""

from hypothesis import HealthCheck, example, given, settings, strategies as st

from firmware import words
from firmware.devtools.samples import HEIGHTS
from firmware.screens import layout_for
from firmware.views import InstructionsView, MoveView, RunnerMove, Track
from tests.kit.examples import examples

from .fitgen import alerts, langs, names, seat_name, sizes
from .fitkit import problems, who


@st.composite
def runner(draw, column: int):
    height = HEIGHTS[column]
    step = draw(st.integers(1, height))
    new = draw(st.booleans())
    jumped = draw(st.sampled_from(((), tuple(range(1, min(step, 4))))))
    return RunnerMove(column, step, new, step == height, jumped if step > 1 else ())


@st.composite
def moves(draw):
    lang = draw(langs)
    w = words.language(lang)
    name = seat_name(lang, draw(names))
    columns = draw(st.lists(st.integers(2, 12), min_size=1, max_size=2, unique=True))
    steps = tuple(draw(runner(c)) for c in columns)
    bot = draw(st.booleans())
    can_stop = draw(st.booleans())
    owners = [seat_name(lang, draw(names)) for _ in range(draw(st.integers(1, 3)))]
    note = None if can_stop else w.risky_note([(columns[0], owners)])
    keys = w.KEYS["box_ok"] if bot else w.KEYS["roll_or_stop" if can_stop else "roll"]
    bot_next = draw(st.sampled_from(("roll", "stop"))) if bot else None
    # with the board of the player to act (the wide screen draws it beside the move), or none
    board = draw(st.sampled_from(((), tuple(Track(c, h, 0, dict(zip(columns, (s.step for s in steps))).get(c, 0), "")
                                            for c, h in HEIGHTS.items()))))
    view = MoveView(name, 0, steps, draw(st.floats(0, 1)), can_stop, draw(st.integers(0, 3)), note, bot,
                    bot_next, keys, draw(alerts(lang)), lang=lang, note_names=tuple(dict.fromkeys(owners)) if note else (),
                    board=board)
    said = [w.box_runner_step(s.step, s.top) if bot else w.runner_step(s.step, s.new, s.top, s.jumped) for s in steps]
    beside = (note,) if note else w.bot_will(bot_next) if bot else ()
    # the bust caption: its two lines, or (on one page under two runners, or a Japanese one) its one word
    caption = () if note or bot else (w.SCREEN["bust_if"], (w.SCREEN["bust_word"],))
    return view, who(lang, name, bot) | set(owners), (*said, w.percent(view.bust), *beside), caption


def _risky_korean(owner: str):
    """A move whose stop the risky variant refuses in Korean, sharing column 10 with ``owner``: the case and its needs."""
    w = words.language("ko")
    note = w.risky_note([(10, [owner])])
    view = MoveView(owner, 0, (RunnerMove(10, 3, False, False),), 0.44, False, 1, note, False, None, w.KEYS["roll"],
                    None, lang="ko", note_names=(owner,))
    return view, who("ko", owner, False), (w.runner_step(3, False, False, ()), w.percent(0.44), note), ()


@settings(max_examples=examples(test=150, soak=1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves(), sizes)
# a name of marks only ("--") is a word like "Red": "-- 말" on a line of its own is the name and its marker
@example(_risky_korean("--"), (128, 32))
def test_fit_property_the_move_screen_cuts_nothing_but_a_name(case, size):
    view, allowed, needs, caption = case
    # 128x32 has no room for the caption under the runners: the chance's page says its two lines beside it
    caption = caption[:1] if size == (128, 32) else caption
    assert problems(view, size, allowed, needs=needs, one_of=caption) == [], view


@st.composite
def handovers(draw):
    """After a stop (markers to place, columns claimed and whose markers come off) or a bust, paged as the box pages it."""
    lang = draw(langs)
    w = words.language(lang)
    name, other = seat_name(lang, draw(names)), seat_name(lang, draw(names))
    bust = draw(st.booleans())
    if bust:
        lines = w.bust_lines(draw(st.booleans()))
    else:
        columns = draw(st.lists(st.integers(2, 12), min_size=1, max_size=3, unique=True))
        runners = {c: draw(st.integers(1, HEIGHTS[c])) for c in columns}
        claims = [(c, [other]) for c in columns if runners[c] == HEIGHTS[c]]
        box = draw(st.booleans())  # a box seat's stop names who moves its markers (a person, or someone)
        lines = w.stop_lines(name, runners, claims, box, draw(st.sampled_from((other, None))) if box else None)
    return lang, name, other, w.handover_title(name, bust), lines, draw(alerts(lang))


@settings(max_examples=examples(test=50, soak=300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(handovers(), sizes)
def test_fit_property_what_to_do_on_the_board_is_never_cut(case, size):
    lang, name, other, title, lines, alert = case
    pages = layout_for(size).paginate(None, lines)
    for i, page in enumerate(pages):
        view = InstructionsView(name, 0, title, page, None, i + 1, len(pages), words.language(lang).KEYS["done"],
                                alert, lang=lang)
        assert problems(view, size, {name, other, title}, needs=page) == [], view
