"""The store keeps games and events durably and gives back exactly what was played."""

import sqlite3

import pytest

from engine import STOP, Move, Phase, Roll, Rules, IllegalEventError, new_game, replay, state_view
from firmware.store import DB_NAME, SCHEMA_VERSION, Store, StoreError, StoreGameError, StoreWriteError, default_state_dir
from tests.kit.storekit import play_to_end, random_events


def test_store_default_state_dir_prefers_systemd_state_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_state_dir() == tmp_path / "a"


def test_store_default_state_dir_uses_xdg_data_home_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_state_dir() == tmp_path / "xdg" / "cantstop-box"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_state_dir() == tmp_path / "home" / ".local" / "share" / "cantstop-box"


def test_store_open_creates_directory_with_wal_full_and_schema_version(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.notice is None
    assert (state_dir / DB_NAME).is_file()


def test_store_open_on_a_file_is_one_line_error(tmp_path, clock):
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError) as info:
        Store.open(blocker, clock=clock)
    assert "not a directory" in str(info.value) and "\n" not in str(info.value)


def test_store_open_full_disk_on_mkdir_reads_empty_and_saves_once_there_is_room(tmp_path, clock, monkeypatch):
    import errno
    import pathlib

    real_mkdir = pathlib.Path.mkdir

    def full(self, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", full)
    store = Store.open(tmp_path / "new", clock=clock)
    try:
        assert store.cannot_save == "cannot save: the SD card is full"
        assert store.games() == [] and store.open_game() is None
        with pytest.raises(StoreWriteError, match="^cannot save: the SD card is full$"):
            store.new_game(["Red"], Rules())
        monkeypatch.setattr(pathlib.Path, "mkdir", real_mkdir)  # room again
        game = store.new_game(["Red"], Rules())
        store.append(game.id, Roll((1, 2, 3, 4)))
        assert store.cannot_save is None
    finally:
        store.close()
    with Store.open(tmp_path / "new", clock=clock) as again:
        assert again.open_game().events == (Roll((1, 2, 3, 4)),)


def test_store_append_is_committed_when_it_returns(store, state_dir):
    game = store.new_game(["Red", "Blue"], Rules())
    store.append(game.id, Roll((2, 3, 4, 5)))
    # Another connection sees the row at once: it is committed, not held in a transaction.
    other = sqlite3.connect(state_dir / DB_NAME)
    try:
        rows = other.execute("SELECT seq, payload FROM events WHERE game_id = ?", (game.id,)).fetchall()
    finally:
        other.close()
    assert rows == [(1, '{"roll":[2,3,4,5]}')]
    assert not store._db.in_transaction


def test_store_reopen_resumes_the_open_game_exactly(state_dir, clock):
    events, state = random_events(120, seed=4, players=("Red", "Blue", "Green"))
    with Store.open(state_dir, clock=clock) as store:
        game = store.new_game(["Red", "Blue", "Green"], Rules(columns_to_win=4), meta={"colours": ["red", "blue", "green"]})
        for e in events:
            store.append(game.id, e)
    with Store.open(state_dir, clock=clock) as store:
        resumed = store.open_game()
    assert resumed.id == game.id and resumed.status == "open" and resumed.problem is None
    assert resumed.events == tuple(events)
    assert resumed.rules == Rules(columns_to_win=4)
    assert resumed.meta == {"colours": ["red", "blue", "green"]}
    again = replay(new_game(resumed.players, resumed.rules), resumed.events)
    assert state_view(again) == state_view(replay(new_game(("Red", "Blue", "Green"), Rules(columns_to_win=4)), events))


def test_store_open_game_is_none_without_an_open_game(store):
    assert store.open_game() is None
    game = store.new_game(["Red"], Rules())
    store.finish(game.id, None)
    assert store.open_game() is None


def test_store_append_refuses_an_illegal_event_and_saves_nothing(store):
    game = store.new_game(["Red", "Blue"], Rules())
    store.append(game.id, Roll((2, 3, 4, 5)))
    with pytest.raises(IllegalEventError) as info:
        store.append(game.id, Move.of(2, 12))
    assert str(info.value).startswith("event 2: ")
    assert store.game(game.id).events == (Roll((2, 3, 4, 5)),)
    store.append(game.id, Move.of(7, 7))
    assert store.game(game.id).events == (Roll((2, 3, 4, 5)), Move.of(7, 7))


def test_store_new_game_abandons_the_game_left_open(store, clock):
    first = store.new_game(["Red", "Blue"], Rules())
    store.append(first.id, Roll((2, 3, 4, 5)))
    clock.advance(60)
    second = store.new_game(["Green", "Yellow"], Rules())
    assert store.open_game().id == second.id
    old = store.game(first.id)
    assert old.status == "abandoned" and old.finished == clock.now and old.events == (Roll((2, 3, 4, 5)),)
    with pytest.raises(StoreGameError, match="abandoned"):
        store.append(first.id, Move.of(7, 7))


def test_store_finish_records_winner_and_time_and_closes_the_game(store, clock):
    events, state = play_to_end(seed=3)
    store._db.execute("PRAGMA synchronous=OFF")  # a whole game: no need to wait for the disk here
    game = store.new_game(["Red", "Blue"], Rules())
    for e in events[:-1]:
        store.append(game.id, e)
    clock.advance(1800)
    store.append(game.id, events[-1])  # the winning stop finishes the game in the same transaction
    done = store.game(game.id)
    assert (done.status, done.winner, done.finished) == ("finished", state.winner, clock.now)
    assert done.replay().winner == state.winner
    clock.advance(5)
    store.finish(game.id, state.winner)  # the daemon's finish after it changes nothing
    assert store.game(game.id).finished == clock.now - 5
    with pytest.raises(StoreGameError, match="finished"):
        store.finish(game.id, None)
    with pytest.raises(StoreGameError, match="finished"):
        store.append(game.id, Roll((1, 1, 1, 1)))


def test_store_finish_rejects_a_winner_who_is_not_a_player(store):
    game = store.new_game(["Red", "Blue"], Rules())
    with pytest.raises(StoreGameError, match="0 to 1"):
        store.finish(game.id, 2)
    assert store.game(game.id).status == "open"


def test_store_unknown_game_is_one_line_error(store):
    with pytest.raises(StoreGameError, match="^there is no game 41$"):
        store.game(41)
    with pytest.raises(StoreGameError):
        store.append(41, Roll((1, 2, 3, 4)))


def test_store_games_lists_newest_first_with_turns_and_duration(store, clock):
    store._db.execute("PRAGMA synchronous=OFF")  # a whole game: no need to wait for the disk here
    a = store.new_game(["Red", "Blue"], Rules())
    events, state = play_to_end(seed=5)
    for e in events:
        clock.advance(2)
        store.append(a.id, e)
    clock.advance(10)
    store.finish(a.id, state.winner)  # already finished by its winning stop
    clock.advance(100)
    b = store.new_game(["Green"], Rules(columns_to_win=2))
    store.append(b.id, Roll((6, 6, 6, 6)))
    summaries = store.games()
    assert [g.id for g in summaries] == [b.id, a.id]
    new, old = summaries
    assert (new.status, new.turns, new.events, new.winner, new.duration) == ("open", 1, 1, None, 0.0)
    assert (old.status, old.turns, old.winner) == ("finished", state.turn, state.winner)
    assert old.duration == 2 * len(events)  # it ended with the winning stop
    assert [g.id for g in store.games(limit=1)] == [b.id]


def test_store_games_counts_a_turn_only_once_it_is_rolled(store):
    game = store.new_game(["Red", "Blue"], Rules())
    for e in (Roll((2, 3, 4, 5)), Move.of(7, 7), STOP):
        store.append(game.id, e)
    assert store.games()[0].turns == 1
    store.append(game.id, Roll((1, 1, 1, 1)))
    assert store.games()[0].turns == 2


def test_store_statistics_count_wins_of_finished_games(store):
    # Store.wins_by_colour is gone (it read meta["colours"], which nothing writes): the statistics
    # screen counts wins per person, a seat without a name going by its colour.
    from firmware.table.roster import from_fact
    from firmware.daemon.loaders import load_stats

    def won(players, winner, bots=None):
        meta = {"seats": [{"colour": p, "bot": b} for p, b in zip(players, bots or [None] * len(players))]}
        g = store.new_game(players, Rules(), meta=meta)
        store.finish(g.id, winner)

    won(["Red", "Blue"], 0)
    won(["Red", "Blue"], 1)
    won(["Green", "Blue"], 1)
    won(["Red", "Blue"], 1, bots=[None, "strong"])  # the box's seat counts as "Box"
    won(["Red", "Blue"], None)  # nobody won
    won(["Red"], 0)  # solitaire practice is no win over anybody
    g = store.new_game(["Red", "Blue"], Rules())
    store.abandon(g.id)
    stats = load_stats(store, from_fact(None, ()))
    assert dict(stats.rows) == {"Blue": 2, "Red": 1, "Green": 0, "Box": 1} and stats.games == 5


def test_store_new_game_rejects_bad_players_and_meta(store):
    with pytest.raises(ValueError):
        store.new_game([], Rules())
    with pytest.raises(StoreGameError, match="meta"):
        store.new_game(["Red"], Rules(), meta={"x": object()})
    assert store.games() == []


def test_store_record_is_the_contract_record(store):
    game = store.new_game(["Red", "Blue"], Rules(risky=True))
    for e in (Roll((2, 3, 4, 5)), Move.of(7, 7), STOP):
        store.append(game.id, e)
    assert store.record(game.id).to_json() == {
        "players": ["Red", "Blue"],
        "rules": {"columns_to_win": 3, "speedy": False, "risky": True},
        "events": [{"roll": [2, 3, 4, 5]}, {"move": [7, 7]}, {"stop": True}],
    }
    assert store.record(game.id).replay().phase is Phase.ROLL


def test_store_finish_only_an_open_game(store):
    game = store.new_game(["Red", "Blue"], Rules())
    store.abandon(game.id)
    with pytest.raises(StoreGameError, match="^game 1 is abandoned and cannot be finished$"):
        store.finish(game.id, 0)
    assert store.game(game.id).winner is None


def test_store_games_quick_list_matches_a_full_replay(store, clock):
    store._db.execute("PRAGMA synchronous=OFF")  # setup only
    for seed in range(4):
        events, state = play_to_end(seed=seed)
        g = store.new_game(["Red", "Blue"], Rules(), meta={"colours": ["red", "blue"]})
        for e in events if seed % 2 else events[:-1]:  # even seeds stop short of the win: abandoned
            clock.advance(1)
            store.append(g.id, e)
    store.new_game(["Red"], Rules())
    quick, full = store.games(), store.games(check=True)
    assert quick == full
    assert [g.status for g in quick] == ["open", "finished", "abandoned", "finished", "abandoned"]
    assert all(g.turns > 0 and g.events > 0 for g in quick[1:])


def test_store_games_check_finds_damage_in_a_closed_game(state_dir, clock):
    with Store.open(state_dir, clock=clock) as store:
        events, state = play_to_end(seed=2)
        g = store.new_game(["Red", "Blue"], Rules())
        for e in events:
            store.append(g.id, e)
        store.finish(g.id, state.winner)
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE events SET payload = '{\"stop\": true}' WHERE game_id = 1 AND seq = 1")
    db.commit()
    db.close()
    with Store.open(state_dir, clock=clock) as store:
        assert store.games()[0].status == "finished"  # the quick list trusts what was kept at the finish
        checked = store.games(check=True)[0]
        assert checked.status == "damaged" and checked.problem.startswith("game 1, event 1: cannot stop")
        assert store.games()[0].status == "damaged"  # and the damage is now recorded


def test_store_opens_and_updates_a_version_1_file(state_dir, clock):
    # Version 1 had no turns column: build such a file by hand, as an early box left it.
    state_dir.mkdir()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.executescript("""
        PRAGMA journal_mode=WAL;
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, players TEXT NOT NULL, rules TEXT NOT NULL,
            meta TEXT NOT NULL DEFAULT '{}', started REAL NOT NULL, finished REAL, winner INTEGER,
            status TEXT NOT NULL DEFAULT 'open', problem TEXT);
        CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,
            time REAL NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        INSERT INTO games (players, rules, started, finished, status) VALUES ('["Red","Blue"]', '{}', 10, 20, 'abandoned');
        INSERT INTO events VALUES (1, 1, '{"roll":[2,3,4,5]}', 11), (1, 2, '{"move":[7,7]}', 12), (1, 3, '{"stop":true}', 13);
        PRAGMA user_version = 1;
    """)
    db.close()
    with Store.open(state_dir, clock=clock, readonly=True) as old:
        assert [(g.id, g.turns, g.events) for g in old.games()] == [(1, 1, 3)]
    with Store.open(state_dir, clock=clock) as store:
        assert store.notice is None
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [(g.id, g.status, g.turns, g.duration) for g in store.games()] == [(1, "abandoned", 1, None)]  # 1970: no honest duration
        assert store.record(1).replay().current == 1
