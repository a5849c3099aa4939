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
    "export": ("firmware.export", "write a saved game as a game record (the open game, else the latest)"),
    "history": ("firmware.history", "list the saved games: players, turns, winner, duration"),
}


class UsageError(Exception):
    """A user's mistake on the command line: reported in one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cantstop-box",
        description="The Can't Stop table-side box: rolls the dice, referees the game, keeps it safe.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=getattr(module, "DESCRIPTION", help_text),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
