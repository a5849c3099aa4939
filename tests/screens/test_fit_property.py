"""Property-based fit test (issue 22, bug 1's build note): the move screen with the longest values its fields take.

Two-digit squares, every column 2..12, names up to the longest a seat can
have (``MAX_NAME_LENGTH``), person and box seats, every language and every
size in ``LAYOUTS``. A cut name is fine (the symbol and colour still say who);
a cut instruction is not: any cut but the player's name fails.
"""

from hypothesis import HealthCheck, given, settings, strategies as st

from firmware import words
from firmware.config.models import MAX_NAME_LENGTH
from firmware.devtools.samples import HEIGHTS
from firmware.screens import LAYOUTS, render_checked, render_pages
from firmware.views import MoveView, RunnerMove

LANGS = ("en", "ja", "ko")
names = st.one_of(
    st.sampled_from(("Red", "Blue", "Green", "Yellow", "Burgundy")),
    st.text(st.sampled_from("AaWwMm-"), min_size=1, max_size=MAX_NAME_LENGTH),
    # the longest a seat can have, drawn as often as the rest (random text is mostly short)
    st.text(st.sampled_from("WwMm"), min_size=MAX_NAME_LENGTH - 2, max_size=MAX_NAME_LENGTH),
)


@st.composite
def runner(draw, column: int):
    height = HEIGHTS[column]
    step = draw(st.integers(1, height))
    new = draw(st.booleans())
    jumped = draw(st.sampled_from(((), tuple(range(1, min(step, 4))))))
    return RunnerMove(column, step, new, step == height, jumped if step > 1 else ())


@st.composite
def moves(draw):
    lang = draw(st.sampled_from(LANGS))
    w = words.language(lang)
    name = draw(names)
    columns = draw(st.lists(st.integers(2, 12), min_size=1, max_size=2, unique=True))
    steps = tuple(draw(runner(c)) for c in columns)
    bot = draw(st.booleans())
    can_stop = draw(st.booleans())
    note = None if can_stop else w.risky_note([(columns[0], [w.colour("Burgundy")])])
    keys = w.KEYS["box_ok"] if bot else w.KEYS["roll_or_stop" if can_stop else "roll"]
    view = MoveView(name, 0, steps, draw(st.floats(0, 1)), can_stop, draw(st.integers(0, 3)), note, bot,
                    draw(st.sampled_from(("roll", "stop"))) if bot else None, keys, lang=lang)
    return view, {name, w.who(name, bot)}


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves(), st.sampled_from(sorted(LAYOUTS)))
def test_fit_property_the_move_screen_cuts_nothing_but_a_name(case, size):
    view, allowed = case
    cuts = render_checked(view, size).cuts
    assert set(cuts) <= allowed, (size, view, cuts)
    assert len(render_pages(view, size)) <= 2


@st.composite
def handovers(draw):
    """After a stop (markers to place, columns claimed and whose markers come off) or a bust, paged as the box pages it."""
    lang = draw(st.sampled_from(LANGS))
    w = words.language(lang)
    name, other = draw(names), draw(names)
    bust = draw(st.booleans())
    if bust:
        lines = w.bust_lines(draw(st.booleans()))
    else:
        columns = draw(st.lists(st.integers(2, 12), min_size=1, max_size=3, unique=True))
        runners = {c: draw(st.integers(1, HEIGHTS[c])) for c in columns}
        claims = [(c, [other]) for c in columns if runners[c] == HEIGHTS[c]]
        lines = w.stop_lines(name, runners, claims)
    return lang, name, other, w.handover_title(name, bust), lines


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(handovers(), st.sampled_from(sorted(LAYOUTS)))
def test_fit_property_what_to_do_on_the_board_is_never_cut(case, size):
    from firmware.screens import layout_for
    from firmware.views import InstructionsView
    lang, name, other, title, lines = case
    pages = layout_for(size).paginate(None, lines)
    for i, page in enumerate(pages):
        view = InstructionsView(name, 0, title, page, None, i + 1, len(pages), words.language(lang).KEYS["done"], lang=lang)
        cuts = render_checked(view, size).cuts
        assert set(cuts) <= {name, other, title}, (size, view, cuts)
