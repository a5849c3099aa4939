"""``cantstop-box pair``: a fresh code that pairs one phone with the box, for an owner at a terminal.

    cantstop-box pair [--state-dir DIR] [--config FILE]

Prints six digits, good for ten minutes and once: type them on the phone at
the web view's /pair page (the address is printed too). The box's menu, Phone,
shows a code and its QR code the same way; the menu's "forget phones" unpairs
every phone (docs/phone.md). Works whether the box runs or not.
"""

import argparse
import time

from boxcli.cli import UsageError, write_stdout
from boxcli.export import add_state_dir_argument

DESCRIPTION = __doc__
EXIT_CONFIG = 78


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_state_dir_argument(parser)
    parser.add_argument("--config", metavar="FILE", help="the config file (its state_dir and web port)")


def run(args) -> int:
    import sys

    from firmware.config import ConfigError, load
    from firmware.store import default_state_dir
    from firmware.table import phones

    try:
        cfg = load(args.config)
    except ConfigError as err:
        print(f"cantstop-box pair: {err}", file=sys.stderr)
        return EXIT_CONFIG
    state_dir = args.state_dir or cfg.state_dir or default_state_dir()
    try:
        code = phones.new_code(state_dir, now=time.time())
    except OSError as err:
        raise UsageError(f"cannot keep a code in {state_dir}: {err.strerror or err}") from None
    write_stdout(f"{code}\n")
    port = phones.served_port(state_dir, cfg.web.port)  # the web view's own, when it runs on another
    print(f"good for 10 minutes, once: type it at {phones.page_address(port)}", file=sys.stderr)
    return 0
