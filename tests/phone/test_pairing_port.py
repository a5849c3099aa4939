"""The pairing page's address names the port the web view serves on (issue 46, item 9): the QR code on the
box's Phone screen and `cantstop-box pair` said 8080 whatever --port or PORT= the web view was given."""

from __future__ import annotations

import contextlib
import io
import signal

from firmware import views
from boxcli import cli
from firmware.table import phones
from tests.kit.rig import Rig
from tests.phone.test_box_door import _menu_to_phone
from tests.web.webproc import free_port, start_web


def pair_says(state_dir) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["pair", "--state-dir", str(state_dir)]) == 0
    return err.getvalue()


def test_the_qr_code_and_pair_name_the_port_the_web_view_serves_on_and_the_configs_once_it_stops(tmp_path):
    rig = Rig(tmp_path)
    port = free_port()
    assert port != 8080
    web = start_web(tmp_path, port, tmp_path / "web.log")
    try:
        assert phones.served_port(tmp_path, 8080) == port
        assert f".local:{port}/pair" in pair_says(tmp_path)
        _menu_to_phone(rig)
        shown = rig.box.last_view
        assert isinstance(shown, views.PhoneView) and f".local:{port}/pair?k=" in shown.address
    finally:
        web.send_signal(signal.SIGTERM)
        assert web.wait(15) == 0
        rig.close()
    assert not (tmp_path / phones.WEB_FILE).exists()  # a stopped web view leaves no port behind
    assert ".local:8080/pair" in pair_says(tmp_path)


def test_a_port_record_not_ours_is_the_configs_port():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        for text in ("", "http\n", "0\n", "70000\n", "８０８１\n", "9" * 40):
            (Path(d) / phones.WEB_FILE).write_text(text)
            assert phones.served_port(d, 8080) == 8080
        phones.serving(d, 9123)
        assert phones.served_port(d, 8080) == 9123
        phones.stopped_serving(d, 9000)  # another web view's stop leaves this one's record
        assert phones.served_port(d, 8080) == 9123
