"""``cantstop-box replay FILE``: the state view after a game record (CONTRACT.md).

Events are checked in order, so the error names the first bad event. On bad
input it prints nothing on standard output, one line on standard error
naming the problem (``event N: ...`` for an event) and exits with status 2.
A record may be at most 4 MB (a long game is under 100 KB); the file is read
in chunks and refused as soon as it passes that, so ``replay /dev/zero``
stops at once.
"""

import argparse
import json
import sys

from engine import CantStopError, parse_json, replay_json, state_view
from boxcli.cli import write_stdout

DESCRIPTION = __doc__

#: The biggest game record read; checked while reading.
MAX_RECORD_BYTES = 4 * 1024 * 1024
CHUNK = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record in JSON (at most 4 MB), or - for standard input")


def read_limited(f, limit: int = MAX_RECORD_BYTES) -> bytes:
    """At most ``limit`` bytes of ``f``, read in chunks; a one-line ValueError as soon as there are more.

    Chunks also let Ctrl-C through between reads.
    """
    chunks, size = [], 0
    while True:
        chunk = f.read(min(CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ValueError(f"bigger than {limit // (1024 * 1024)} MB: not a game record "
                             "(a long game is under 100 KB)")


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` is standard input); OSError or a one-line ValueError on failure."""
    if path == "-":
        if sys.stdin is None:
            raise OSError("standard input is closed")
        data = read_limited(sys.stdin.buffer)
    else:
        with open(path, "rb") as f:
            data = read_limited(f)
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
    write_stdout(json.dumps(state_view(state)) + "\n")
    return 0
