"""``cantstop-box simulate``: play many seeded games between strategy players and summarise.

Examples::

    cantstop-box simulate --players rule28 --games 2000 --seed 1
    cantstop-box simulate --players strong,rule28 --games 1000 --seed 7 --rotate --json

Game ``i`` draws its dice from a seed derived from (SEED, i), so the summary
is the same whatever the number of worker processes. Solitaire (one player)
reports the mean turns to claim the needed columns. Games stop after
``--max-turns`` turns (every player's turns counted); the summary says how
many hit that cap. Bad arguments: one line on standard error, exit status 2.

Games are played and counted as a stream, so memory stays flat whatever
``--games`` is. ``--games`` is at most 1,000,000,000 (days of computing on a
laptop): a bigger number is a typo, not a series anyone waits for, and is
refused in one line. Ctrl-C stops a long series (exit status 130).
"""

import argparse
import contextlib
import json
import os
import sys

from engine import Rules, RulesError

DESCRIPTION = __doc__

CHUNK = 25
MAX_GAMES = 1_000_000_000
MAX_WORKERS = 256


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


def _whole(text, name: str, low: int, high: int | None = None) -> int:
    from boxcli.cli import shown

    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {shown(text)}") from None
    if value < low:
        raise UsageError(f"{name} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise UsageError(f"{name} must be at most {high:,}, not {shown(text)}")
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


def iter_results(kinds, games: int, seed: int, rules=None, max_turns: int = 500, rotate: bool = False,
                 workers: int = 1):
    """Every game's result, in game order, as a stream: only a few chunks are ever in flight.

    With worker processes, a Ctrl-C is noted and raised (KeyboardInterrupt, the workers killed) when
    the stream is next read, or within a twentieth of a second while it waits for them
    (boxcli.workers).
    """
    jobs = ((kinds, seed, s, min(s + CHUNK, games), rules, max_turns, rotate) for s in range(0, games, CHUNK))
    if workers <= 1 or games <= CHUNK:
        for job in jobs:
            yield from _part(job)
        return
    import multiprocessing

    from boxcli.workers import ordered

    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    # A few chunks a worker in flight keep memory flat; in order: the summary does not depend on scheduling.
    with contextlib.closing(ordered(_part, jobs, workers, context, window=4 * workers)) as parts:
        for part in parts:
            yield from part


def run_series(kinds, games: int, seed: int, rules=None, max_turns: int = 500, rotate: bool = False,
               workers: int = 1, progress=None) -> list:
    """Every game's result, in game order; ``progress(done, total)`` is called as chunks finish."""
    results = []
    for result in iter_results(kinds, games, seed, rules, max_turns, rotate, workers):
        results.append(result)
        if progress and (len(results) % CHUNK == 0 or len(results) == games):
            progress(len(results), games)
    return results


class Tally:
    """The series summary counted game by game (what ``engine.players.summarize`` gives for the list).

    Turn counts go into a histogram (a game has at most ``max_turns`` turns),
    so the mean and the median need no list of every game.
    """

    def __init__(self, kinds, seed, rotate: bool, max_turns: int) -> None:
        self.kinds, self.seed, self.rotate, self.max_turns = list(kinds), seed, rotate, max_turns
        self.games = self.capped = 0
        self.wins_by_seat = [0] * len(self.kinds)
        self.wins_by_player = [0] * len(self.kinds)
        self.turns: dict[int, int] = {}

    def add(self, r) -> None:
        self.games += 1
        if r.winner is not None:
            self.wins_by_seat[r.winner] += 1
            self.wins_by_player[r.order[r.winner]] += 1
        if r.capped:
            self.capped += 1
        else:
            self.turns[r.turns] = self.turns.get(r.turns, 0) + 1

    def _median(self, count: int):
        lower, upper = (count - 1) // 2, count // 2  # the middle position(s), counting from 0
        seen, low_value = 0, None
        for value in sorted(self.turns):
            seen += self.turns[value]
            if low_value is None and seen > lower:
                low_value = value
            if seen > upper:
                return low_value if lower == upper else (low_value + value) / 2
        return None

    def summary(self) -> dict:
        count = sum(self.turns.values())
        total = sum(t * n for t, n in self.turns.items())
        summary = {
            "players": self.kinds, "games": self.games, "seed": self.seed, "rotate": self.rotate,
            "max_turns": self.max_turns, "wins_by_seat": self.wins_by_seat, "wins_by_player": self.wins_by_player,
            "no_winner": self.games - sum(self.wins_by_seat), "capped": self.capped,
            "mean_turns": round(total / count, 4) if count else None,
            "median_turns": self._median(count) if count else None,
            "first_player_win_rate": round(self.wins_by_seat[0] / self.games, 4) if self.games else None,
        }
        if len(self.kinds) == 1:
            summary["mean_turns_to_claim"] = summary["mean_turns"]
        return summary


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
    from boxcli.cli import write_stdout

    kinds = parse_players(args.players)
    games = _whole(args.games, "--games", 1, MAX_GAMES)
    seed = _whole(args.seed, "--seed", 0)
    max_turns = _whole(args.max_turns, "--max-turns", 1)
    workers = (_whole(args.workers, "--workers", 1, MAX_WORKERS) if args.workers is not None
               else (os.cpu_count() or 1))
    try:
        rules = Rules(columns_to_win=_whole(args.columns_to_win, "--columns-to-win", 1),
                      speedy=args.speedy, risky=args.risky)
    except RulesError as err:
        raise UsageError(str(err)) from None
    progress = _bar(sys.stderr) if sys.stderr.isatty() else None
    tally = Tally(kinds, seed, args.rotate, max_turns)
    for result in iter_results(kinds, games, seed, rules, max_turns, args.rotate, workers):
        tally.add(result)
        if progress and (tally.games % CHUNK == 0 or tally.games == games):
            progress(tally.games, games)
    summary = tally.summary()
    summary["rules"] = rules.to_json()
    write_stdout((json.dumps(summary) if args.json else format_summary(summary)) + "\n")
    return 0
