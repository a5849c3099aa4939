"""The command line under hostile conditions: one line on standard error, never a traceback.

A path too long to name a file, a state directory the user may not read,
standard output on a full disk, numbers too big for SQLite, inputs without
end: each is one line and a non-zero exit status.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from boxcli.cli import main
from firmware.store import Store

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout: float = 60) -> subprocess.CompletedProcess:
    """``cantstop-box ARGS`` in a subprocess (1 GB of address space, so a runaway read dies quickly)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    command = [sys.executable, "-m", "boxcli.cli", *args]
    return subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, stdin=stdin, text=True, cwd=REPO,
                          timeout=timeout, preexec_fn=limit)


def one_line(done: subprocess.CompletedProcess, status: int | None = None) -> str:
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode != 0
    if status is not None:
        assert done.returncode == status, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    return lines[0]


@pytest.fixture
def saved(tmp_path) -> Path:
    """A state directory holding one game."""
    state = tmp_path / "state"
    with Store.open(state) as store:
        store.new_game(["Ann", "Bob"], Rules())
    return state


def long_dir(tmp_path) -> str:
    return str(tmp_path / ("x" * 300))


# -- item 6: tracebacks instead of one line -----------------------------------------

@pytest.mark.parametrize("command", [["history"], ["history", "--json"], ["export"], ["export", "1"]])
def test_hostile_state_dir_of_300_characters_is_one_line(tmp_path, capsys, command):
    assert main([*command, "--state-dir", long_dir(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"cantstop-box {command[0]}: File name too long: ")


def test_hostile_emulate_with_a_state_dir_of_300_characters_plays_unsaved(tmp_path):
    done = subprocess.run([sys.executable, "-m", "boxcli.cli", "emulate", "--state-dir", long_dir(tmp_path)],
                          input="q\n", capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def test_hostile_history_permission_denied_is_one_line(saved, capsys, monkeypatch):
    """What a non-root user gets against the shipped 0700 state directory (os.stat says EACCES)."""
    db = saved / "games.sqlite3"

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(db))

    monkeypatch.setattr(Store, "open", classmethod(lambda cls, *a, **k: denied()))
    for command in (["history"], ["history", "--json"], ["export"]):
        assert main([*command, "--state-dir", str(saved)]) == 1
        err = capsys.readouterr().err
        assert err == (f"cantstop-box {command[0]}: Permission denied: {db} "
                       "(run it as the box's user, or with sudo)\n")


# Root reads any folder: without its two capabilities that override file modes it is refused like anyone else.
AS_ANOTHER_USER = ["--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]


def test_hostile_history_by_someone_the_0700_state_dir_refuses(saved):
    """The shipped state directory is 0700 and the box's own: a user who is not the box gets one line. As root the
    folder is given to nobody and root runs without the capabilities that would let it in; as anyone else it is
    the user's own folder closed to its owner too. Either way the code itself stays readable, wherever it lies."""
    saved.chmod(0o700)
    prefix = []
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) runs the command as root without file-mode overrides"
        os.chown(saved, 65534, 65534)
        prefix = [shutil.which("setpriv"), *AS_ANOTHER_USER]
    else:
        saved.chmod(0)
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "boxcli.cli", "history", "--state-dir",
                               str(saved)], capture_output=True, text=True, cwd=REPO, timeout=60)
    finally:
        saved.chmod(0o700)
    line = one_line(done, 1)
    assert line == f"cantstop-box history: Permission denied: {saved / 'games.sqlite3'} " \
                   "(run it as the box's user, or with sudo)"


@pytest.mark.parametrize("command", [
    ["export"], ["history"], ["history", "--json"],
    ["simulate", "--games", "3", "--workers", "1"], ["simulate", "--games", "3", "--workers", "1", "--json"],
])
def test_hostile_standard_output_on_dev_full_is_one_line(saved, command):
    extra = [] if command[0] == "simulate" else ["--state-dir", str(saved)]
    with open("/dev/full", "w") as full:
        done = cli(*command, *extra, stdout=full)
    assert one_line(done, 1) == f"cantstop-box {command[0]}: cannot write to standard output: No space left on device"


def test_hostile_replay_to_dev_full_is_one_line():
    record = REPO / "tests" / "fixtures" / "records" / "two_players.json"
    with open("/dev/full", "w") as full:
        done = cli("replay", str(record), stdout=full)
    assert one_line(done, 1) == "cantstop-box replay: cannot write to standard output: No space left on device"


