"""The layers of the tree, checked from the source: every import, including ones inside functions.

    engine    the rules: the standard library only (and engine itself); no I/O
    hw        thin adapters over gpiozero, luma, Pillow: never engine or firmware
    firmware  the box: may use engine and hw; gpiozero and luma only through hw
    web       the live web view, another reader of the store: engine and firmware's store, words,
              views and UI, never the daemon nor the buttons and the OLED
    tests, benchmarks: anything; nothing of the product imports them

Imports are read with :mod:`ast` (top-level and function-local ``import`` and
``from ... import``, relative ones resolved against the file's package, and
``importlib.import_module("...")`` with a literal name), so a module that is
never imported by the test run is checked too.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "hw", "firmware", "web")
#: Layer -> top-level packages it must never import.
FORBIDDEN = {
    "engine": {"hw", "firmware", "web", "tests", "benchmarks"},
    "hw": {"engine", "firmware", "web", "tests", "benchmarks"},
    "firmware": {"gpiozero", "luma", "tests", "benchmarks"},
    "web": {"gpiozero", "luma", "tests", "benchmarks"},
}
#: Layer -> modules (and the modules inside them) it must never import, beyond FORBIDDEN's packages.
FORBIDDEN_MODULES = {
    # the web view is not the box: no daemon, no wiring of real or fake hardware, no buttons, no OLED
    "web": ("firmware.daemon", "firmware.run", "firmware.emulate", "firmware.selftest", "firmware.commands.run",
            "firmware.commands.emulate", "firmware.commands.selftest", "hw.buttons", "hw.oled", "hw.display",
            "hw.terminal", "hw.fakes"),
}
#: Layer -> the only packages it may import besides the standard library (None: any).
ALLOWED = {"engine": {"engine"}, "hw": None, "firmware": None, "web": None}


def _package_of(path: Path, root: Path) -> list[str]:
    """The dotted package a file's relative imports start from, as parts."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1]  # a package's __init__ and its modules both start from the folder


