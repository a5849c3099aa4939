"""Pairing codes and paired phones (firmware.table.phones), the wrong-code limit, `cantstop-box pair`'s one line."""

from __future__ import annotations

import io
import contextlib
import json

from firmware.commands import cli
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


def test_five_wrong_codes_in_a_minute_lock_for_a_minute():
    now = [0.0]
    wrong = door.WrongCodes(lambda: now[0])
    for _ in range(4):
        wrong.wrong()
        now[0] += 14.0
    assert not wrong.blocked()
    now[0] += 10.0  # the first of the four is now more than a minute old: four in the window again
    wrong.wrong()
    assert not wrong.blocked()
    wrong.wrong()
    assert wrong.blocked()
    now[0] += door.WRONG_WINDOW
    assert not wrong.blocked()


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
