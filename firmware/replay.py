"""``cantstop-box replay FILE``: the state view after a game record (CONTRACT.md).

On bad input it prints nothing on standard output, one line on standard error
naming the problem (``event N: ...`` for an event) and exits with status 2.
"""

import argparse
import json
import sys

from engine import CantStopError, Record, state_view

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record in JSON, or - for standard input")


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` is standard input); a one-line OSError message on failure."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(f"not valid JSON: not UTF-8 text (byte {err.start})") from None


def run(args) -> int:
    try:
        text = read_text(args.file)
        state = Record.from_text(text).replay()
    except OSError as err:
        print(f"cannot read {args.file}: {err.strerror or err}", file=sys.stderr)
        return 2
    except (CantStopError, ValueError) as err:
        print(str(err), file=sys.stderr)
        return 2
    print(json.dumps(state_view(state)))
    return 0
