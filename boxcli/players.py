"""``cantstop-box players``: the names a seat can take on the new-game screen.

    cantstop-box players                    list them (-l: a table of ids, names, games and wins)
    cantstop-box players add NAME           add a player
    cantstop-box players remove NAME        take one off the list (their games stay in history)
    cantstop-box players rename OLD NEW     rename (their statistics follow the new name)

The list starts as the config's ``[game] roster``; the first change keeps a
copy in the game store, which the box uses from then on. A person is an id
with a name: ``rename`` keeps the id (their games and statistics follow), a
new player with a name somebody once had is somebody new. Changes work while
the box runs: its new-game screen shows them within a second. Names are
kept NFKC-normalised and trimmed ("Ａｎｎ" is "Ann"), in any script the box's
fonts can draw; a name they cannot draw is refused, saying which character.
Exit status 75 if the game file stays locked by another program.
"""

import argparse

from boxcli.cli import UsageError, write_stdout
from boxcli.export import add_state_dir_argument

DESCRIPTION = __doc__
EXIT_IN_USE = 75
EXIT_CONFIG = 78


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="list", choices=("list", "add", "remove", "rename"),
                        help="what to do (default: list)")
    parser.add_argument("names", nargs="*", metavar="NAME", help="the player's name (rename: OLD NEW)")
    add_state_dir_argument(parser)
    parser.add_argument("--config", metavar="FILE", help="the config file whose roster starts the list")
    parser.add_argument("-l", "--long", action="store_true",
                        help="list: a table of each person's id, name, games and wins")


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
        roster, counts = _read(state_dir, cfg.game.roster, args.long)
        listed = _table(roster, counts) if args.long and roster.names else _listed(roster)
        write_stdout(listed or "(no players yet: cantstop-box players add NAME)\n")
        return 0
    change = {"add": R.add, "remove": R.remove, "rename": R.rename}[args.action]
    return _write(state_dir, cfg.game.roster, lambda roster: change(roster, *args.names))


def _read(state_dir, config_names, counts: bool = False):
    """The roster, and with ``counts`` each person's (games, wins) by the statistics' key."""
    from firmware.table import person_stats, roster as R
    from firmware.table.seat import seats_from_meta
    from firmware.store import Store, StoreError, StoreMissingError, default_state_dir

    try:
        store = Store.open(state_dir or default_state_dir(), readonly=True)
    except StoreMissingError:
        return R.from_fact(None, config_names), {}
    except StoreError as err:
        raise UsageError(str(err)) from None
    try:
        roster = R.load(store, config_names)
        if not counts:
            return roster, {}
        try:
            sums = person_stats.load_sums(person_stats.Unwritten(store, {}), seats_from_meta)
        except StoreError as err:
            raise UsageError(str(err)) from None
        return roster, _counts(roster, sums)
    finally:
        store.close()


def _counts(roster, sums: dict | None) -> dict:
    """(games, wins) of contests (two or more seats) per statistics key, from the kept sums (None: no games),
    as the statistics screen adds them."""
    from firmware.table import tally_sums

    out: dict = {}
    for seat, numbers in tally_sums.seats(sums) if sums else ():
        if seat.get("bot"):
            continue
        key = roster.who(seat)[0]
        games, wins = out.get(key, (0, 0))
        out[key] = (games + numbers.get("games", 0), wins + numbers.get("wins", 0))
    return out


def _table(roster, counts) -> str:
    """id, name, games and wins of each listed person, the columns lined up by display width."""
    from firmware.table.names import escaped, pad, width

    rows = [("id", "name", "games", "wins")]
    for name, person in zip(roster.names, roster.ids):
        key = ("id", person) if person is not None else roster.who({"name": name})[0]
        games, wins = counts.get(key, (0, 0))
        rows.append(("-" if person is None else str(person), escaped(name), str(games), str(wins)))
    widths = [max(width(r[i]) for r in rows) for i in range(4)]
    return "".join("  ".join(pad(c, w, right=i != 1) for i, (c, w) in enumerate(zip(r, widths))).rstrip() + "\n"
                   for r in rows)


def _write(state_dir, config_names, change) -> int:
    """One short transaction on the roster fact, whether the box runs or not (it shows the change at once)."""
    import sys

    from firmware.table import roster as R
    from firmware.store import StoreError, default_state_dir
    from firmware.store.shared import StoreBusyError, update_fact

    def changed(raw):
        return change(R.from_fact(raw, config_names)).to_json()

    try:
        kept = update_fact(state_dir or default_state_dir(), R.ROSTER_KEY, changed)
    except R.RosterError as err:
        raise UsageError(str(err)) from None
    except StoreBusyError as err:
        print(f"cantstop-box players: {err}", file=sys.stderr)
        return EXIT_IN_USE
    except StoreError as err:
        print(f"cantstop-box players: {err}", file=sys.stderr)
        return 1
    write_stdout(_listed(R.from_fact(kept, config_names)))
    return 0


def _listed(roster) -> str:
    from firmware.table.names import escaped

    return "".join(f"{escaped(name)}\n" for name in roster.names)
