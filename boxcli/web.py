"""``cantstop-box web``: serve the live web view of the saved games (docs/web.md).

A page for a phone or a TV on the box's network: the game being played,
updating by itself after every press, the history, each game step by step,
its game record, and the statistics per person. It reads the store
read-only beside a running box (its own process; the box is never slowed
or changed). Needs the optional extra: pip install 'cantstop-box[web]'.
"""

import argparse

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="config file (default: /etc/cantstop-box/config.toml "
                        "or ~/.config/cantstop-box/config.toml if present, else built-in defaults)")
    parser.add_argument("--state-dir", metavar="DIR", help="where the game store lives (overrides the config)")
    parser.add_argument("--host", metavar="ADDRESS", help="the address to listen on (default: [web] host, 0.0.0.0)")
    parser.add_argument("--port", metavar="N", type=_port, help="the port (default: [web] port, 8080)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail")


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text[:24]!r}")
    return int(text)


def run(args) -> int:
    from web.command import run as serve

    return serve(args)
