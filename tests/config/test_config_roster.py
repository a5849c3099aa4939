"""``[game] roster``: players' names in any script and length (to a sane limit), each once; one-line errors."""

import pytest

from firmware import config
from firmware.config import ConfigError


def test_config_roster_takes_names_in_any_script():
    cfg = config.parse('[game]\nroster = ["Ann", "김민준", "Zoë", "Maximiliane-Louise von Hohenberg"]\n')
    assert cfg.game.roster == ("Ann", "김민준", "Zoë", "Maximiliane-Louise von Hohenberg")
    assert config.parse("").game.roster == ()


@pytest.mark.parametrize("value, words", [
    ('"Ann"', "must be a list of names"),
    ('["Ann", "ANN"]', "listed twice"),
    ('["Ann", 3]', "is not a name"),
    ('[""]', "a name is empty"),
    ('["Ann ", "ann"]', "listed twice"),  # trimmed first
    ('["Ａｎｎ", "Ann"]', "listed twice"),  # full-width letters are the same name
    ('["\\u0301"]', "a name is empty"),  # a lone combining mark
    ('["שרה"]', "U+05E9 HEBREW LETTER SHIN"),  # the fonts cannot draw it
    ('["A\\u0007nn"]', "control character"),
    ('["' + "x" * 65 + '"]', "at most 64"),
    ('[' + ", ".join(f'"P{i}"' for i in range(65)) + ']', "has 65 names"),
])
def test_config_roster_mistakes_are_one_line(value, words):
    with pytest.raises(ConfigError) as err:
        config.parse(f"[game]\nroster = {value}\n", "box.toml")
    text = str(err.value)
    assert words in text and "[game] roster" in text and "\n" not in text


def test_config_roster_names_are_kept_normalised():
    assert config.parse('[game]\nroster = [" Ａｎｎ ", "Zoe\\u0301"]\n').game.roster == ("Ann", "Zoé")


def test_config_roster_refusal_never_echoes_raw_escapes():
    with pytest.raises(ConfigError) as err:
        config.parse('[game]\nroster = ["\\u001b[2Jx\\u0007"]\n', "box.toml")
    text = str(err.value)
    assert "\x1b" not in text and "\x07" not in text and "\\x1b" in text and "control character" in text
