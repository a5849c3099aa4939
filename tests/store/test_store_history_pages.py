"""``cantstop-box history`` a page at a time: the newest page unless told, then pages further back, or all.

Issue 21: with 10,000 games ``history`` replayed every one of them (31 s);
it now shows one page (and replays only what it shows).
"""

import json

import pytest

from engine import Roll, Rules
from boxcli import history
from boxcli.cli import main
from firmware.store import Store

GAMES = 45


@pytest.fixture
def many(state_dir, clock):
    """45 games, each given up after one roll (ids 1 to 45, the newest last)."""
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")  # setup only
        for _ in range(GAMES):
            g = store.new_game(["Red", "Blue"], Rules())
            store.append(g.id, Roll((1, 1, 1, 1)))
            store.abandon(g.id)
    return state_dir


def _ids(capsys, *argv):
    assert main(["history", "--json", *argv]) == 0
    return [g["id"] for g in json.loads(capsys.readouterr().out)]


def test_history_shows_the_newest_page_by_default(many, capsys):
    assert _ids(capsys, "--state-dir", str(many)) == list(range(GAMES, GAMES - history.PAGE, -1))


def test_history_table_says_how_to_see_older_games(many, capsys):
    assert main(["history", "--state-dir", str(many)]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 1 + history.PAGE
    assert out.err == (f"{history.PAGE} of {GAMES} games shown; older ones: cantstop-box history "
                       f"--before {GAMES - history.PAGE + 1} (or --all)\n")


def test_history_pages_back_with_before_until_the_oldest(many, capsys):
    seen, before = [], []
    while True:
        page = _ids(capsys, "-n", "10", *before, "--state-dir", str(many))
        seen += page
        if len(page) < 10 or page[-1] == 1:
            break
        before = ["--before", str(page[-1])]
    assert seen == list(range(GAMES, 0, -1))


def test_history_last_page_prints_no_hint(many, capsys):
    assert main(["history", "--before", "6", "--state-dir", str(many)]) == 0
    out = capsys.readouterr()
    assert [line.split()[0] for line in out.out.splitlines()[1:]] == ["5", "4", "3", "2", "1"]
    assert out.err == ""


def test_history_all_and_n(many, capsys):
    assert _ids(capsys, "--all", "--state-dir", str(many)) == list(range(GAMES, 0, -1))
    assert _ids(capsys, "-n", "3", "--state-dir", str(many)) == [45, 44, 43]


@pytest.mark.parametrize("argv, message", [
    (["--all", "-n", "3"], "--all shows every game: leave out -n and --before"),
    (["--before", "1"], "no saved games before game 1"),
])
def test_history_page_mistakes_are_one_line(many, capsys, argv, message):
    assert main(["history", *argv, "--state-dir", str(many)]) == 2
    assert capsys.readouterr().err == f"cantstop-box history: {message}\n"


def test_history_before_must_be_a_game_number(many, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["history", "--before", "x", "--state-dir", str(many)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be a game number like 3, not 'x'" in err


def test_history_page_replays_only_the_games_it_shows(many, monkeypatch, capsys):
    from firmware.store import reads

    replayed = []
    real = reads.replay_rows
    monkeypatch.setattr(reads, "replay_rows", lambda row, rows: replayed.append(row["id"]) or real(row, rows))
    assert main(["history", "--state-dir", str(many)]) == 0
    assert sorted(replayed) == list(range(GAMES - history.PAGE + 1, GAMES + 1))
