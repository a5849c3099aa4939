"""Keep the message catalogues in step with the source: extract, merge, compile (``make messages``).

A developer tool (Babel; never imported by the box or the web view, which
read the ``.mo`` files with :mod:`gettext`). The box's sentences and the web
view's (its pages and the paired phone's, in ``web/``) are one catalogue per
language:

    python -m firmware.devtools.catalogues            # all three steps below
    python -m firmware.devtools.catalogues extract    # firmware/**.py, web/**.py -> firmware/locale/cantstop.pot
    python -m firmware.devtools.catalogues update     # the .pot's sentences into every <lang>/.../cantstop.po
    python -m firmware.devtools.catalogues compile    # every .po -> its .mo (committed beside it)
    python -m firmware.devtools.catalogues init fr    # start a new language

``update`` works like gettext's msgmerge: a translation whose English
sentence is unchanged stays; a sentence that changed a little keeps its old
translation marked ``fuzzy`` (not shown until a translator clears the flag);
a sentence gone from the source becomes an obsolete ``#~`` entry, kept as
the translator's memory, and comes back to life with its translation if the
sentence returns. Files are only rewritten when something other than the
header's dates changed, so running it twice changes nothing.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from firmware.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
#: Where marked sentences are: the box (firmware) and its web view (web), each read as text, never imported.
SOURCES = (ROOT / "firmware", ROOT / "web")
POT = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {name: DEFAULT_KEYWORDS[name] for name in ("_", "gettext", "ngettext", "pgettext", "npgettext", "N_")}
KEYWORDS["NP_"] = DEFAULT_KEYWORDS["pgettext"]  # a table's sentence with its context (firmware.i18n.NP_)
COMMENT_TAG = "TRANSLATORS:"
PROJECT = "cantstop-box"
VERSION = "0.1.0"
BUGS = "the cantstop-box issues (see docs/translating.md)"
HEADER = ("# The Can't Stop box's sentences and its web view's, made by `make messages`\n"
          "# from firmware/ and web/.\n"
          "# Do not edit: translate the .po files (docs/translating.md).\n#")
WIDTH = 78


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_languages() -> list[str]:
    """The languages with a .po file (English has none: it is the source)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


# -- extract -----------------------------------------------------------------