def imports_of(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import in the file at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = _package_of(path, root)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.lineno, node.module or ""
                continue
            base = package[: len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
            if node.level - 1 > len(package) or not base:
                yield node.lineno, "." * node.level + (node.module or "")  # reaches above the tree
                continue
            yield node.lineno, ".".join(base + ([node.module] if node.module else []))
        elif isinstance(node, ast.Call) and _is_import_call(node):
            yield node.lineno, node.args[0].value


def _is_import_call(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return (
        name in ("import_module", "__import__")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def violations(root: Path) -> list[str]:
    """Every import in ``root``'s product packages that breaks the layers, as "path:line: text"."""
    found = []
    for layer in PRODUCT:
        for path in sorted((root / layer).rglob("*.py")):
            for line, module in imports_of(path, root):
                problem = _problem(layer, module)
                if problem:
                    found.append(f"{path.relative_to(root).as_posix()}:{line}: {problem}")
    return found


def _problem(layer: str, module: str) -> str | None:
    if module.startswith("."):
        return f"relative import {module} reaches outside the tree"
    top = module.split(".")[0]
    if top in FORBIDDEN[layer]:
        return f"{layer} imports {module}"
    for banned in FORBIDDEN_MODULES.get(layer, ()):
        if module == banned or module.startswith(banned + "."):
            return f"{layer} imports {module}"
    allowed = ALLOWED[layer]
    if allowed is not None and top not in allowed and top not in sys.stdlib_module_names:
        return f"{layer} imports {module}, which is not the standard library"
    return None


# ---- the tree ------------------------------------------------------------------


def test_layering_holds_for_the_whole_tree():
    assert violations(ROOT) == []


def test_layering_checks_every_product_module():
    # the walk sees the modules that matter, including nested packages
    checked = {p.relative_to(ROOT).as_posix() for layer in PRODUCT for p in (ROOT / layer).rglob("*.py")}
    for expected in ("engine/board.py", "engine/players/strong.py", "hw/display.py", "firmware/daemon/box.py",
                     "firmware/screens/__init__.py", "web/app.py"):
        assert expected in checked


def test_layering_reads_the_imports_the_tree_really_has():
    # not a checker that silently sees nothing: known imports of this tree are found
    hw_imports = {m for p in (ROOT / "hw").rglob("*.py") for _, m in imports_of(p, ROOT)}
    assert any(m.startswith("gpiozero") for m in hw_imports)
    firmware_imports = {m for p in (ROOT / "firmware").rglob("*.py") for _, m in imports_of(p, ROOT)}
    assert "engine" in firmware_imports and "hw" in {m.split(".")[0] for m in firmware_imports}
    assert "firmware.views" in firmware_imports  # "from ..views import" in firmware/screens/*


# ---- the checker flags what it should --------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_layering_checker_flags_a_violating_tree(tmp_path):
    _write(tmp_path, {
        "engine/__init__.py": "from .rules import x\nimport json\n",
        "engine/rules.py": "import random\n\ndef later():\n    import firmware.ui\n",
        "engine/odd.py": "from PIL import Image\n",
        "engine/sub/deep.py": "from ...hw import display\nfrom .. import rules\n",
        "hw/__init__.py": "",
        "hw/fake.py": "import gpiozero\nfrom engine import apply\n",
        "hw/dyn.py": "import importlib\nimportlib.import_module('firmware.daemon.box')\n",
        "firmware/__init__.py": "",
        "firmware/commands/run.py": "from hw import buttons\n\ndef main():\n    from gpiozero.pins.mock import MockFactory\n",
        "firmware/screen.py": "from luma.core.render import canvas\nimport tests.helpers\n",
        "firmware/ok.py": "from engine import apply\nfrom . import run\nfrom .screen import x\n",
        "web/__init__.py": "",
        "web/bad.py": "from firmware.daemon import Box\nimport hw.oled\nfrom firmware.store import Store\n",
        "web/ok.py": "from firmware import words\nfrom engine import apply\nimport starlette\n",
    })
    assert violations(tmp_path) == [
        "engine/odd.py:1: engine imports PIL, which is not the standard library",
        "engine/rules.py:4: engine imports firmware.ui",
        "engine/sub/deep.py:1: relative import ...hw reaches outside the tree",
        "hw/dyn.py:2: hw imports firmware.daemon.box",
        "hw/fake.py:2: hw imports engine",
        "firmware/commands/run.py:4: firmware imports gpiozero.pins.mock",
        "firmware/screen.py:1: firmware imports luma.core.render",
        "firmware/screen.py:2: firmware imports tests.helpers",
        "web/bad.py:1: web imports firmware.daemon",
        "web/bad.py:2: web imports hw.oled",
    ]


@pytest.mark.parametrize("source, module", [
    ("from . import board", "engine.players"),  # in engine/players/x.py
    ("from .base import Player", "engine.players.base"),
    ("from .. import board", "engine"),
    ("from ..board import HEIGHTS", "engine.board"),
    ("import engine.board as b", "engine.board"),
])
def test_layering_resolves_relative_imports(tmp_path, source, module):
    _write(tmp_path, {"engine/players/x.py": source + "\n"})
    assert [m for _, m in imports_of(tmp_path / "engine/players/x.py", tmp_path)] == [module]


def test_the_web_view_never_loads_the_daemon_or_the_hardware():
    """Not only its own imports: nothing it loads brings in the daemon's loop, the buttons or the OLED drivers.

    (firmware's UI takes its Press from firmware.daemon.debounce, a plain value: that one module is loaded, the
    daemon's package itself holds only its docstring.)
    """
    import subprocess

    code = ("import sys, web.app, web.serve, web.command, firmware.commands.web\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'luma') or m in "
            "('firmware.daemon.box', 'firmware.daemon.dice', 'firmware.daemon.pager', 'firmware.daemon.sdnotify', "
            "'firmware.commands.run', 'firmware.commands.emulate', 'hw.buttons', "
            "'hw.oled', 'hw.terminal'))\n"
            "print(' '.join(bad))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
