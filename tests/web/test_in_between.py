"""The page's headline says what the box waits for at every moment (issue 46, item 3): when the box asks which
sum a pairing moves ("B moves one: which? 7/8"), the page said "choose A B C"; after a stop with a claim it
already said "Bob's turn" while the box said what to take off. Played on the real box (mock pins), read by
the web view's own reader, as the page is."""

from __future__ import annotations

import re
from html import unescape

from engine import Stop, stop_claims
from firmware import views
from firmware.config import GameConfig
from tests.kit.rig import Rig
from web import board
from web.live import snapshot
from web.reader import Reader
from web.text import in_language


def headline(state_dir, lang: str = "en") -> str:
    reader = Reader(state_dir)
    try:
        live = snapshot(reader, GameConfig(), "en", lang)
    finally:
        reader.close()
    html = board.headline(live, in_language(lang))
    return unescape(re.sub(r"<[^>]+>", "", html)).strip()


def test_while_the_box_asks_which_sum_the_page_says_so_and_after_the_answer_whose_turn_it_is(tmp_path):
    # Ann: 2+2 3+3 puts runners on 4 and 6; then 1+1 5+5 with one runner left: A moves 2 or 10, the box asks.
    rolls = iter([(2, 2, 3, 3), (1, 1, 5, 5)] + [(6, 6, 6, 6)] * 20)
    rig = Rig(tmp_path, names=("Ann", "Bob"), colours=("Red", "Blue"), dice=lambda: next(rolls), rest=1.0)
    try:
        rig.tap("ROLL")
        rig.tap("A")
        rig.tap("ROLL")
        rig.tap("A")
        assert isinstance(rig.view, views.PickView)
        assert headline(tmp_path) == "■ Ann picks 2 or 10 on the box"
        assert headline(tmp_path, "ja").endswith("Ann: ボックスで2か10を選ぶ")
        rig.tap("A")  # 2
        assert not isinstance(rig.view, views.PickView)
        assert "picks" not in headline(tmp_path) and "Ann" in headline(tmp_path)
    finally:
        rig.close()


def test_after_a_stop_with_a_claim_the_page_says_what_to_take_off_until_roll_then_whose_turn():
    import tempfile
    from pathlib import Path

    for seed in range(1, 60):  # the first seeded game whose stop claims a column another colour stands on
        state_dir = Path(tempfile.mkdtemp(dir=None))
        rig = Rig(state_dir, names=("Ann", "Bob"), colours=("Red", "Green"), seed=seed, rest=1.0)
        try:
            for _ in range(400):
                rig.play_on(presses=1)
                app = rig.box.app
                if app.game.is_over:
                    break
                if not (app.events and isinstance(app.events[-1], Stop)
                        and isinstance(rig.view, views.InstructionsView)):
                    continue
                before = app.states[-2]
                taken = [(c, [i for i, m in enumerate(before.markers) if i != before.current and m[c]])
                         for c in stop_claims(before)]
                taken = [(c, off) for c, off in taken if off]
                if not taken:
                    continue
                who = ("Ann", "Bob")[before.current]
                other = ("Red", "Green")[1 - before.current]
                column = taken[0][0]
                said = headline(state_dir)
                assert f"{who} claimed " in said and f"take {other} off {column}" in said and said.endswith(", then ROLL"), said
                assert "turn" not in said.lower()
                while isinstance(rig.view, views.InstructionsView):
                    rig.tap("ROLL")  # the board is done: on to the next player
                after = headline(state_dir)
                nxt = ("Ann", "Bob")[app.game.current]
                assert "then ROLL" not in after and nxt in after, after
                return
        finally:
            rig.close()
    raise AssertionError("no seeded game had a stop claiming a column another colour stood on")
