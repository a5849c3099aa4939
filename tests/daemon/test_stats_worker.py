"""Statistics beside the loop (issue 21, item 1): the worker's batches and progress, the screen that says how far,
and a locked game file that the loop saves to once the lock is gone (tried again on its deadline)."""

import queue
import sqlite3
import time
from dataclasses import replace

import pytest

from firmware import ui, views
from firmware.config import GameConfig
from firmware.daemon.box import RETRY_SECONDS
from firmware.daemon.worker import KeepTallies, StatsWorker
from firmware.screens import render_pages
from firmware.store import DB_NAME, Store
from firmware.table import person_stats, roster, tally_sums
from firmware.daemon.loaders import load_stats

from tests.kit.bigstore import many_finished_games
from tests.kit.rig import Rig


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_stats_progress_says_how_far_the_count_is_in_each_language(lang):
    app = replace(ui.boot(GameConfig(), language=lang), screen=ui.model.StatsScreen(), flash="hello")
    app, effects = ui.update(app, ui.StatsProgress(1200, 10_000))
    v = ui.view(app)
    assert effects == () and isinstance(v, views.MessageView)
    expected = {"en": ("Counting games...", "1,200 of 10,000"), "ja": ("ゲームを集計中...", "10,000件中1,200件"),
                "ko": ("게임 집계 중...", "10,000개 중 1,200개")}[lang]
    assert app.flash == "hello" and app.screen.progress == (1200, 10_000)
    app = replace(app, flash=None)
    assert ui.view(app).lines == expected
    for size in ((128, 64), (128, 32), (256, 64)):
        assert render_pages(ui.view(app), size)  # every size draws it
    app, _ = ui.update(app, ui.StatsLoaded((("Ann", 3),), 4, ()))
    assert isinstance(ui.view(app), views.StatsView)
    app, _ = ui.update(app, ui.StatsProgress(5, 9))  # a late progress does not hide loaded statistics
    assert isinstance(ui.view(app), views.StatsView)


def test_stats_worker_counts_in_batches_through_the_queue_and_ends_with_the_statistics(tmp_path, monkeypatch):
    many_finished_games(tmp_path, 1000)
    monkeypatch.setattr(person_stats, "BATCH", 300)
    monkeypatch.setattr(person_stats, "BATCH_SECONDS", 3600)  # batches cut by count alone: a loaded machine is slow
    worker = StatsWorker(moment=0)
    got: queue.Queue = queue.Queue()
    worker.attach(got.put)
    names = roster.Roster(())
    worker.load(tmp_path, names)
    items = []
    while not items or not isinstance(items[-1], ui.StatsLoaded):
        items.append(got.get(timeout=30))
    worker.close()
    batches = [i.facts for i in items if isinstance(i, KeepTallies)]
    # kept as it goes (a kill loses one batch at most), then the sums of them all
    assert [len(b) for b in batches] == [300, 300, 300, 100, 1] and list(batches[-1]) == [tally_sums.SUMS_KEY]
    assert sum(isinstance(i, ui.StatsProgress) for i in items) >= 3
    with Store.open(tmp_path) as store:
        assert store.facts("tally:") == {}  # the worker writes nothing: the loop does
        for b in batches:
            store.put_facts(b)
        assert items[-1] == load_stats(store, names)  # the same numbers as counted on the loop
        assert items[-1].games == 1000


def test_stats_worker_cuts_a_batch_by_time_when_games_count_slowly(tmp_path, monkeypatch):
    # A slow replay (a Pi, a long game) still keeps what it counted every BATCH_SECONDS: a kill loses little.
    many_finished_games(tmp_path, 120)  # more than FEW: counted beside the loop, in batches
    monkeypatch.setattr(person_stats, "BATCH", 10_000)
    monkeypatch.setattr(person_stats, "BATCH_SECONDS", 0.2)
    real = person_stats.tally
    monkeypatch.setattr(person_stats, "tally", lambda *a, **k: (time.sleep(0.01), real(*a, **k))[1])
    worker = StatsWorker(moment=0)
    got: queue.Queue = queue.Queue()
    worker.attach(got.put)
    worker.load(tmp_path, roster.Roster(()))
    items = []
    while not items or not isinstance(items[-1], ui.StatsLoaded):
        items.append(got.get(timeout=60))
    worker.close()
    counted = [len(i.facts) for i in items if isinstance(i, KeepTallies)][:-1]  # the last one: the sums
    assert len(counted) >= 2 and all(0 < n < 120 for n in counted)  # 120 x 10 ms: more than one 0.2 s batch
    assert sum(counted) == 120 and items[-1].games == 120


def test_stats_on_an_empty_state_directory_are_empty(tmp_path):
    worker = StatsWorker()
    got: queue.Queue = queue.Queue()
    worker.attach(got.put)
    worker.load(tmp_path / "none", roster.Roster(()))
    assert got.get(timeout=10) == ui.StatsLoaded((), 0, ())
    worker.close()


def test_stats_a_locked_game_file_is_not_saved_then_saved_on_the_loops_deadline(tmp_path):
    store = Store.open(tmp_path, busy_ms=20)
    rig = Rig(store=store, seed=2)
    box = rig.box
    holder = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the file
    rig.tap("ROLL")  # start a game
    rig.tap("ROLL")  # roll
    assert rig.view.alert == "NOT SAVED: the game file is busy"
    assert store.pending and box.retry_at is not None
    rig.clock.advance(RETRY_SECONDS)
    box.pump()  # still locked: tried, still kept, tried again later (twice as late)
    assert store.pending and box.retry_at == pytest.approx(rig.clock() + 2 * RETRY_SECONDS)
    holder.execute("ROLLBACK")
    holder.close()
    rig.clock.advance(2 * RETRY_SECONDS)
    box.pump()  # no press: the deadline saves it
    assert store.pending == 0 and box.retry_at is None and rig.view.alert is None
    assert store.game(box.game_id).events == box.app.events and len(box.app.events) == 1
    rig.shutdown()
