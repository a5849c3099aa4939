"""The declared dependency floors as exact pins: every ``name>=X`` of pyproject.toml becomes ``name==X``.

``make test-floors`` installs what this prints into a venv of its own and
runs the hardware and screen tests against it, so the floors in
pyproject.toml are the versions that are tested, not a second list kept by
hand (docs/building.md, "Dependency floors").

    python3 -m tools.floors [--extra test] [--pyproject PATH]

prints one requirement a line: the project's ``dependencies`` and those of
each ``--extra``, with their environment markers kept (so the Pi-only extra
pins nothing on a laptop). A requirement with no ``>=`` floor, or with an
upper bound, is an error (one line, exit status 2): its lowest version could
not be derived.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: name, [extras], version specifiers, ; marker (PEP 508, without URLs)
REQUIREMENT = re.compile(
    r"""^\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*
        (?P<extras>\[[^\]]*\])?\s*
        (?P<specs>[^;]*?)\s*
        (?:;\s*(?P<marker>.*?))?\s*$""",
    re.VERBOSE,
)
SPEC = re.compile(r"^\s*(?P<op>~=|===|==|!=|<=|>=|<|>)\s*(?P<version>[^\s,]+)\s*$")


class FloorError(ValueError):
    """A requirement whose floor cannot be derived."""


def pin(requirement: str) -> str:
    """``requirement`` pinned to its ``>=`` floor, extras and marker kept.

    >>> pin("pillow>=9.4")
    'pillow==9.4'
    >>> pin("luma.oled >= 3.13, != 3.14.0")
    'luma.oled==3.13'
    >>> pin("spidev>=3.6; sys_platform == 'linux'")
    "spidev==3.6; sys_platform == 'linux'"
    """
    match = REQUIREMENT.match(requirement)
    if match is None or not match["name"]:
        raise FloorError(f"cannot read the requirement {requirement!r}")
    name, extras, marker = match["name"], match["extras"] or "", match["marker"]
    floors = []
    for part in filter(None, (p.strip() for p in match["specs"].split(","))):
        spec = SPEC.match(part)
        if spec is None:
            raise FloorError(f"{name}: cannot read the version specifier {part!r}")
        op, version = spec["op"], spec["version"]
        if op == ">=":
            floors.append(version)
        elif op in ("<", "<=", "==", "===", "~="):
            raise FloorError(f"{name}: {op}{version} is not a plain floor; write it as >=X so the floors can be tested")
    if len(floors) != 1:
        raise FloorError(f"{name} needs exactly one >= floor (has {len(floors)}), so its lowest version is known")
    return f"{name}{extras}=={floors[0]}" + (f"; {marker}" if marker else "")


def floors(pyproject: dict, extras: list[str]) -> list[str]:
    """The pinned floors of the project's dependencies and of ``extras``, in the file's order.

    >>> floors({"project": {"dependencies": ["a>=1"], "optional-dependencies": {"t": ["b>=2.0"]}}}, ["t"])
    ['a==1', 'b==2.0']
    """
    project = pyproject.get("project", {})
    optional = project.get("optional-dependencies", {})
    wanted = list(project.get("dependencies", []))
    for extra in extras:
        if extra not in optional:
            known = ", ".join(optional) or "none"
            raise FloorError(f"pyproject.toml has no extra {extra!r} (it has: {known})")
        wanted += optional[extra]
    return [pin(requirement) for requirement in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print pyproject.toml's dependency floors as == pins.")
    parser.add_argument("--extra", action="append", default=[], help="also the floors of this extra (repeatable)")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args(argv)
    try:
        data = tomllib.loads(args.pyproject.read_text(encoding="utf-8"))
        pins = floors(data, args.extra)
    except (OSError, tomllib.TOMLDecodeError, FloorError) as exc:
        print(f"floors: {args.pyproject}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(pins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
