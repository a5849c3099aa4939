"""``cantstop-box export [GAME]``: write a saved game as a game record (CONTRACT.md).

Without GAME, the open game, else the latest one. The output is accepted by
``cantstop-box replay -``. Besides the contract's keys it carries optional
ones: ``id``, ``status``, ``started`` and ``finished`` (ISO 8601, UTC),
``date_known`` (false when those dates cannot be right: a clock not yet set,
or one that jumped during the game), ``elapsed`` (seconds of play, by a clock
that cannot jump, when the box kept it), ``winner`` and ``meta`` (the seats:
colour, bot, name and person id of each player); a damaged game
also has ``problem`` and ``damaged_events`` (the stored rows that do not
replay, kept verbatim) while ``events`` holds the ones that do.
"""

import argparse
import sys

from boxcli.cli import UsageError, shown, write_stdout
from firmware.store import Store, StoreError, default_state_dir
from firmware.table.records import MAX_GAME_NUMBER, format_record, record_json

DESCRIPTION = __doc__


def add_state_dir_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state-dir", metavar="DIR",
                        help=f"where the games are kept (default: {default_state_dir()})")


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the config file whose [storage] state_dir names the store (default: the box's)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", nargs="?", help="the game's number (see `cantstop-box history`)")
    add_state_dir_argument(parser)
    add_config_argument(parser)
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def open_store(args) -> Store:
    """The store named by ``--state-dir``, else by the config's ``[storage] state_dir``, else the default
    (the box's own on an installed box), read-only; a one-line UsageError if none."""
    try:
        return Store.open(store_dir(args), readonly=True)
    except StoreError as err:
        raise UsageError(str(err)) from None


def store_dir(args):
    """Where ``args`` says the store is (``--state-dir``, ``--config``, the installed box's, the user's)."""
    from firmware.store.installed import state_dir

    if args.state_dir:
        return state_dir(args.state_dir, None)
    from firmware.config import ConfigError, load

    try:
        cfg = load(getattr(args, "config", None))
    except ConfigError as err:
        raise UsageError(f"{err} (or name the store with --state-dir)") from None
    return state_dir(None, cfg.state_dir)


def parse_game_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1 or not text.strip().isdigit():
        raise UsageError(f"GAME must be a game number like 3, not {shown(text)}")
    if value > MAX_GAME_NUMBER:
        raise UsageError(f"there is no game {shown(text)}: game numbers stop at {MAX_GAME_NUMBER}")
    return value


def run(args) -> int:
    store = open_store(args)
    try:
        try:
            if args.game is not None:
                game = store.game(parse_game_id(args.game))
            else:
                game = store.open_game()
                if game is None:
                    latest = store.games(limit=1)
                    if not latest:
                        raise UsageError(f"no saved games in {store.path.parent}")
                    game = store.game(latest[0].id)
        except StoreError as err:
            raise UsageError(str(err)) from None
    finally:
        store.close()
    text = format_record(record_json(game))
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
    else:
        write_stdout(text)
    if game.problem:
        print(f"cantstop-box export: warning: {game.problem}; exported the {len(game.events)} events that replay",
              file=sys.stderr)
    return 0