def bad_calls(path: Path) -> list[str]:
    """Marked calls whose sentence is not a plain string literal (an f-string cannot be looked up)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if name not in KEYWORDS:
            continue
        count = {"ngettext": 2, "pgettext": 2, "NP_": 2, "npgettext": 3}.get(name, 1)
        args = node.args[:count]
        if len(args) < count or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}() needs string literals, "
                       f"with {{placeholders}} filled in by .format() after the lookup")
    return out


def extract(*sources: Path) -> Catalog:
    """Every marked sentence under ``sources`` (by default :data:`SOURCES`), as a template catalogue; each
    sentence's place is its file under the folder's name (``firmware/words/play.py``, ``web/text.py``)."""
    sources = sources or SOURCES
    problems = [p for source in sources for path in sorted(source.rglob("*.py")) for p in bad_calls(path)]
    if problems:
        raise SystemExit("\n".join(problems))
    catalog = Catalog(project=PROJECT, version=VERSION, msgid_bugs_address=BUGS, fuzzy=False,
                      header_comment=HEADER, copyright_holder=None)
    for source in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(source), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=(COMMENT_TAG,),
            strip_comment_tags=True,
        ):
            catalog.add(message, None, [(f"{source.name}/{filename}", None)], auto_comments=comments,
                        context=context)
    return catalog


# -- read, write, merge --------------------------------------------------------


def read(path: Path, locale: str | None = None) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def po_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=WIDTH, sort_output=False, include_lineno=False)
    return buf.getvalue()


#: Header lines that change with the day or the Babel release, not with the sentences.
_STAMPS = (b'"POT-Creation-Date', b'"PO-Revision', b'"Generated-By')


def _without_stamps(data: bytes) -> bytes:
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith(_STAMPS))


def save(path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` as a .po/.pot unless only the dates or Babel's version stamp would change; True when written."""
    data = po_bytes(catalog)
    if path.exists() and _without_stamps(path.read_bytes()) == _without_stamps(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    """(context, msgid) of every live sentence (plural entries by their singular)."""
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


def merge(catalog: Catalog, template: Catalog) -> Catalog:
    """``catalog`` updated to ``template``, msgmerge-like.

    Obsolete translations take part too: one whose sentence returns comes back
    as it was, one whose sentence returns a little changed comes back fuzzy,
    and the rest stay obsolete.
    """
    live = keys(catalog)
    for key, message in list(catalog.obsolete.items()):
        plain = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.string and (message.context, plain) not in live:
            del catalog.obsolete[key]
            catalog[message.id] = message
    catalog.update(template, update_header_comment=False, update_creation_date=False)
    return catalog


def mo_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def mo_messages(data: bytes) -> dict:
    """What a compiled catalogue says: its header fields and (context, sentence) -> translation.

    Two .mo files that say the same compare equal whichever Babel wrote them
    (each stamps its own version into the header; read back, the stamp is
    this Babel's for both).
    """
    catalog = read_mo(io.BytesIO(data))
    return {"header": dict(catalog.mime_headers),
            "messages": {(m.context, _tuple(m.id)): _tuple(m.string) for m in catalog if m.id}}


def _tuple(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value  # plural forms come back as lists


# -- commands ------------------------------------------------------------------


def cmd_extract() -> None:
    template = extract()
    print(f"{POT.relative_to(ROOT)}: {len(template)} sentences" + (" (written)" if save(POT, template) else ""))


def cmd_update() -> None:
    template = read(POT)
    for lang in translated_languages():
        path = po_path(lang)
        catalog = merge(read(path, lang), template)
        todo = sum(1 for m in catalog if m.id and (m.fuzzy or not m.string or
                                                    (isinstance(m.string, tuple) and not all(m.string))))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} sentences, {todo} to translate or review, "
              f"{len(catalog.obsolete)} obsolete" + (" (written)" if save(path, catalog) else ""))


def cmd_compile() -> None:
    for lang in translated_languages():
        mo = po_path(lang).with_suffix(".mo")
        data = mo_bytes(read(po_path(lang), lang))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            print(f"{mo.relative_to(ROOT)}: written")


def cmd_init(lang: str) -> None:
    path = po_path(lang)
    if path.exists():
        raise SystemExit(f"{path.relative_to(ROOT)} exists already: run update instead")
    catalog = Catalog(locale=lang, domain=DOMAIN, project=PROJECT, version=VERSION, msgid_bugs_address=BUGS,
                      fuzzy=False, header_comment=f"# {lang} messages of the Can't Stop box (cantstop-box).\n"
                      "# Terms: docs/glossary.md; how to translate: docs/translating.md.\n#")
    save(path, merge(catalog, read(POT)))
    print(f"{path.relative_to(ROOT)}: started; add {lang!r} to LANGUAGES in firmware/i18n.py")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", nargs="?", default="all", choices=("all", "extract", "update", "compile", "init"))
    ap.add_argument("lang", nargs="?", help="for init: the new language's code (fr, zh_Hant, ...)")
    args = ap.parse_args(argv)
    if args.step == "init":
        if not args.lang:
            ap.error("init needs a language code")
        cmd_init(args.lang)
        return 0
    if args.step in ("all", "extract"):
        cmd_extract()
    if args.step in ("all", "update"):
        cmd_update()
    if args.step in ("all", "compile"):
        cmd_compile()
    missing = [lang for lang in LANGUAGES if lang != "en" and lang not in translated_languages()]
    if missing:
        print(f"no catalogue yet for {', '.join(missing)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
