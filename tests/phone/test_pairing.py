"""Pairing codes and paired phones (firmware.table.phones), the wrong-code limit, `cantstop-box pair`'s one line."""

from __future__ import annotations

import io
import contextlib
import json

from boxcli import cli
from firmware.table import phones
from web.phone import door


def test_a_code_lasts_ten_minutes_and_one_phone(tmp_path):
    code = phones.new_code(tmp_path, now=0.0)
    assert phones.redeem(tmp_path, code, now=phones.CODE_SECONDS + 1) is None  # too old
    code = phones.new_code(tmp_path, now=1000.0)
    token = phones.redeem(tmp_path, code, now=1000.0 + phones.CODE_SECONDS - 1)
    assert token and phones.paired(tmp_path, token) and phones.redeem(tmp_path, code, now=1001.0) is None
    kept = (tmp_path / phones.FILE).read_text()
    assert code not in kept and token not in kept  # only their hashes
    assert (tmp_path / phones.FILE).stat().st_mode & 0o777 == 0o600


def test_form_tokens_differ_per_phone_and_follow_from_the_cookie(tmp_path):
    a, b = (phones.redeem(tmp_path, phones.new_code(tmp_path, now=1.0), now=1.0) for _ in range(2))
    assert phones.csrf_of(a) != phones.csrf_of(b) and phones.csrf_of(a) == phones.csrf_of(a)


def test_a_file_not_ours_pairs_nobody(tmp_path):
    token = phones.redeem(tmp_path, phones.new_code(tmp_path, now=1.0), now=1.0)
    path = tmp_path / phones.FILE
    path.write_text(json.dumps({"phones": "everyone"}))
    assert not phones.paired(tmp_path, token)
    path.write_bytes(b"{" + b" " * (phones.MAX_FILE + 10) + b"}")  # too big: its size is checked before it is read
    assert not phones.paired(tmp_path, token) and phones.count(tmp_path) == 0
    assert len(phones.new_code(tmp_path, now=2.0)) == 6  # and the next code mends it
    path.write_text("[" * 4000)  # nested too deep: json.loads raises RecursionError, no ValueError
    assert not phones.paired(tmp_path, token) and phones.count(tmp_path) == 0


def test_five_wrong_codes_in_a_minute_from_all_addresses_lock_typing_for_a_minute():
    now = [0.0]
    wrong = door.WrongCodes(lambda: now[0])
    for i in range(4):
        assert wrong.attempt(f"10.0.0.{i}")
        now[0] += 14.0
    assert not wrong.blocked()
    now[0] += 10.0  # the first of the four is now more than a minute old: four in the window again
    assert wrong.attempt("10.0.0.8")
    assert not wrong.blocked()
    assert wrong.attempt("10.0.0.9")
    assert wrong.blocked() and wrong.blocked("10.0.0.77")
    now[0] += door.WRONG_WINDOW
    assert not wrong.blocked()


def test_three_wrong_codes_from_one_address_lock_only_that_address_and_a_right_one_is_forgiven():
    now = [0.0]
    wrong = door.WrongCodes(lambda: now[0])
    assert wrong.attempt("guest") and wrong.attempt("guest")
    wrong.forgive("guest")  # that one paired: it does not count
    assert wrong.attempt("guest") and not wrong.blocked("guest")
    assert wrong.attempt("guest") and wrong.blocked("guest")  # three wrong ones
    assert not wrong.attempt("guest") and not wrong.blocked("owner") and wrong.attempt("owner")
    now[0] += door.WRONG_WINDOW
    assert wrong.attempt("guest")


def test_ten_wrong_codes_retire_the_live_codes_digits_but_their_qr_keys_still_pair(tmp_path):
    """Issue 45, item 8: each live code takes at most CODE_GUESSES wrong ones from anyone, so a guest guessing
    all night hits one with odds of at most (codes shown) x 10 / 10^6; the QR key still pairs the owner."""
    made = phones.new_pairing(tmp_path, now=1.0)
    other = phones.new_pairing(tmp_path, now=1.0)
    wrongs = [f"{n:06d}" for n in range(100) if f"{n:06d}" not in (made.code, other.code)]
    for guess in wrongs[:phones.CODE_GUESSES]:
        assert phones.redeem(tmp_path, guess, now=2.0) is None
    assert phones.redeem(tmp_path, made.code, now=2.0) is None  # typed, the right digits are worth nothing now
    assert phones.lasts(tmp_path, other.code, now=2.0) > 500  # still shown: the box's screen does not renew it
    token = phones.redeem(tmp_path, other.key, now=2.0)  # scanned, it pairs
    assert token is not None and phones.paired(tmp_path, token)
    fresh = phones.new_pairing(tmp_path, now=3.0)  # the next code made starts afresh
    assert phones.redeem(tmp_path, fresh.code, now=3.0) is not None


def test_the_qr_codes_address_stays_small_enough_for_two_pixel_modules():
    import segno

    made = phones.new_pairing(__import__("tempfile").mkdtemp(), now=1.0)
    for host in ("cantstop", "raspberrypi", "cantstop-box-2"):
        address = phones.page_address(8080, made.key, host=host)
        assert segno.make(address, error="l", micro=False, boost_error=False).version <= 3, address
    assert len(made.key) == 12 and phones.is_key(made.key) and not phones.is_key(made.code)


class _Request:
    def __init__(self, **headers):
        self.headers = {k.replace("_", "-"): v for k, v in headers.items()}


def test_same_site_is_the_very_host_the_form_was_sent_to():
    assert door.same_site(_Request(host="cantstop.local:8080", origin="http://cantstop.local:8080"))
    assert not door.same_site(_Request(host="cantstop.local:8080", origin="http://cantstop.local:8081"))
    assert not door.same_site(_Request(host="cantstop.local:8080", origin="http://evil.example:8080"))
    assert not door.same_site(_Request(host="cantstop.local:8080", origin="null"))
    assert not door.same_site(_Request(host="cantstop.local:8080"))


def test_pair_on_a_state_dir_that_is_a_file_is_one_line(tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["pair", "--state-dir", str(target)])
    assert code == 2 and err.getvalue().count("\n") == 1 and "cantstop-box pair: cannot keep a code" in err.getvalue()
