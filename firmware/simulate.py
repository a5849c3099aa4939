"""``cantstop-box simulate``: play many seeded games between strategy players and summarise.

Examples::

    cantstop-box simulate --players rule28 --games 2000 --seed 1
    cantstop-box simulate --players strong,rule28 --games 1000 --seed 7 --rotate --json

Game ``i`` draws its dice from a seed derived from (SEED, i), so the summary
is the same whatever the number of worker processes. Solitaire (one player)
reports the mean turns to claim the needed columns. Games stop after
``--max-turns`` turns (every player's turns counted); the summary says how
many hit that cap. Bad arguments: one line on standard error, exit status 2.
"""

import argparse
import json
import os
import sys

from engine import Rules, RulesError

DESCRIPTION = __doc__

CHUNK = 25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Numbers are read as text and checked in run(), so every mistake is one line.
    parser.add_argument("--players", default="rule28,strong",
                        help="1 to 4 comma-separated kinds from random, rule28, strong (default rule28,strong)")
    parser.add_argument("--games", default="1000", help="number of games (default 1000)")
    parser.add_argument("--seed", default="1", help="series seed: game i uses a seed derived from (SEED, i)")
    parser.add_argument("--rotate", action="store_true",
                        help="rotate seats game by game so each player sits in each seat equally often")
    parser.add_argument("--workers", default=None, help="processes to use (default: all cores)")
    parser.add_argument("--max-turns", default="500", help="turn cap per game, all players' turns (default 500)")
    parser.add_argument("--columns-to-win", default="3", help="columns to claim to win, 1..11 (default 3)")
    parser.add_argument("--speedy", action="store_true", help="speedy variant")
    parser.add_argument("--risky", action="store_true", help="risky variant")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")


class UsageError(ValueError):
    """A mistake in the arguments: reported in one line, exit status 2."""


def _whole(text, name: str, low: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {text!r}") from None
    if value < low:
        raise UsageError(f"{name} must be at least {low}, not {value}")
    return value


def parse_players(text: str) -> list[str]:
    """The player kinds of ``--players``; one-line UsageError when wrong."""
    from engine.players import PLAYER_KINDS

    kinds = [k.strip().lower() for k in str(text).split(",") if k.strip()]
    if not 1 <= len(kinds) <= 4:
        raise UsageError(f"--players needs 1 to 4 players, not {len(kinds)}")
    for k in kinds:
        if k not in PLAYER_KINDS:
            raise UsageError(f"unknown player kind {k!r} (known: {', '.join(sorted(PLAYER_KINDS))})")
    return kinds


def _part(job):
    from engine.players import play_series_part

    kinds, seed, start, stop, rules, max_turns, rotate = job
    return play_series_part(kinds, seed, range(start, stop), rules, max_turns, rotate)


def run_series(kinds, games: int, seed: int, rules=None, max_turns: int = 500, rotate: bool = False,
               workers: int = 1, progress=None) -> list:
    """Every game's result, in game order; ``progress(done, total)`` is called as chunks finish."""
    jobs = [(kinds, seed, s, min(s + CHUNK, games), rules, max_turns, rotate) for s in range(0, games, CHUNK)]
    results = []
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            results.extend(_part(job))
            if progress:
                progress(len(results), games)
        return results
    import multiprocessing

    with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers) as pool:
        for part in pool.imap(_part, jobs):  # in order: the summary does not depend on scheduling
            results.extend(part)
            if progress:
                progress(len(results), games)
    return results


def _bar(stream):
    width = 30

    def show(done, total):
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


def format_summary(s: dict) -> str:
    lines = [f"{s['games']} games of {', '.join(s['players'])} (seed {s['seed']}"
             f"{', seats rotated' if s['rotate'] else ''})"]
    if len(s["players"]) == 1:
        lines.append(f"mean turns to claim: {s['mean_turns_to_claim']}  median: {s['median_turns']}")
    else:
        for k, (name, w) in enumerate(zip(s["players"], s["wins_by_player"])):
            lines.append(f"  {name:<8} wins {w:>7}  ({100 * w / s['games']:.1f}%)")
        lines.append("wins by seat: " + ", ".join(str(w) for w in s["wins_by_seat"]))
        lines.append(f"first player win rate: {s['first_player_win_rate']}")
        lines.append(f"mean turns per game: {s['mean_turns']}  median: {s['median_turns']}")
    lines.append(f"games without a winner: {s['no_winner']} (hit the {s['max_turns']}-turn cap: {s['capped']})")
    return "\n".join(lines)


def run(args) -> int:
    try:
        return _run(args)
    except UsageError as err:
        print(f"cantstop-box simulate: {err}", file=sys.stderr)
        return 2


def _run(args) -> int:
    from engine.players import summarize

    kinds = parse_players(args.players)
    games = _whole(args.games, "--games", 1)
    seed = _whole(args.seed, "--seed", 0)
    max_turns = _whole(args.max_turns, "--max-turns", 1)
    workers = _whole(args.workers, "--workers", 1) if args.workers is not None else (os.cpu_count() or 1)
    try:
        rules = Rules(columns_to_win=_whole(args.columns_to_win, "--columns-to-win", 1),
                      speedy=args.speedy, risky=args.risky)
    except RulesError as err:
        raise UsageError(str(err)) from None
    progress = _bar(sys.stderr) if sys.stderr.isatty() else None
    results = run_series(kinds, games, seed, rules, max_turns, args.rotate, workers, progress)
    summary = summarize(kinds, results, seed, args.rotate, max_turns)
    summary["rules"] = rules.to_json()
    print(json.dumps(summary) if args.json else format_summary(summary))
    return 0
