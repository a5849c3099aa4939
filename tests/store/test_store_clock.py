"""Clock honesty (fault 5): play time by a clock that cannot jump, kept across restarts with a cap;
a game whose wall-clock dates cannot be right shows "date unknown", never 1970 nor "498920h 20m"."""

import json
import sqlite3

from engine import Rules
from boxcli.cli import main
from firmware.store import DB_NAME, Store
from firmware.store.games import GAP_CAP
from tests.kit.clock import FakeClock  # the wall clock and the steady (monotonic) one alike
from tests.kit.storekit import play_to_end

NTP_SET = 1_796_000_000.0  # 2026-11-30: the date NTP sets
BOOT = 0.0  # a Pi without a clock battery wakes in 1970


def _play(store, wall, steady, events, *, step=5.0, jump_at=None, jump_to=None):
    game = store.new_game(["Red", "Blue"], Rules())
    for i, e in enumerate(events):
        wall.advance(step)
        steady.advance(step)
        if i == jump_at:
            wall.now = jump_to  # NTP sets the clock mid-game
        store.append(game.id, e)
    return game.id


def test_store_clock_a_game_across_ntp_shows_its_play_time_and_date_unknown(tmp_path, capsys):
    """Fault 5: started before NTP set the clock, finished after: history said "498920h 20m" and 1970."""
    wall, steady = FakeClock(BOOT), FakeClock(100.0)
    events, _ = play_to_end(seed=5)
    with Store.open(tmp_path, clock=wall, monotonic=steady) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        gid = _play(store, wall, steady, events, jump_at=3, jump_to=NTP_SET)
        (g,) = store.games()
        assert g.status == "finished" and g.duration == 5.0 * len(events)
        assert not g.date_known
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    row = capsys.readouterr().out.splitlines()[1]
    assert "date unknown" in row and "1970" not in row and "h " not in row
    assert f"{len(events) * 5 // 60}m" in row
    assert main(["history", "--json", "--state-dir", str(tmp_path)]) == 0
    (obj,) = json.loads(capsys.readouterr().out)
    assert obj["date_known"] is False and obj["duration"] == 5.0 * len(events)
    assert main(["export", str(gid), "--state-dir", str(tmp_path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["date_known"] is False and record["elapsed"] == 5.0 * len(events)


def test_store_clock_an_ordinary_game_keeps_its_date(tmp_path):
    wall, steady = FakeClock(NTP_SET), FakeClock(100.0)
    events, _ = play_to_end(seed=5)
    with Store.open(tmp_path, clock=wall, monotonic=steady) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        _play(store, wall, steady, events)
        (g,) = store.games()
        assert g.date_known and g.duration == 5.0 * len(events) == g.ended - g.started


def test_store_clock_play_time_survives_a_restart_and_caps_the_time_the_box_was_off(tmp_path):
    wall, steady = FakeClock(NTP_SET), FakeClock(100.0)
    events, _ = play_to_end(seed=5)
    with Store.open(tmp_path, clock=wall, monotonic=steady) as store:
        game = store.new_game(["Red", "Blue"], Rules())
        for e in events[:4]:
            wall.advance(10)
            steady.advance(10)
            store.append(game.id, e)
    wall.advance(7 * 24 * 3600)  # a week off; the steady clock starts again from nothing
    later = FakeClock(3.0)
    with Store.open(tmp_path, clock=wall, monotonic=later) as store:
        store.game(game.id)
        wall.advance(10)
        later.advance(10)
        store.append(game.id, events[4])
        (g,) = store.games()
        assert g.duration == 40 + GAP_CAP  # the week counts no more than one long pause
        assert g.date_known


def test_store_clock_older_games_without_play_time_never_show_absurd_durations(tmp_path, capsys):
    wall = FakeClock(NTP_SET)
    with Store.open(tmp_path, clock=wall) as store:
        store.new_game(["Red"], Rules())
    db = sqlite3.connect(tmp_path / DB_NAME)  # as an older box left it: 1970 start, no play time
    db.execute("UPDATE games SET started = 5.0, finished = ?, status = 'abandoned'", (NTP_SET,))
    db.commit()
    db.close()
    with Store.open(tmp_path, clock=wall) as store:
        (g,) = store.games()
        assert g.duration is None and not g.date_known
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    row = capsys.readouterr().out.splitlines()[1]
    assert "date unknown" in row and " ? " in row and "1970" not in row


def test_store_clock_a_clock_set_back_mid_game_is_caught(tmp_path):
    wall, steady = FakeClock(NTP_SET + 86400), FakeClock(100.0)
    events, _ = play_to_end(seed=5)
    with Store.open(tmp_path, clock=wall, monotonic=steady) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        _play(store, wall, steady, events, jump_at=2, jump_to=NTP_SET)
        (g,) = store.games()
        assert not g.date_known and g.duration == 5.0 * len(events)
