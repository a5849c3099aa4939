"""The Phone screen always shows a code that pairs: a new one once a phone used it, or before it runs out."""

from __future__ import annotations

import time

from firmware import views
from firmware.daemon import pairing
from firmware.ui import phone as asked
from firmware.table import phones
from tests.kit.rig import Rig


def _open_phone_screen(rig) -> views.PhoneView:
    rig.tap("MENU")
    for _ in range(rig.box.last_view.items.index("Phone")):
        rig.tap("B")
    rig.tap("ROLL")
    view = rig.box.last_view
    assert isinstance(view, views.PhoneView) and len(view.code) == 6
    return view


def _a_second_later(rig) -> views.PhoneView:
    rig.clock.advance(1.5)  # past the loop's look at the roster and the code
    rig.box.pump()
    return rig.box.last_view


def test_a_code_a_phone_used_is_replaced_by_a_fresh_one_that_pairs_the_next_phone(tmp_path):
    rig = Rig(tmp_path)
    try:
        first = _open_phone_screen(rig)
        assert phones.redeem(tmp_path, first.code, now=time.time()) is not None  # a guest scanned it
        second = _a_second_later(rig)
        assert isinstance(second, views.PhoneView) and second.code != first.code
        key = second.address.split("/pair?k=")[1]  # the QR code's key of the new pairing
        assert phones.is_key(key) and first.address.split("/pair?k=")[1] != key
        assert phones.redeem(tmp_path, key, now=time.time()) is not None  # the next guest scans it and pairs
        assert phones.count(tmp_path) == 2
    finally:
        rig.close()


def test_a_code_is_replaced_before_its_ten_minutes_run_out_and_not_before(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    try:
        shown = _open_phone_screen(rig)
        assert _a_second_later(rig).code == shown.code  # still good: the screen keeps it
        later = time.time() + phones.CODE_SECONDS - asked.RENEW_BEFORE + 1
        monkeypatch.setattr(pairing.time, "time", lambda: later)
        fresh = _a_second_later(rig)
        assert fresh.code != shown.code
        assert phones.lasts(tmp_path, fresh.code, now=later) > phones.CODE_SECONDS - 5
    finally:
        rig.close()


def test_no_new_codes_once_the_phone_screen_is_left(tmp_path):
    rig = Rig(tmp_path)
    try:
        shown = _open_phone_screen(rig)
        rig.tap("ROLL")  # back
        phones.redeem(tmp_path, shown.code, now=time.time())
        _a_second_later(rig)
        assert not isinstance(rig.box.last_view, views.PhoneView)
        assert phones.lasts(tmp_path, shown.code, now=time.time()) == 0  # nothing made behind the players' backs
        assert len(phones._read(tmp_path / phones.FILE)["codes"]) == 0
    finally:
        rig.close()
