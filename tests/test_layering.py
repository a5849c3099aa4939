"""The layers of the tree, checked from the source: every import, including ones inside functions.

The rules are docs/architecture.md's ("Layers"), held here as :data:`TIERS`:

- a package of the product (engine, hw, each of firmware's subpackages and top-level modules, web) imports
  only packages of the tiers below its own, never one of its own tier or above;
- engine uses the standard library only; firmware and web reach gpiozero and luma only through hw; the web
  view loads neither Pillow nor the daemon, the wiring, the buttons, the terminal (its screen or keys) nor the OLED;
- nothing of the product imports tools, benchmarks or tests;
- the graph of every package in the tree (tools' jobs, benchmarks and tests' folders included) has no cycle,
  and no module imports one that imports it back, directly or through others (a package's ``__init__`` and
  its own modules aside: re-exporting is not a cycle).

Imports are read with :mod:`ast` (top-level and function-local ``import`` and ``from ... import``, relative
ones resolved against the file's package, ``from package import module`` seen as the module, and
``importlib.import_module("...")`` with a literal name), so a module the test run never imports is checked too.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "hw", "sight", "firmware", "web", "boxcli")
TREE = PRODUCT + ("tools", "benchmarks", "tests")

#: The product's packages, bottom first: each imports only the tiers below its own (docs/architecture.md).
TIERS: tuple[tuple[str, ...], ...] = (
    ("engine", "hw", "sight"),
    ("firmware.i18n", "firmware.views", "firmware.layout", "firmware.store"),
    ("firmware.words",),
    ("firmware.table", "firmware.screens", "firmware.camera"),
    ("firmware.config", "firmware.cues"),
    ("firmware.ui",),
    ("firmware.daemon", "web"),
    ("boxcli", "firmware.devtools"),
)
#: Top-level packages a layer never imports, whatever its tier (the third-party ones: only through hw).
FORBIDDEN = {
    "engine": {"tools", "benchmarks", "tests"},
    "hw": {"tools", "benchmarks", "tests"},
    "sight": {"tools", "benchmarks", "tests"},
    "firmware": {"gpiozero", "luma", "tools", "benchmarks", "tests"},
    "web": {"gpiozero", "luma", "PIL", "tools", "benchmarks", "tests"},
    "boxcli": {"gpiozero", "luma", "tools", "benchmarks", "tests"},
}
#: Modules of hw a layer never imports: the web view is not the box (no buttons, terminal, keys, OLED or fakes).
FORBIDDEN_MODULES = {"web": ("hw.buttons", "hw.oled", "hw.display", "hw.terminal", "hw.keys", "hw.fakes")}
#: Layer -> the only packages it may import besides the standard library (None: any).
ALLOWED = {"engine": {"engine"}, "hw": None, "sight": {"sight", "numpy", "cv2", "PIL"}, "firmware": None, "web": None,
           "boxcli": None}
#: The only modules that import NumPy or OpenCV: what the camera sees, the camera itself, and the camera's own
#: process (issue 49: they never load into the box's loop, the web view or a command).
PICTURE_MODULES = ("sight.", "hw.camera", "firmware.camera.eye", "firmware.camera.pictures", "firmware.camera.drawn")


def _package_of(path: Path, root: Path) -> list[str]:
    """The dotted package a file's relative imports start from, as parts."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1]  # a package's __init__ and its modules both start from the folder


