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
    "replay": ("boxcli.replay", "print the state view after a game record (FILE, or - for standard input)"),
    "simulate": ("boxcli.simulate", "play many seeded games between strategy players (random, rule28, strong) and summarise"),
    "export": ("boxcli.export", "write a saved game as a game record (the open game, else the latest)"),
    "history": ("boxcli.history", "list the saved games: players, turns, winner, duration"),
    "backup": ("boxcli.backup", "write a consistent copy of the saved games to FILE, while the box runs"),
    "import": ("boxcli.imports", "bring games back from a backup or from game records (the box stopped)"),
    "players": ("boxcli.players", "list, add, remove or rename the players' names a seat can take"),
    "pair": ("boxcli.pair", "print a code that pairs a phone with the box for ten minutes (docs/phone.md)"),
    "run": ("boxcli.run:RunCommand", "run the box on a Raspberry Pi (GPIO buttons, OLED)"),
    "emulate": ("boxcli.emulate:EmulateCommand", "play the box in this terminal: keys for buttons, the OLED drawn in text"),
    "web": ("boxcli.web", "serve the live game, the history and the statistics as a web page (docs/web.md)"),
    "selftest": ("boxcli.selftest", "on the Pi: find the display on its bus, draw a test pattern, name each button pressed"),
    "bench": ("boxcli.bench", "on the Pi: the board, its buses, Wi-Fi and root, the hardware found and press to glass, a fact a line"),
}


class UsageError(Exception):
    """A user's mistake on the command line: reported in one line, exit status 2."""


class OutputError(Exception):
    """Standard output cannot take the text (a full disk, ``> /dev/full``): one line, exit status 1."""


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush; an ``OutputError`` (one line) if it cannot."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except OSError as err:
        raise OutputError(f"cannot write to standard output: {err.strerror or err}") from None


def shown(text: str, limit: int = 24) -> str:
    """A user's word quoted for a one-line message, cut short when it is long."""
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _quiet_stdout() -> None:
    """Point standard output at /dev/null so the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _os_error_line(err: OSError) -> str:
    """An operating-system error in one line: what failed and on which file, with a hint for permissions."""
    text = err.strerror or str(err) or type(err).__name__
    if err.filename is not None:
        text += f": {err.filename}"
    if isinstance(err, PermissionError):
        text += " (run it as the box's user, or with sudo)"
    return " ".join(text.split())


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
    name = f"cantstop-box {args.command}"
    _keep_logs_off_stderr()
    try:
        return _run(args, name)
    finally:
        import os

        if os.geteuid() == 0:  # run by root on an installed box: the box's store stays the box's user's
            from firmware.store.installed import hand_back

            hand_back()


def _keep_logs_off_stderr() -> None:
    """The box's log lines go where a command that keeps a log sends them (``run``, ``emulate`` and ``web``
    set one up), never to standard error by Python's last resort: every other command says what went
    wrong in its own one line, and the store's line for the journal would say it a second time."""
    import logging

    box = logging.getLogger("cantstop")
    if not any(isinstance(h, logging.NullHandler) for h in box.handlers):
        box.addHandler(logging.NullHandler())


def _run(args, name: str) -> int:
    try:
        code = args._module.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a buffered print fails here, not in the interpreter's exit
        return code
    except UsageError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    except OutputError as err:
        print(f"{name}: {err}", file=sys.stderr)
        _quiet_stdout()
        return 1
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    except OSError as err:  # the system said no (a path too long, a folder not ours, a full disk)
        failed_output = err.filename is None and _stdout_is_broken()
        print(f"{name}: {'cannot write to standard output: ' if failed_output else ''}{_os_error_line(err)}",
              file=sys.stderr)
        if failed_output:
            _quiet_stdout()
        return 1
    except KeyboardInterrupt:
        return 130


def _stdout_is_broken() -> bool:
    """Whether standard output still refuses its buffered text (so the error was writing it)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:
        return True
    return False


if __name__ == "__main__":
    # `python -m boxcli.cli`: run the imported module's main, so that the commands'
    # UsageError and OutputError are the very classes main() catches (not __main__'s copies).
    from boxcli.cli import main as _main

    sys.exit(_main())
