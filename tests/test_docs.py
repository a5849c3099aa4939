"""The repository stands alone: its documents link only to files inside it, and say what the code does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import HEIGHTS
from engine.record import Record, state_view

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: [text](target) and ![alt](target), the target up to a space or the closing parenthesis.
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: [label]: target (reference-style definitions).
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
#: A path written out in the text that climbs out of its folder: ../something.
CLIMBING_PATH = re.compile(r"(?<![\w/.])((?:\.\./)+[\w.\-/]+)")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # https:, mailto:, ...


def link_problems(doc: Path, root: Path) -> list[str]:
    """Every relative link or written-out ``../`` path of ``doc`` that is missing or outside ``root``."""
    text = doc.read_text(encoding="utf-8")
    targets = INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)
    problems = []
    for target in targets:
        if EXTERNAL.match(target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        problems += _check(doc, root, path, "link")
    for path in CLIMBING_PATH.findall(text):
        problems += _check(doc, root, path, "path")
    return problems


def _check(doc: Path, root: Path, path: str, kind: str) -> list[str]:
    name = doc.relative_to(root).as_posix()
    resolved = (root / path.lstrip("/")) if path.startswith("/") else (doc.parent / path)
    resolved = resolved.resolve()
    if not resolved.is_relative_to(root.resolve()):
        return [f"{name}: {kind} {path} points outside the repository"]
    if not resolved.exists():
        return [f"{name}: {kind} {path} does not exist"]
    return []


def test_docs_the_documents_are_found():
    names = {d.relative_to(ROOT).as_posix() for d in DOCS}
    assert {"README.md", "docs/contract.md", "docs/rules.md", "docs/building.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_docs_every_relative_link_resolves_inside_the_repository(doc):
    assert link_problems(doc, ROOT) == []


def test_docs_readme_links_the_contract_and_the_rules():
    targets = INLINE_LINK.findall((ROOT / "README.md").read_text())
    assert "docs/contract.md" in targets and "docs/rules.md" in targets


def test_docs_link_checker_flags_missing_and_outside_targets(tmp_path):
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "here.md").write_text("x")
    (tmp_path / "outside.md").write_text("x")
    doc = repo / "README.md"
    doc.write_text(
        "[ok](docs/here.md) [ok too](docs/here.md#part) ![img](docs/missing.png)\n"
        "[web](https://example.org/x.md) [anchor](#top) [out](../outside.md)\n"
        "The contract: `../shared/design/CONTRACT.md`.\n"
        "[ref]: docs/gone.md\n"
    )
    assert link_problems(doc, repo) == [
        "README.md: link docs/missing.png does not exist",
        "README.md: link ../outside.md points outside the repository",
        "README.md: link docs/gone.md does not exist",
        "README.md: path ../outside.md points outside the repository",
        "README.md: path ../shared/design/CONTRACT.md points outside the repository",
    ]


# ---- docs/contract.md says what the code does ------------------------------------------


def _json_blocks(doc: Path) -> list:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", doc.read_text(), re.DOTALL)]


def _table_keys(doc: Path, heading: str) -> list[str]:
    """The first column of the table under ``heading``, without the backticks."""
    section = doc.read_text().split(heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)


def test_docs_contract_example_record_replays_to_the_example_view():
    record, view = _json_blocks(ROOT / "docs" / "contract.md")
    assert state_view(Record.from_json(record).replay()) == view


def test_docs_contract_tables_name_every_key_in_order():
    contract = ROOT / "docs" / "contract.md"
    record, view = _json_blocks(contract)
    assert _table_keys(contract, "## The game record") == list(record)
    assert _table_keys(contract, "## The state view") == list(view) == list(state_view(Record.from_json(record).replay()))


def test_docs_rules_heights_table_is_the_engines():
    text = (ROOT / "docs" / "rules.md").read_text()
    columns = re.search(r"^\s*\| column \|(.*)\|\s*$", text, re.MULTILINE).group(1)
    squares = re.search(r"^\s*\| squares\s*\|(.*)\|\s*$", text, re.MULTILINE).group(1)
    table = dict(zip((int(c) for c in columns.split("|")), (int(s) for s in squares.split("|"))))
    assert table == HEIGHTS
