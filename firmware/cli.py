"""The ``cantstop-box`` command line.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so
``cantstop-box replay`` stays quick on a Pi Zero.
"""

import argparse
import importlib
import sys

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("firmware.replay", "print the state view after a game record (FILE, or - for standard input)"),
    "simulate": ("firmware.simulate", "play many seeded games between strategy players (random, rule28, strong) and summarise"),
    "export": ("firmware.export", "write a saved game as a game record (the open game, else the latest)"),
    "history": ("firmware.history", "list the saved games: players, turns, winner, duration"),
    "run": ("firmware.run:RunCommand", "run the box on a Raspberry Pi (GPIO buttons, OLED)"),
    "emulate": ("firmware.run:EmulateCommand", "play the box in this terminal: keys for buttons, the OLED drawn in text"),
}


class UsageError(Exception):
    """A user's mistake on the command line: reported in one line, exit status 2."""


def _command(spec: str):
    """The object serving a command: a module, or ``module:attribute``."""
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and exit status 2), like every other error."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(selected: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the selected command's module is imported (all of them for --help)."""
    parser = _Parser(
        prog="cantstop-box",
        description="The Can't Stop table-side box: rolls the dice, referees the game, keeps it safe.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name, (spec, help_text) in COMMANDS.items():
        if selected is not None and name != selected:
            sub.add_parser(name, help=help_text)
            continue
        command = _command(spec)
        p = sub.add_parser(name, help=help_text, description=getattr(command, "DESCRIPTION", help_text),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(p)
        p.set_defaults(_module=command)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    selected = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(selected if selected in COMMANDS else None)
    args = parser.parse_args(argv)
    try:
        return args._module.run(args)
    except UsageError as err:
        print(f"cantstop-box {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
