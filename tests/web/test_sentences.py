"""Every sentence of the web page and the phone's pages, in English, Japanese and Korean, as pinned.

Issue 48, item 5 moved their Japanese and Korean from Python dicts into the
box's catalogues; ``tests/fixtures/web_sentences.json`` is what those dicts
said, key by key, written once from them before the move: the pages say the
same after it, in every language. Like the box's golden images it pins what
the pages say: after an intended change of a web sentence or its
translation, rewrite it with ``make golden`` and look at the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from firmware import i18n
from web import text as page
from web.phone import text as phone

PINNED = Path(__file__).resolve().parents[1] / "fixtures" / "web_sentences.json"
TABLES = {"web/text.py": page, "web/phone/text.py": phone}


def said() -> dict:
    """What the pages say now: per file, per key, per language."""
    return {file: {key: {lang: module.in_language(lang)[key] for lang in i18n.LANGUAGES}
                   for key in module.SENTENCES}
            for file, module in TABLES.items()}


def test_the_pages_say_every_sentence_as_pinned_in_every_language():
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    now = said()
    assert {f: list(keys) for f, keys in now.items()} == {f: list(keys) for f, keys in pinned.items()}
    changed = [(file, key, lang, pinned[file][key][lang], text)
               for file, keys in now.items() for key, langs in keys.items() for lang, text in langs.items()
               if text != pinned[file][key][lang]]
    assert changed == [], f"the pages' words changed; if meant, make golden rewrites {PINNED.name}"


def write(path: Path = PINNED) -> None:
    path.write_text(json.dumps(said(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"{PINNED}: written", file=sys.stderr)
