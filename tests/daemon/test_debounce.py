"""Debounce, long presses and chords, on an injected clock."""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.daemon.debounce import Debouncer, Press


def feed(b: Debouncer, edges):
    out = []
    for name, pressed, t in edges:
        out += b.edge(name, pressed, t)
    return out


def test_debounce_tap_is_one_short_press():
    b = Debouncer(debounce=0.03, long_press=0.8)
    assert feed(b, [("ROLL", True, 0.0), ("ROLL", False, 0.15)]) == [Press("ROLL")]


def test_debounce_chatter_within_a_few_ms_counts_once():
    b = Debouncer(debounce=0.03, long_press=0.8)
    press_bounce = [("A", v, 0.001 * i) for i, v in enumerate([True, False, True, False, True])]
    release_bounce = [("A", v, 0.2 + 0.001 * i) for i, v in enumerate([False, True, False, True, False])]
    out = feed(b, press_bounce + release_bounce) + b.tick(0.5)
    assert out == [Press("A")]
    assert b.held() == frozenset()


def test_debounce_bounce_cannot_leave_a_button_stuck_down():
    b = Debouncer(debounce=0.03, long_press=0.8)
    # A very short tap: the release comes inside the debounce window.
    assert feed(b, [("STOP", True, 0.0), ("STOP", False, 0.01)]) == []
    assert b.deadline() == 0.03
    assert b.tick(0.03) == [Press("STOP")]
    assert b.held() == frozenset()
    assert b.tick(5.0) == []  # and no long press later


def test_debounce_long_press_fires_while_held_and_release_is_silent():
    b = Debouncer(debounce=0.03, long_press=0.8)
    assert b.edge("STOP", True, 1.0) == []
    assert b.deadline() == 1.8
    assert b.tick(1.79) == []
    assert b.tick(1.8) == [Press("STOP", long=True)]
    assert b.tick(3.0) == []
    assert b.edge("STOP", False, 3.1) == []
    assert b.deadline() is None


def test_debounce_two_buttons_at_once_count_as_nothing():
    b = Debouncer(debounce=0.03, long_press=0.8)
    out = feed(b, [("A", True, 0.0), ("B", True, 0.05), ("A", False, 0.2), ("B", False, 0.25)])
    out += b.tick(2.0)
    assert out == []


def test_debounce_chord_held_long_gives_no_long_press():
    b = Debouncer(debounce=0.03, long_press=0.8)
    feed(b, [("MENU", True, 0.0), ("STOP", True, 0.1)])
    assert b.deadline() is None
    assert b.tick(5.0) == []


def test_debounce_presses_after_a_chord_count_again():
    b = Debouncer(debounce=0.03, long_press=0.8)
    feed(b, [("A", True, 0.0), ("B", True, 0.05), ("A", False, 0.2), ("B", False, 0.25)])
    assert feed(b, [("C", True, 1.0), ("C", False, 1.1)]) == [Press("C")]


def test_debounce_idle_needs_no_wakeups():
    b = Debouncer()
    assert b.deadline() is None
    feed(b, [("ROLL", True, 0.0), ("ROLL", False, 0.1)])
    assert b.deadline() is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ROLL", "STOP", "A"]), st.booleans(),
                          st.floats(min_value=0, max_value=0.2)), max_size=60))
def test_debounce_random_edges_never_crash_and_settle_released(edges):
    b = Debouncer(debounce=0.03, long_press=0.8)
    t = 0.0
    presses = []
    for name, pressed, dt in edges:
        t += dt
        presses += b.edge(name, pressed, t)
    for name in ("ROLL", "STOP", "A"):
        t += 0.001
        presses += b.edge(name, False, t)
    presses += b.tick(t + 1.0)
    assert all(isinstance(p, Press) for p in presses)
    assert b.held() == frozenset()
    assert b.deadline() is None
    # Every reported press follows an accepted press edge: never more presses than edges down.
    assert len(presses) <= sum(1 for _, p, _ in edges if p)


def test_debounce_quick_taps_of_two_buttons_are_not_a_chord():
    """B tapped twice back to back, then C at once: the second B's release is still
    settling when C goes down, which must not count as holding both."""
    b = Debouncer(debounce=0.03, long_press=0.8)
    edges = [("B", True, 0.000), ("B", False, 0.050), ("B", True, 0.0501), ("B", False, 0.100),
             ("C", True, 0.1001), ("C", False, 0.150)]
    out = feed(b, edges)
    out += b.tick(0.5)
    assert out == [Press("B"), Press("B"), Press("C")]
