"""hw is the bottom adapter layer: it never imports the rules or the daemon."""

from __future__ import annotations

import ast
from pathlib import Path

import hw

FORBIDDEN = {"engine", "firmware"}


def test_layering_hw_never_imports_engine_or_firmware():
    offenders = []
    for path in Path(hw.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{path.name}: {name}" for name in names if name.split(".")[0] in FORBIDDEN]
    assert offenders == []
