"""``cantstop-box replay FILE``: the state view after a game record (CONTRACT.md).

Events are checked in order, so the error names the first bad event. On bad
input it prints nothing on standard output, one line on standard error
naming the problem (``event N: ...`` for an event) and exits with status 2.
"""

import argparse
import json
import sys

from engine import CantStopError, parse_json, replay_json, state_view

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record in JSON, or - for standard input")


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` is standard input); OSError or a one-line ValueError on failure."""
    if path == "-":
        if sys.stdin is None:
            raise OSError("standard input is closed")
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(f"not valid JSON: not UTF-8 text (byte {err.start})") from None


def _one_line(text: str) -> str:
    """Whatever a message quotes (a player's name, say), it stays one line."""
    return " ".join(text.splitlines())


def run(args) -> int:
    try:
        text = read_text(args.file)
        state = replay_json(parse_json(text))
    except OSError as err:
        where = "standard input" if args.file == "-" else args.file
        print(_one_line(f"cannot read {where}: {err.strerror or err}"), file=sys.stderr)
        return 2
    except (CantStopError, ValueError) as err:
        print(_one_line(str(err)), file=sys.stderr)
        return 2
    try:
        print(json.dumps(state_view(state)), flush=True)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing more to say
        _quiet_stdout()
        return 1
    except OSError as err:
        print(_one_line(f"cannot write the state view: {err.strerror or err}"), file=sys.stderr)
        _quiet_stdout()
        return 1
    return 0


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