def imports_of(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import in the file at ``path``.

    ``from a import b`` yields ``a``, and ``a.b`` too where ``a/b.py`` or ``a/b/`` is in ``root``: the
    module it really loads.
    """
    return iter(_imports(path, root, path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=None)
def _imports(path: Path, root: Path, _changed: int) -> tuple[tuple[int, str], ...]:
    """The imports of one version of a file, read once for all the checks (``_changed``: its mtime)."""
    return tuple(_read_imports(path, root))


def _read_imports(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = _package_of(path, root)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            elif node.level - 1 >= len(package):
                yield node.lineno, "." * node.level + (node.module or "")  # reaches above the tree
                continue
            else:
                kept = package[: len(package) - (node.level - 1)]
                base = ".".join(kept + ([node.module] if node.module else []))
            yield node.lineno, base
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                if _is_module(root, inner):
                    yield node.lineno, inner
        elif isinstance(node, ast.Call) and _is_import_call(node):
            yield node.lineno, node.args[0].value


@functools.lru_cache(maxsize=None)
def _is_module(root: Path, dotted: str) -> bool:
    path = root.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _is_import_call(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return (
        name in ("import_module", "__import__")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def unit_of(module: str) -> str | None:
    """The package a module counts in for the layers: engine, hw, web, benchmarks; firmware's and tools'
    and tests' first level (``firmware.ui``, ``tools.bootcheck``, ``tests.kit``); None outside the tree."""
    parts = module.split(".")
    if parts[0] not in TREE:
        return None
    if parts[0] in ("firmware", "tools", "tests") and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


def _modules(root: Path) -> dict[str, Path]:
    found = {}
    for top in TREE:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


# ---- the rules -----------------------------------------------------------------


def _tier(unit: str) -> int | None:
    for number, names in enumerate(TIERS):
        if unit in names:
            return number
    return None


def violations(root: Path) -> list[str]:
    """Every import in ``root``'s product packages that breaks the layers, as "path:line: text"."""
    found = []
    for layer in PRODUCT:
        for path in sorted((root / layer).rglob("*.py")):
            unit = unit_of(".".join(path.relative_to(root).with_suffix("").parts))
            if unit not in ("firmware.__init__", None) and _tier(unit) is None:
                found.append(f"{path.relative_to(root).as_posix()}:1: {unit} is in no tier of docs/architecture.md")
            for line, module in imports_of(path, root):
                problem = _problem(layer, unit, module)
                if problem:
                    found.append(f"{path.relative_to(root).as_posix()}:{line}: {problem}")
    return found


def _problem(layer: str, unit: str | None, module: str) -> str | None:
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
    target = unit_of(module)
    if target is None or target == unit or target == "firmware":
        return None  # outside the tree, inside the same package, or the firmware package's docstring
    mine, theirs = _tier(unit or ""), _tier(target)
    if mine is None:
        return None  # said once for the file
    if theirs is None:
        return f"{unit} imports {module}, which is in no tier"
    if theirs >= mine:
        where = "its own tier" if theirs == mine else "a tier above"
        return f"{unit} imports {module}, from {where}"
    return None


def unit_graph(root: Path) -> dict[str, dict[str, str]]:
    """package -> {package it imports: the first "path:line" that does}, over the whole tree."""
    graph: dict[str, dict[str, str]] = {}
    for name, path in _modules(root).items():
        source = unit_of(name)
        edges = graph.setdefault(source, {})
        for line, module in imports_of(path, root):
            target = unit_of(module)
            if target and target != source and target != "firmware":
                edges.setdefault(target, f"{path.relative_to(root).as_posix()}:{line}")
    return graph


def module_graph(root: Path) -> dict[str, set[str]]:
    """module -> the modules of the tree it imports (a package and its own modules not counted)."""
    modules = _modules(root)
    graph = {}
    for name, path in modules.items():
        edges = set()
        for _, module in imports_of(path, root):
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module and module != name and not name.startswith(module + ".") and not module.startswith(name + "."):
                edges.add(module)
        graph[name] = edges
    return graph


def cycles(graph) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return sorted(found)


# ---- the tree ------------------------------------------------------------------


def test_layering_holds_for_the_whole_tree():
    assert violations(ROOT) == []


def test_no_package_of_the_tree_imports_one_that_imports_it_back():
    graph = unit_graph(ROOT)
    found = cycles(graph)
    detail = [f"{a} -> {b} ({graph[a][b]})" for group in found for a in group for b in group if b in graph[a]]
    assert found == [], detail


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(module_graph(ROOT)) == []


def test_every_product_package_has_a_tier():
    units = {unit_of(name) for name in _modules(ROOT) if name.split(".")[0] in PRODUCT}
    units.discard("firmware")  # the package's own docstring
    assert sorted(u for u in units if _tier(u) is None) == []
    assert sorted(u for tier in TIERS for u in tier if u not in units) == []  # no tier names a package that is gone


def test_every_forbidden_module_exists():
    """A rule about a module that is gone guards nothing: each one named is still in the tree."""
    for modules in FORBIDDEN_MODULES.values():
        for module in modules:
            assert _is_module(ROOT, module), module


def test_the_tiers_are_the_ones_docs_architecture_gives():
    """docs/architecture.md's "Layers" block lists the same tiers, top first: the rule people read is the one run."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- tiers -->\n```\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no tiers block"
    documented = []
    for line in block.group(1).splitlines():
        number, _, rest = line.strip().partition(" ")
        if number.isdigit():
            rest = rest.strip()
            documented.append((int(number), tuple(rest.split("  ")[0].split())))
    assert documented == [(n, names) for n, names in reversed(list(enumerate(TIERS)))]


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
    assert "firmware.ui" in firmware_imports  # "from firmware import ui" in the daemon: the module, not the name
    graph = unit_graph(ROOT)
    assert "firmware.ui" in graph["firmware.daemon"] and "firmware.store" in graph["web"]
    # the tools' and the benchmarks' own imports too (by dotted name, relative ones resolved): their cycles are seen
    modules = module_graph(ROOT)
    assert {"tools.bootcheck.wiring", "tools.bootcheck.image"} <= modules["tools.bootcheck.board"]
    assert "tools.bootcheck.board" in modules["tools.bootcheck.check_lamps"]  # under TYPE_CHECKING: it counts
    assert "tools.picheck.check" in modules["tools.bootcheck.check"] and "benchmarks.glass" in modules["benchmarks.box"]


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
        "firmware/words/__init__.py": "",
        "firmware/table/__init__.py": "",
        "boxcli/export.py": "",
        "boxcli/run.py": "from hw import buttons\n\ndef main():\n    from gpiozero.pins.mock import MockFactory\n",
        "firmware/screens/draw.py": "from luma.core.render import canvas\nimport tests.helpers\n",
        "firmware/ui/messages.py": "from engine import apply\nfrom . import model\n",
        "firmware/ui/model.py": "from firmware.daemon.debounce import Press\nfrom firmware import table\n",
        "firmware/table/loaders.py": "def load():\n    from firmware.ui.messages import StatsLoaded\n",
        "firmware/store/reads.py": "from firmware.store import Store\nfrom firmware import words\n",
        "firmware/screens/kit.py": "from .. import words, table\n",
        "firmware/gadget.py": "from firmware import views\n",
        "web/__init__.py": "",
        "web/bad.py": "from firmware.daemon import Box\nimport hw.oled\nfrom boxcli import export\n",
        "web/ok.py": "from firmware import words\nfrom engine import apply\nimport starlette\nfrom firmware.store import Store\n",
    })
    assert violations(tmp_path) == [
        "engine/odd.py:1: engine imports PIL, which is not the standard library",
        "engine/rules.py:4: engine imports firmware.ui, which is not the standard library",
        "engine/sub/deep.py:1: relative import ...hw reaches outside the tree",
        "hw/dyn.py:2: hw imports firmware.daemon.box, from a tier above",
        "hw/fake.py:2: hw imports engine, from its own tier",
        "firmware/gadget.py:1: firmware.gadget is in no tier of docs/architecture.md",
        "firmware/screens/draw.py:1: firmware imports luma.core.render",
        "firmware/screens/draw.py:2: firmware imports tests.helpers",
        "firmware/screens/kit.py:1: firmware.screens imports firmware.table, from its own tier",
        "firmware/store/reads.py:2: firmware.store imports firmware.words, from a tier above",
        "firmware/table/loaders.py:2: firmware.table imports firmware.ui.messages, from a tier above",
        "firmware/ui/model.py:1: firmware.ui imports firmware.daemon.debounce, from a tier above",
        "web/bad.py:1: web imports firmware.daemon, from its own tier",
        "web/bad.py:2: web imports hw.oled",
        "web/bad.py:3: web imports boxcli, from a tier above",
        "web/bad.py:3: web imports boxcli.export, from a tier above",
        "boxcli/run.py:4: boxcli imports gpiozero.pins.mock",
    ]


def test_the_cycle_finder_finds_cycles_and_only_them(tmp_path):
    _write(tmp_path, {
        "tools/__init__.py": "",
        "tools/a.py": "from tools import b\n",
        "tools/b.py": "def later():\n    from tools.c import x\n",
        "tools/c.py": "import tools.a\n",
        "tools/d.py": "from tools import a\n",
        "tools/pkg/__init__.py": "from .inner import y\n",
        "tools/pkg/inner.py": "from tools.pkg import z\n",  # a package and its own module: not a cycle
        "benchmarks/__init__.py": "",
        "benchmarks/x.py": "from tests.kit import rig\n",
        "tests/__init__.py": "",
        "tests/kit/__init__.py": "",
        "tests/kit/rig.py": "from benchmarks import x\n",
    })
    assert cycles(module_graph(tmp_path)) == [["benchmarks.x", "tests.kit.rig"], ["tools.a", "tools.b", "tools.c"]]
    # tools' modules are its jobs here (tools.a, ...): packages of their own
    assert cycles(unit_graph(tmp_path)) == [["benchmarks", "tests.kit"], ["tools.a", "tools.b", "tools.c"]]


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


def test_from_a_package_import_a_module_counts_as_that_module(tmp_path):
    _write(tmp_path, {"firmware/ui/__init__.py": "", "firmware/daemon/box.py": "from firmware import ui, words\n"})
    assert [m for _, m in imports_of(tmp_path / "firmware/daemon/box.py", tmp_path)] == ["firmware", "firmware.ui"]


def test_the_web_view_never_loads_the_daemon_or_the_hardware():
    """Not only its own imports: nothing it loads brings in the daemon, the buttons, the OLED drivers or Pillow."""
    import subprocess

    code = ("import sys, web.app, web.serve, web.command, boxcli.web\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'luma', 'PIL') or "
            "m.split('.')[:2] == ['firmware', 'daemon'] or m in "
            "('boxcli.run', 'boxcli.emulate', 'hw.buttons', 'hw.oled', 'hw.terminal', "
            "'hw.keys'))\n"
            "print(' '.join(bad))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_only_the_camera_imports_numpy_or_opencv():
    """NumPy and OpenCV are the camera's: imported by sight/, the camera adapter and the camera's process only."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in PRODUCT:
            continue
        module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        for line, name in imports_of(path, ROOT):
            if name.split(".")[0] in ("numpy", "cv2") and not module.startswith(PICTURE_MODULES):
                found.append(f"{rel}:{line}: {name}")
    assert found == []


def test_the_box_and_the_web_view_never_load_numpy_or_opencv():
    """The loop (its daemon, UI, camera link) and the web view run without NumPy and OpenCV loaded: a Pi Zero's
    memory stays the box's, whatever the camera's process holds."""
    import subprocess

    code = ("import sys, firmware.daemon.box, firmware.daemon.camera, firmware.ui, firmware.camera.link, "
            "web.app, boxcli.run\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'cv2'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_the_products_top_level_packages_have_no_upward_arrow():
    """Issue 48, item 2: the program (boxcli, the cantstop-box command) was firmware/commands, inside the
    library, and its web command made firmware import web while web imports firmware. Now each top-level
    package imports only those below it: engine and hw; firmware; web; boxcli on top."""
    order = ("engine", "hw", "sight", "firmware", "web", "boxcli")
    below = {"engine": set(), "hw": set(), "sight": set(), "firmware": {"engine", "hw", "sight"},
             "web": {"engine", "hw", "sight", "firmware"}, "boxcli": {"engine", "hw", "sight", "firmware", "web"}}
    arrows = {}
    for source, edges in unit_graph(ROOT).items():
        top = source.split(".")[0] if source else None
        if top not in order:
            continue
        for target, where in edges.items():
            into = target.split(".")[0]
            if into in order and into != top:
                arrows.setdefault((top, into), where)
    upward = {pair: where for pair, where in arrows.items() if pair[1] not in below[pair[0]]}
    assert upward == {}
    assert ("boxcli", "web") in arrows and ("web", "firmware") in arrows  # the graph is read, not empty
