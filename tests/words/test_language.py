"""The box's language: chosen in the config and on the new-game screen, remembered, spoken by every screen.

Issue 13: ``[display] language`` is the default, the new-game screen's
Language row changes it (C steps forward, held C back), the choice survives
a restart, and a whole game plays in each language with every frame fitting.
"""

from __future__ import annotations

import json
import pytest

from firmware import config, ui, views
from firmware.config import ConfigError, GameConfig
from firmware.ui.messages import Press
from firmware.screens import render_checked
from firmware.store import Store

from tests.kit.rig import Rig


def _to_language_row(app):
    rows = ui.view(app).rows
    for _ in range(len(rows)):
        if ui.view(app).cursor == len(rows) - 2:
            return app
        app, _ = ui.update(app, Press("B"))
    raise AssertionError("no language row")


def test_language_row_sits_before_start_and_names_each_language_in_itself():
    app = _to_language_row(ui.boot(GameConfig()))
    v = ui.view(app)
    assert v.rows[-2] == ("Language", "English") and v.rows[-1] == ("Start game", "")
    app, _ = ui.update(app, Press("C"))
    v = ui.view(app)
    assert app.language == "ja" and v.lang == "ja"
    assert v.title == "新しいゲーム" and v.rows[-2] == ("言語", "日本語") and v.rows[0] == ("人数", "2")
    assert ("P1の色", "赤") in v.rows and v.keys == "A/B:移動 C:変更 ROLL:開始"
    app, _ = ui.update(app, Press("C"))
    assert ui.view(app).rows[-2] == ("언어", "한국어")
    app, _ = ui.update(app, Press("C"))
    assert app.language == "en"
    app, _ = ui.update(app, Press("C", long=True))  # held: back
    assert app.language == "ko" and ui.view(app).rows[-2] == ("언어", "한국어")


def test_language_the_game_speaks_it_and_the_engine_keeps_the_colours():
    app = ui.boot(GameConfig(), language="ko")
    app, effects = ui.update(app, Press("ROLL"))
    assert effects[0].players == ("Red", "Blue")  # stored games keep the config's names
    v = ui.view(app)
    assert isinstance(v, views.TurnView) and v.lang == "ko"
    assert v.player == "빨강" and v.note == ("빨강부터 시작.",) and v.keys == "ROLL:굴리기 MENU:메뉴"
    app, _ = ui.update(app, Press("STOP"))  # no dice yet: a flash in Korean
    assert ui.view(app).alert == "ROLL을 눌러 굴리기"


def test_language_memory_round_trips_and_ignores_an_unknown_one():
    app = ui.boot(GameConfig(), language="ja")
    kept = json.loads(json.dumps(ui.memory(app)))
    assert kept["language"] == "ja"
    assert ui.recall(ui.boot(GameConfig()), kept, game=False).language == "ja"
    assert ui.recall(ui.boot(GameConfig(), language="ko"), {**kept, "language": "fr"}, game=False).language == "ko"


def test_language_config_key_defaults_to_english_and_checks_its_value():
    assert config.parse("", "c.toml").display.language == "en"
    assert config.parse('[display]\nlanguage = "ko"\n', "c.toml").display.language == "ko"
    with pytest.raises(ConfigError) as err:
        config.parse('[display]\nlanguage = "JA"\n', "c.toml")
    assert str(err.value) == 'c.toml: [display] language = "JA": must be one of "en", "ja", "ko"; did you mean "ja"?'


def test_language_unknown_at_boot_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        ui.boot(GameConfig(), language="fr")


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_language_a_whole_game_plays_by_the_buttons_and_every_frame_fits(tmp_path, lang):
    rig = Rig(tmp_path, seed=11, language=lang)
    assert rig.view.lang == lang
    seen = set()
    original = rig.tap

    def tap(name, hold=0.1):
        original(name, hold)
        v = rig.view
        assert v.lang == lang
        assert render_checked(v).cuts == (), v
        seen.add(type(v).__name__)

    rig.tap = tap
    rig.tap("ROLL")  # start
    win = rig.play_on()
    assert win.lang == lang and win.keys in ("B:記録 C:再戦 ROLL:新規", "B:기록 C:재대결 ROLL:새 게임")
    assert {"TurnView", "DiceView", "MoveView", "InstructionsView"} <= seen
    rig.close()


def test_language_chosen_on_the_screen_survives_a_restart_and_beats_the_config(tmp_path):
    rig = Rig(tmp_path)
    for _ in range(len(rig.view.rows) - 2):
        rig.tap("B")
    rig.tap("C")  # English -> 日本語
    assert rig.view.title == "新しいゲーム"
    rig.close()  # a power cut
    again = Rig(tmp_path, store=Store.open(tmp_path), language="ko")
    assert again.view.lang == "ja" and again.view.title == "新しいゲーム"
    again.close()


def test_language_emulator_draws_the_japanese_frame_in_pixels(tmp_path):
    """``cantstop-box emulate --language ja`` shows the Japanese new-game screen, pixel for pixel, as half-blocks."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from firmware.screens import render
    from hw.terminal import frame_to_text

    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-m", "boxcli.cli", "emulate", "--language", "ja", "--state-dir",
                          str(tmp_path)], input="q\n", capture_output=True, text=True, timeout=60, cwd=repo,
                         env=dict(os.environ, XDG_STATE_HOME=str(tmp_path / "log")))
    assert out.returncode == 0, out.stderr
    japanese = frame_to_text(render(ui.view(ui.boot(GameConfig(), language="ja"))))
    english = frame_to_text(render(ui.view(ui.boot(GameConfig()))))
    assert all(line in out.stdout for line in japanese)
    assert not all(line in out.stdout for line in english)
