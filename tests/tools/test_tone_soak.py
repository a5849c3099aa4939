"""The buzzer's soak (tools/bootcheck/tone_soak.py, `make image-check IMAGE_CHECK_ARGS='--only tones'`): its
judgement of many plays at once, and how the check's guest is run above a busy host."""

from __future__ import annotations

import re

from firmware.cues import MELODIES
from tests.systemd.test_boot_tones import LOW, STALLED, heard, trace_of
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
