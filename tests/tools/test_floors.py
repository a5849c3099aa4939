"""tools/floors.py: pyproject.toml's `>=` floors become the `==` pins that make test-floors installs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tools import floors

ROOT = Path(__file__).resolve().parents[2]

SAMPLE = '''
[project]
name = "x"
dependencies = [
    "pillow>=9.3",
    "luma.oled >= 3.12.0, != 3.13.1",
    "Some_Pkg[extra1,extra2]>=1.0",
]

[project.optional-dependencies]
pi = ["spidev>=3.6; sys_platform == 'linux' and platform_machine == 'aarch64'"]
test = ["pytest>=6.2.5", "babel>=2.17"]
'''


def run(*args: str) -> subprocess.CompletedProcess:
    """``python -m tools.floors ARGS`` from the repository root, as make test-floors runs it."""
    return subprocess.run([sys.executable, "-m", "tools.floors", *args], capture_output=True, text=True, check=False,
                          cwd=ROOT)


def write(tmp_path: Path, text: str, name: str = "pyproject.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_floors_pins_every_floor_of_the_dependencies_and_the_extras_asked_for(tmp_path):
    done = run("--pyproject", str(write(tmp_path, SAMPLE)), "--extra", "test", "--extra", "pi")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "pillow==9.3",
        "luma.oled==3.12.0",
        "Some_Pkg[extra1,extra2]==1.0",
        "pytest==6.2.5",
        "babel==2.17",
        "spidev==3.6; sys_platform == 'linux' and platform_machine == 'aarch64'",
    ]


def test_floors_without_extras_pins_the_dependencies_only(tmp_path):
    done = run("--pyproject", str(write(tmp_path, SAMPLE)))
    assert done.stdout.splitlines() == ["pillow==9.3", "luma.oled==3.12.0", "Some_Pkg[extra1,extra2]==1.0"]


def test_floors_of_the_real_pyproject_are_its_own_floors():
    """Each line is one requirement of pyproject.toml (dependencies, then the test extra), at its >= version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    done = run("--extra", "test")
    assert done.returncode == 0, done.stderr
    pins = done.stdout.splitlines()
    assert len(pins) == len(wanted) and len(pins) >= 7
    for pin, requirement in zip(pins, wanted):
        name, version = pin.split("==")
        assert requirement.replace(" ", "").startswith(f"{name}>={version}"), (pin, requirement)
    assert {pin.split("==")[0].lower() for pin in pins} >= {"pillow", "gpiozero", "luma.oled", "luma.core", "pytest"}


@pytest.mark.parametrize(("requirement", "message"), [
    ("pillow", "pillow needs exactly one >= floor (has 0)"),
    ("pillow>=9,>=10", "pillow needs exactly one >= floor (has 2)"),
    ("pillow>=9.3,<12", "pillow: <12 is not a plain floor"),
    ("pillow~=9.3", "pillow: ~=9.3 is not a plain floor"),
    ("pillow==9.3", "pillow: ==9.3 is not a plain floor"),
    ("pillow>=9.3 junk", "pillow: cannot read the version specifier"),
])
def test_floors_refuses_a_requirement_whose_floor_it_cannot_derive(tmp_path, requirement, message):
    done = run("--pyproject", str(write(tmp_path, f'[project]\ndependencies = ["{requirement}"]\n')))
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_floors_unknown_extra_missing_file_and_bad_toml_are_one_line_errors(tmp_path):
    cases = [
        (("--pyproject", str(write(tmp_path, SAMPLE)), "--extra", "docs"), "has no extra 'docs' (it has: pi, test)"),
        (("--pyproject", str(tmp_path / "none.toml")), "No such file"),
        (("--pyproject", str(write(tmp_path, "[project\n", "bad.toml"))), "bad.toml: Expected ']'"),
    ]
    for args, message in cases:
        done = run(*args)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_floors_pin_keeps_the_marker_and_the_extras():
    assert floors.pin("a[b] >= 1.2 ; python_version < '3.12'") == "a[b]==1.2; python_version < '3.12'"
