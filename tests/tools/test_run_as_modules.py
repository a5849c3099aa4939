"""tools/ and benchmarks/ are packages run with ``python -m`` from the repository root: every module
imports by its dotted name, every ``-m`` the Makefile runs is a module with a way in, and nothing
outside the tests puts a folder on ``sys.path`` to make it so (docs/testing.md).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ("tools", "benchmarks")
PRODUCT = ("engine", "hw", "firmware", "web")


def house_modules(root: Path = ROOT) -> list[str]:
    """The dotted name of every module of tools/ and benchmarks/ but the ``__main__`` ones (importing those runs a check)."""
    names = []
    for top in HOUSE:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__main__":
                continue
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_module_of_the_tools_and_the_benchmarks_imports_by_its_dotted_name():
    names = house_modules()
    assert {"tools", "tools.bootcheck.board", "tools.bootcheck.wiring", "tools.picheck.check", "tools.floors",
            "tools.web_gallery", "benchmarks.scale", "benchmarks.scale_probes", "benchmarks.engine_speed"} <= set(names)
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    done = subprocess.run([sys.executable, "-c", code, *names], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def _way_in(module: str) -> str | None:
    """Why ``python -m module`` would not run anything, or None when it would."""
    path = ROOT.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        return None if (path / "__main__.py").is_file() else f"{module}: a package without __main__.py"
    if not path.with_suffix(".py").is_file():
        return f"{module}: no such module"
    if 'if __name__ == "__main__":' not in path.with_suffix(".py").read_text(encoding="utf-8"):
        return f"{module}: nothing runs it as __main__"
    return None


def test_every_module_the_makefile_runs_is_there_and_runs():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = sorted(set(re.findall(r"-m ((?:tools|benchmarks|hw)\.[\w.]+)", text)))
    assert {"tools.bootcheck", "tools.picheck", "tools.web_gallery", "tools.floors", "benchmarks.engine_speed",
            "benchmarks.scale", "benchmarks.daemon_memory"} <= set(run)
    assert [why for why in map(_way_in, run) if why] == []
    assert re.findall(r"\$\(PY(?:THON)?\) (?:tools|benchmarks)/\S+", text) == []  # none run as a script by its path


def test_the_way_in_check_names_what_would_not_run():
    assert _way_in("tools.bootcheck") is None and _way_in("benchmarks.scale") is None
    assert _way_in("tools.nothing") == "tools.nothing: no such module"
    assert _way_in("benchmarks.scripted") == "benchmarks.scripted: nothing runs it as __main__"
    assert _way_in("tests.kit") == "tests.kit: a package without __main__.py"


def sys_path_lines(path: Path) -> list[int]:
    """The lines of the file at ``path`` that touch ``sys.path`` in its code (not where prose names it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return sorted(node.lineno for node in ast.walk(tree)
                  if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                      and node.value.id == "sys")
                  or (isinstance(node, ast.ImportFrom) and node.module == "sys"
                      and any(alias.name == "path" for alias in node.names)))


def test_nothing_but_the_tests_edits_sys_path():
    """The product is installed and the tools and the benchmarks run with python -m from the root: none needs to."""
    files = [p for top in (*PRODUCT, *HOUSE, "deploy") for p in sorted((ROOT / top).rglob("*.py"))]
    assert len(files) > 100
    assert [f"{p.relative_to(ROOT).as_posix()}:{line}" for p in files for line in sys_path_lines(p)] == []


def test_the_sys_path_finder_sees_the_code_and_not_the_prose(tmp_path):
    script = tmp_path / "script.py"
    script.write_text('"""Puts the root on sys.path."""\nimport sys\nsys.path.insert(0, "..")\n'
                      "from sys import path\nfrom os import path as p\nprint(p.sep)  # not sys.path\n")
    assert sys_path_lines(script) == [3, 4]
