"""make pi-check's own logic (tools/picheck/): which platform starts first, and reading what the install said.

The check itself needs root, debootstrap and qemu: it runs with `make pi-check`, not here.
"""

from __future__ import annotations

import json

import pytest

from tools.picheck import check as pi_check
from tools.picheck.roots import PLATFORMS, Platform


@pytest.fixture
def durations(tmp_path, monkeypatch):
    path = tmp_path / "durations.json"
    monkeypatch.setattr(pi_check, "DURATIONS", path)
    return path


def names(platforms: list[Platform]) -> list[str]:
    return [p.name for p in platforms]


def test_pi_check_longest_last_time_starts_first(durations):
    durations.write_text(json.dumps({"bookworm-arm64": 150, "bookworm-armhf": 160, "trixie-arm64": 280}))
    assert names(pi_check.longest_first(PLATFORMS)) == ["trixie-arm64", "bookworm-armhf", "bookworm-arm64"]


def test_pi_check_before_any_timing_the_newest_and_slowest_starts_first(durations):
    assert names(pi_check.longest_first(PLATFORMS))[0] == "trixie-arm64"


def test_pi_check_a_platform_never_timed_goes_first_and_ties_keep_order(durations):
    durations.write_text(json.dumps({"trixie-arm64": 250, "bookworm-arm64": 150, "bookworm-armhf": 150}))
    platforms = [PLATFORMS[2], PLATFORMS[1], Platform("bullseye", "arm64"), PLATFORMS[0]]
    assert names(pi_check.longest_first(platforms)) == ["bullseye-arm64", "trixie-arm64", "bookworm-armhf",
                                                        "bookworm-arm64"]


@pytest.mark.parametrize("text", [None, "", "{not json", '{"trixie-arm64": "slow"}', "[1, 2]"])
def test_pi_check_missing_or_broken_timings_keep_the_given_order(durations, text):
    if text is not None:
        durations.write_text(text)
    assert names(pi_check.longest_first(PLATFORMS)) == names(PLATFORMS)


def test_pi_check_timings_are_remembered_beside_older_ones(durations):
    durations.write_text(json.dumps({"bookworm-armhf": 140}))
    result = pi_check.Result(PLATFORMS[0])
    result.check_s = 281.26
    pi_check.remember_durations([result, pi_check.Result(PLATFORMS[1])])
    assert json.loads(durations.read_text()) == {"bookworm-armhf": 140, "trixie-arm64": 281.3}


BOOKWORM = "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio; a binary wheel from the package index\n"
TRIXIE_64 = (BOOKWORM.replace("12 (bookworm)", "13 (trixie)")
             + "lgpio: PyPI's lgpio has no wheel for this Python; Adafruit's build of it (adafruit-lgpio), a binary wheel\n")


@pytest.mark.parametrize("said, source", [
    ("lgpio: from the distribution (python3-lgpio)\n", "apt"),
    (BOOKWORM, "PyPI wheel"),
    (TRIXIE_64, "PyPI wheel (Adafruit's)"),
    ("lgpio: already installed\n", "present"),
    (BOOKWORM + "NOTE: no lgpio for this Python on armv7l: Debian has no python3-lgpio and PyPI no wheel for it.\n", "none"),
    ("", "?"),
])
def test_pi_check_reads_where_the_install_took_lgpio_from(said, source):
    assert pi_check.lgpio_source("Installing cantstop-box\n" + said) == source
