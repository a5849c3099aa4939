"""The buzzer's soak (tools/bootcheck/tone_soak.py, `make image-check IMAGE_CHECK_ARGS='--only tones'`): its
judgement of many plays at once, and how the check's guest is run above a busy host."""

from __future__ import annotations

import re

from firmware.cues import MELODIES
from tests.tools.test_boot_tones import LOW, STALLED, heard, trace_of
from tools.bootcheck import guest as boot_guest
from tools.bootcheck import tone_soak
from tools.image import check


def test_a_soak_with_rolls_stalled_off_their_band_passes_and_counts_them_apart():
    """The soak's own real rolls (two host cores busy): three of eight stalled, the whole still heard as played."""
    roll = MELODIES["roll"]
    ok, detail = tone_soak.judge_each(heard(STALLED.read_text()), [roll] * 8)
    assert ok, detail
    assert detail.startswith("5 of 8 melodies (8 roll) held on their own, 3 off their band where their line "
                             "stalled, 0 wrong; pitches 0."), detail
    assert re.search(r"melody 4 \(roll\) at 380\.820 s: a pitch above its band, heard 1248 Hz; cycles \(ms\) "
                     r"3\.58 0\.80 0\.69 ", detail), detail


def test_a_soak_fails_on_a_note_off_without_a_stall_and_on_a_melody_not_heard():
    roll = MELODIES["roll"]
    ok, detail = tone_soak.judge_each(heard(trace_of([roll, LOW, roll, roll])), [roll] * 4)
    assert not ok and "3 of 4 melodies (4 roll) held on their own, 0 off their band where their line stalled, " \
                      "1 wrong" in detail, detail
    assert "melody 2 (roll)" in detail and "a pitch below its band, heard 35" in detail
    ok, detail = tone_soak.judge_each(heard(trace_of([roll, roll])), [roll] * 3)
    assert not ok and detail == "2 melodies heard for 3 played (roll, roll, roll)"


def test_the_guest_runs_above_the_hosts_own_work_where_it_may(monkeypatch):
    command = ["qemu-system-aarch64", "-M", "virt"]
    monkeypatch.setattr(boot_guest.os, "geteuid", lambda: 0)
    assert boot_guest.Guest.niced(command) == ["nice", "-n", str(boot_guest.QEMU_NICE), *command]
    assert boot_guest.QEMU_NICE < 0
    monkeypatch.setattr(boot_guest.os, "geteuid", lambda: 1000)  # raising it needs root: as it is
    assert boot_guest.Guest.niced(command) == command


def test_only_tones_plans_the_first_boots_rows_the_boot_and_the_soak():
    assert check.PLANNED_TONES[-2:] == [tone_soak.P_SOAK, check.C_NEVER]
    assert check.PLANNED_TONES[:-2] == check.PLANNED_UPDATE[:len(check.PLANNED_TONES) - 2]
    assert tone_soak.CYCLE[0] == "ROLL" and set(tone_soak.CYCLE[1:]) == {"A", "B", "C"}


class _SoakGuest:
    def __init__(self, trace: str) -> None:
        self.trace = trace

    def sh(self, script: str, timeout: float = 120.0):
        from tests.tools.test_boot_tones import DEBUG_GPIO

        out = DEBUG_GPIO if script == "cat /sys/kernel/debug/gpio" else self.trace if "cat $t/trace" in script else ""
        return boot_guest.Done(0, out, "")


class _SoakBoard:
    """The booted box as the soak drives it: its presses kept, its trace and its game given."""

    def __init__(self, trace: str, record: dict, workdir) -> None:
        from tools.bootcheck.parse import Report

        self.guest, self.record, self.workdir, self.report = _SoakGuest(trace), record, workdir, Report()
        self.pressed: list[str] = []

    def find_lines(self) -> None:
        pass

    find_lamps = screen = lamps = find_lines

    def press(self, button: str) -> None:
        self.pressed.append(button)

    def export(self) -> dict:
        return self.record


def _played_game(dice, presses):
    """What the emulator's box played and kept for these presses with these dice."""
    from tools.bootcheck.check_lamps import box_settings
    from tools.bootcheck.reference import Reference

    reference = Reference(box_settings(), dice)
    try:
        for button in presses:
            reference.press(button)
        return list(reference.played), reference.export()
    finally:
        reference.close()


DICE = [(1, 2, 3, 4), (2, 2, 5, 6), (1, 1, 1, 1), (3, 4, 5, 6), (6, 6, 6, 6)]


def test_the_soak_presses_its_cycle_replays_it_in_the_emulator_and_judges_the_line(tmp_path):
    played, record = _played_game(DICE, list(tone_soak.CYCLE) * 4)
    assert len(played) >= 3
    board = _SoakBoard(trace_of(played), record, tmp_path)
    tone_soak.soak_tones(board, 4)
    assert board.pressed == list(tone_soak.CYCLE) * 4
    (row,) = board.report.checks
    assert row.name == tone_soak.P_SOAK and row.passed, row.detail
    assert row.detail.startswith(f"16 presses, 0 host cores kept busy; {len(played)} of {len(played)} melodies"), row.detail
    import json

    assert [tuple(map(tuple, m)) for m in json.loads((tmp_path / tone_soak.PLAYED).read_text())] == played
    assert (tmp_path / tone_soak.TRACE).read_text() == board.guest.trace


def test_the_soak_fails_where_the_line_missed_a_melody(tmp_path):
    played, record = _played_game(DICE, list(tone_soak.CYCLE) * 4)
    board = _SoakBoard(trace_of(played[:-1]), record, tmp_path)
    tone_soak.soak_tones(board, 4)
    (row,) = board.report.checks
    assert not row.passed and f"{len(played) - 1} melodies heard for {len(played)} played" in row.detail
