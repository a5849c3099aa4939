"""The web page says each thing in the box's word for it (docs/glossary.md; issue 46, item 10): the box
said 검정 말 where the page said 러너, and 점령 where the page said 차지."""

from __future__ import annotations

import re

import pytest

from web.phone import text as phone
from web.text import in_language

#: A word the glossary does not use, and the one it does (the same idea), per language.
NOT_OURS = {"ko": {"러너": "검정 말", "차지": "점령", "스톱": "멈춤"}}


@pytest.mark.parametrize("lang", sorted(NOT_OURS))
def test_the_pages_words_are_the_glossarys_and_the_boxs(lang):
    for key, text in [*in_language(lang).items(), *phone.in_language(lang).items()]:
        if key == "title":  # the game's own name (캔트 스톱)
            continue
        for theirs, ours in NOT_OURS[lang].items():
            assert theirs not in text, (key, text, f"the glossary's word is {ours}")


def test_the_page_and_the_box_name_the_runners_and_a_claim_alike():
    """The box's own Korean (its translation file) and the page's: one word each."""
    from pathlib import Path

    po = (Path(__file__).resolve().parents[2] / "firmware/locale/ko/LC_MESSAGES/cantstop.po").read_text("utf-8")
    box = dict(re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"$', po, re.M))
    assert in_language("ko")["runner"] in box["Take the runners off."]  # 검정 말
    assert in_language("ko")["claimed"] in box["{name} claims {column}!"]  # 점령
    assert in_language("ko")["runner"] in in_language("ko")["bust_now"]
