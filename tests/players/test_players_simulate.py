"""Seeded simulations: reproducible, independent of the worker count, capped, and the CLI's errors."""

import json

import pytest

from engine import Rules
from engine.players import GameResult, play_series_part, seat_order, summarize
from boxcli.cli import main
from boxcli.simulate import CHUNK, run_series


def test_simulate_same_seed_gives_the_same_summary():
    a = summarize(["rule28", "random"], play_series_part(["rule28", "random"], 42, range(60), rotate=True), 42, True)
    b = summarize(["rule28", "random"], play_series_part(["rule28", "random"], 42, range(60), rotate=True), 42, True)
    c = summarize(["rule28", "random"], play_series_part(["rule28", "random"], 43, range(60), rotate=True), 43, True)
    assert a == b
    assert a["mean_turns"] != c["mean_turns"] or a["wins_by_seat"] != c["wins_by_seat"]


def test_simulate_results_do_not_depend_on_the_split_or_workers():
    kinds = ["strong", "rule28", "random"]
    # A split off the rotation's period (3), and two workers on 30 games (two chunks of CHUNK=25,
    # so the pool is used) prove it; 40 and 60 games (200 strong-player games) proved nothing more.
    whole = play_series_part(kinds, 9, range(20), rotate=True)
    split = play_series_part(kinds, 9, range(0, 7), rotate=True) + play_series_part(kinds, 9, range(7, 20), rotate=True)
    assert whole == split
    assert 30 > CHUNK
    assert run_series(kinds, 30, 9, rotate=True, workers=2) == run_series(kinds, 30, 9, rotate=True, workers=1)


def test_simulate_rotation_seats_each_player_equally():
    counts = {}
    for i in range(12):
        for seat, player in enumerate(seat_order(i, 3, True)):
            counts[(seat, player)] = counts.get((seat, player), 0) + 1
    assert set(counts.values()) == {4} and len(counts) == 9
    assert seat_order(5, 3, False) == (0, 1, 2)


def test_simulate_caps_games_and_counts_them():
    results = play_series_part(["random"], 1, range(30), Rules(columns_to_win=11), max_turns=5)
    summary = summarize(["random"], results, max_turns=5)
    assert summary["capped"] == 30 and summary["no_winner"] == 30
    assert summary["mean_turns_to_claim"] is None


def test_simulate_summary_figures():
    results = [GameResult((0, 1), 0, 10, False), GameResult((1, 0), 0, 12, False),
               GameResult((0, 1), 1, 21, False), GameResult((1, 0), None, 30, True)]
    s = summarize(["a", "b"], results, 1, True, 30)
    assert s["wins_by_seat"] == [2, 1]
    assert s["wins_by_player"] == [1, 2]
    assert s["capped"] == 1 and s["no_winner"] == 1
    assert s["mean_turns"] == pytest.approx(43 / 3, abs=1e-4) and s["median_turns"] == 12
    assert s["first_player_win_rate"] == 0.5


def test_simulate_cli_json_summary(capsys):
    assert main(["simulate", "--players", "rule28", "--games", "30", "--seed", "4", "--json", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["games"] == 30 and summary["wins_by_seat"] == [30]
    assert summary["mean_turns_to_claim"] > 3
    assert err == ""  # no progress bar when standard error is not a terminal


@pytest.mark.parametrize("args, words", [
    (["--players", "rule28,chess"], "unknown player kind 'chess'"),
    (["--players", ""], "1 to 4 players, not 0"),
    (["--players", "random,random,random,random,random"], "1 to 4 players, not 5"),
    (["--games", "0"], "--games must be at least 1"),
    (["--games", "ten"], "--games must be a whole number"),
    (["--columns-to-win", "12"], "columns_to_win"),
])
def test_simulate_cli_bad_arguments_give_one_line_and_status_2(capsys, args, words):
    assert main(["simulate", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and words in err
