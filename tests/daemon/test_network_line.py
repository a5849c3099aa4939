"""Issue 33 (2, 3): the box shows its address in its menu and a Wi-Fi that failed in one line, from the
status file another service writes (the box itself keeps no network); a bad file is "not known"."""

from __future__ import annotations

import json
import logging

import pytest

from firmware import views
from firmware.daemon import network
from firmware.daemon.network import MAX_BYTES, NetworkWatch

WRONG_KEY = {"host": "cantstop", "local": "cantstop.local", "addresses": ["192.168.1.23"],
             "wifi": {"state": "failed", "network": "Home", "reason": "WRONG_KEY"}, "card": None}
JOINED = {**WRONG_KEY, "wifi": {"state": "joined", "network": "Home"}}
NONE_SET = {"host": "cantstop", "local": "cantstop.local", "addresses": [],
            "wifi": {"state": "none", "network": ""}, "card": "Wi-Fi: none set (no wifi.txt on the boot partition)"}


@pytest.fixture
def status(tmp_path):
    return tmp_path / "network.json"


def watching(rig, path):
    """The rig's box reading ``path`` as it reads /run/cantstop-box-network/network.json."""
    rig.box.network = NetworkWatch(path, due=rig.clock())
    return rig


def write(path, status) -> None:
    path.write_text(json.dumps(status))


def later(rig, seconds=network.CHECK):
    rig.clock.advance(seconds)
    rig.box.pump()
    return rig.box.last_view


def test_network_a_refused_password_is_one_line_of_its_own_and_the_box_plays_on(rig, status):
    write(status, WRONG_KEY)
    watching(rig, status)
    v = later(rig, 0)
    assert isinstance(v, views.MessageView)
    assert (v.title, v.lines) == ("Wi-Fi", ("Could not join 'Home' (wrong password?)",))
    rig.tap("ROLL")  # ok: back to the new-game screen, and it is said once, not every look
    assert isinstance(rig.box.last_view, views.SetupView)
    assert isinstance(later(rig), views.SetupView)
    rig.tap("ROLL")  # a game starts offline as ever
    assert rig.box.game_id is not None


def test_network_the_menu_shows_the_address_and_choosing_it_the_name_and_follows_the_file(rig, status):
    write(status, JOINED)
    watching(rig, status)
    later(rig, 0)
    rig.tap("MENU")
    menu = rig.box.last_view
    assert menu.items[-2:] == ("192.168.1.23", "Phone") and len(menu.items) == 9
    rig.tap("A")  # A from the top goes round to the last rows: the Phone screen, then the address
    rig.tap("A")
    rig.tap("ROLL")
    shown = rig.box.last_view
    assert (shown.title, shown.lines) == ("Network", ("cantstop.local", "192.168.1.23", "Wi-Fi: Home"))
    rig.tap("ROLL")
    assert isinstance(rig.box.last_view, views.MenuView)
    # the file is read on a cadence, not at every wake-up, and the loop wakes for it by itself
    write(status, {**JOINED, "addresses": ["10.0.0.9"]})
    rig.box.pump()
    assert rig.box.last_view.items[-2] == "192.168.1.23"
    assert rig.box._next_deadline() <= rig.clock() + network.CHECK
    assert later(rig).items[-2] == "10.0.0.9"


def test_network_first_boot_without_wifi_txt_says_so_in_japanese_and_korean(tmp_path, status):
    from tests.kit.rig import Rig

    write(status, NONE_SET)
    said = {}
    for lang in ("ja", "ko"):
        r = watching(Rig(tmp_path / lang, language=lang), status)
        try:
            v = later(r, 0)
            said[lang] = (v.title, v.lines)
            r.tap("ROLL")
            r.tap("MENU")
            said[lang + " row"] = r.box.last_view.items[-2]  # the Phone screen's is last
        finally:
            r.close()
    assert said == {"ja": ("Wi-Fi", ("未設定: カードにwifi.txtを入れてください",)), "ja row": "ネットワークなし",
                    "ko": ("Wi-Fi", ("설정 없음: 카드에 wifi.txt를 넣으세요",)), "ko row": "네트워크 없음"}


BAD = [
    (None, "no network status yet"),
    (b'{"addresses": ["192.16', "unreadable: not JSON"),  # a half-written file
    (b"[1, 2]", "unreadable: not a JSON object"),
    (b'{"addresses": "192.168.1.23"}', "unreadable: addresses is not a short list"),
    (b'{"wifi": {"state": "hacked"}}', "unreadable: wifi is not a known state"),
    (b'{"local": "' + b"x" * (MAX_BYTES + 10) + b'"}', f"bytes: more than {MAX_BYTES}"),
    (b"\xff\xfe{}", "unreadable: not UTF-8 text"),
    (b"[" * 4000, "unreadable: not JSON (nested too deep)"),  # a RecursionError, which ended the box's loop
]


def test_network_a_missing_partial_huge_or_corrupt_file_is_not_known_and_said_once(rig, status, caplog):
    watching(rig, status)
    with caplog.at_level(logging.INFO, logger="cantstop"):
        later(rig, 0)  # at boot the box may start before the file is there: one line, and none when it comes
        write(status, JOINED)
        later(rig)
    assert [r.getMessage() for r in caplog.records if "network status" in r.getMessage()] == [
        f"no network status yet ({status}): the menu shows no address"]
    for bad, said in BAD:
        write(status, JOINED)
        later(rig)
        assert rig.box.app.network is not None
        if bad is None:
            status.unlink()
        else:
            status.write_bytes(bad)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="cantstop"):
            later(rig)
            later(rig)
            later(rig)
        assert rig.box.app.network is None, said  # no address row: nothing the box cannot stand behind
        lines = [r.getMessage() for r in caplog.records if "network status" in r.getMessage()]
        assert len(lines) == 1 and said in lines[0], lines
        assert all(r.exc_info is None for r in caplog.records)
    rig.tap("MENU")
    assert len(rig.box.last_view.items) == 8
    write(status, JOINED)
    later(rig)
    assert rig.box.app.network.addresses == ("192.168.1.23",)


def test_network_a_huge_file_is_refused_by_its_size(status):
    with status.open("wb") as f:
        f.truncate(1 << 30)  # a gigabyte of nothing (sparse): refused by its size, not read
    with pytest.raises(network.Unreadable, match=f"1073741824 bytes: more than {MAX_BYTES}"):
        network.read(status)


def test_network_a_notice_waits_for_a_calm_screen(rig, status):
    """Over the statistics (which wait for their numbers) it waits, and comes once they are left."""
    watching(rig, status)
    rig.tap("MENU")
    rig.tap("B")
    rig.tap("ROLL")
    assert isinstance(rig.box.last_view, views.StatsView)
    write(status, WRONG_KEY)
    assert isinstance(later(rig), views.StatsView)
    rig.tap("MENU")  # to the menu: calm
    v = later(rig)
    assert isinstance(v, views.MessageView) and v.title == "Wi-Fi"
