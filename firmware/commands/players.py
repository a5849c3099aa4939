"""``cantstop-box players``: the names a seat can take on the new-game screen.

    cantstop-box players                    list them
    cantstop-box players add NAME           add a player
    cantstop-box players remove NAME        take one off the list (their games stay in history)
    cantstop-box players rename OLD NEW     rename (their statistics follow the new name)

The list starts as the config's ``[game] roster``; the first change keeps a
copy in the game store, which the box uses from then on. Changing it needs
the store to itself: stop the box first (``sudo systemctl stop cantstop-box``)
or it says so in one line (exit status 75). Names may be in any script.
"""

import argparse

from firmware.commands.cli import UsageError, write_stdout
from firmware.commands.export import add_state_dir_argument

DESCRIPTION = __doc__
EXIT_IN_USE = 75
EXIT_CONFIG = 78


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="list", choices=("list", "add", "remove", "rename"),
                        help="what to do (default: list)")
    parser.add_argument("names", nargs="*", metavar="NAME", help="the player's name (rename: OLD NEW)")
    add_state_dir_argument(parser)
    parser.add_argument("--config", metavar="FILE", help="the config file whose roster starts the list")


_ARITY = {"list": 0, "add": 1, "remove": 1, "rename": 2}


def run(args) -> int:
    from firmware.table import roster as R
    from firmware.config import ConfigError, load

    want = _ARITY[args.action]
    if len(args.names) != want:
        what = {0: "no name", 1: "one NAME", 2: "OLD and NEW names"}[want]
        raise UsageError(f"{args.action} takes {what}, not {len(args.names)}")
    try:
        cfg = load(args.config)
    except ConfigError as err:
        print(f"cantstop-box players: {err}", file=__import__("sys").stderr)
        return EXIT_CONFIG
    state_dir = args.state_dir or cfg.state_dir
    if args.action == "list":
        roster = _read(state_dir, cfg.game.roster)
        write_stdout("".join(f"{name}\n" for name in roster.names) or "(no players yet: cantstop-box players add NAME)\n")
        return 0
    change = {"add": R.add, "remove": R.remove, "rename": R.rename}[args.action]
    return _write(state_dir, cfg.game.roster, lambda roster: change(roster, *args.names))


def _read(state_dir, config_names):
    from firmware.table import roster as R
    from firmware.store import Store, StoreError, StoreMissingError, default_state_dir

    try:
        store = Store.open(state_dir or default_state_dir(), readonly=True)
    except StoreMissingError:
        return R.Roster(tuple(config_names))
    except StoreError as err:
        raise UsageError(str(err)) from None
    try:
        return R.load(store, config_names)
    finally:
        store.close()


def _write(state_dir, config_names, change) -> int:
    import sys

    from firmware.table import roster as R
    from firmware.store import Store, StoreError, StoreLockedError, default_state_dir

    try:
        store = Store.open(state_dir or default_state_dir())
    except StoreLockedError as err:
        print(f"cantstop-box players: {err}; stop it to change the players", file=sys.stderr)
        return EXIT_IN_USE
    except StoreError as err:
        raise UsageError(str(err)) from None
    try:
        try:
            roster = change(R.load(store, config_names))
        except R.RosterError as err:
            raise UsageError(str(err)) from None
        try:
            store.put_fact(R.ROSTER_KEY, roster.to_json())
        except StoreError as err:
            print(f"cantstop-box players: {err}", file=sys.stderr)
            return 1
    finally:
        store.close()
    write_stdout("".join(f"{name}\n" for name in roster.names))
    return 0