def test_hostile_export_of_a_game_number_past_sqlite_is_a_usage_error(saved, capsys):
    assert main(["export", "99999999999999999999999", "--state-dir", str(saved)]) == 2
    assert capsys.readouterr().err == ("cantstop-box export: there is no game '99999999999999999999999': "
                                       "game numbers stop at 9223372036854775807\n")


def test_hostile_history_limit_past_sqlite_is_a_usage_error(saved):
    done = cli("history", "-n", "9999999999999999999999", "--state-dir", str(saved))
    assert one_line(done, 2) == ("cantstop-box history: argument -n/--limit: must be a whole number of games "
                                 "from 1 to 9223372036854775807, not '9999999999999999999999' "
                                 "(see cantstop-box history --help)")


def test_hostile_history_limit_at_sqlite_max_still_lists(saved, capsys):
    assert main(["history", "-n", str(2**63 - 1), "--state-dir", str(saved)]) == 0
    assert "Ann, Bob" in capsys.readouterr().out


# -- item 7: unbounded input --------------------------------------------------------

def test_hostile_replay_dev_zero_stops_at_the_size_limit():
    done = cli("replay", "/dev/zero", timeout=30)
    assert one_line(done, 2) == "bigger than 4 MB: not a game record (a long game is under 100 KB)"


def test_hostile_replay_endless_standard_input_stops_at_the_size_limit():
    with open("/dev/zero", "rb") as zero:
        done = cli("replay", "-", stdin=zero, timeout=30)
    assert one_line(done, 2) == "bigger than 4 MB: not a game record (a long game is under 100 KB)"


def test_hostile_replay_reads_in_chunks_and_stops_one_chunk_past_the_limit():
    from boxcli.replay import MAX_RECORD_BYTES, read_limited

    class Endless:
        asked = 0

        def read(self, n=-1):
            assert 0 < n <= MAX_RECORD_BYTES + 1, f"read({n}) is unbounded"
            self.asked += n
            return b" " * n

    source = Endless()
    with pytest.raises(ValueError, match="bigger than 4 MB"):
        read_limited(source)
    assert source.asked == MAX_RECORD_BYTES + 1


def test_hostile_replay_limits_are_documented():
    readme = (REPO / "README.md").read_text()
    assert "4 MB" in readme and "1,000,000,000" in readme


def test_hostile_simulate_refuses_a_count_past_the_documented_limit():
    done = cli("simulate", "--games", "99999999999999999999999", timeout=30)
    assert one_line(done, 2) == ("cantstop-box simulate: --games must be at most 1,000,000,000, "
                                 "not '99999999999999999999999'")


def test_hostile_simulate_refuses_absurd_workers():
    done = cli("simulate", "--games", "3", "--workers", "99999999999999999999999", timeout=30)
    assert one_line(done, 2) == ("cantstop-box simulate: --workers must be at most 256, "
                                 "not '99999999999999999999999'")


def test_hostile_simulate_streams_games_lazily():
    """The first games of the biggest allowed series arrive at once: nothing is planned up front."""
    import itertools

    from boxcli.simulate import MAX_GAMES, iter_results

    for workers in (1, 2):
        first = list(itertools.islice(iter_results(["random"], MAX_GAMES, 3, max_turns=20, workers=workers), 30))
        assert len(first) == 30


def test_hostile_simulate_tally_matches_the_engine_summary_with_flat_memory():
    import random
    import tracemalloc

    from engine.players import summarize
    from engine.players.match import GameResult
    from boxcli.simulate import Tally

    rng = random.Random(5)

    def results(n):
        for _ in range(n):
            capped = rng.random() < 0.05
            winner = None if capped or rng.random() < 0.02 else rng.randrange(3)
            yield GameResult((2, 0, 1), winner, rng.randint(1, 60), capped)

    for n in (1, 2, 7, 300):
        rng.seed(n)
        listed = list(results(n))
        tally = Tally(["a", "b", "c"], 9, True, 60)
        for r in listed:
            tally.add(r)
        assert tally.summary() == summarize(["a", "b", "c"], listed, 9, True, 60)
    tally = Tally(["a", "b", "c"], 9, True, 60)
    tracemalloc.start()
    try:
        for r in results(100_000):
            tally.add(r)
        tally.summary()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000, f"{peak} bytes for 100,000 games: the tally keeps the games"
