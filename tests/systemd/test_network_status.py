"""deploy/netstatus.py, the box's network written down for its screen (issue 33, 2 and 3): what it makes of
real `ip -j addr` and wpa_supplicant replies (tests/fixtures/network), its control-interface client
against a stand-in wpa_supplicant socket, the file it writes, and the card's first-boot note."""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
import threading
from pathlib import Path

import pytest

from deploy import netstatus

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "network"
_spec = importlib.util.spec_from_file_location("cardsetup", REPO / "deploy/image/cardsetup.py")
cardsetup = sys.modules.setdefault("cardsetup", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(cardsetup)


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


EVENTS = fixture("wpa-events-wrong-key.txt").splitlines()


def test_netstatus_addresses_are_the_home_networks_ipv4_only():
    assert netstatus.addresses(fixture("ip-addr-eth0.json")) == ["192.0.2.2"]  # not lo's, not IPv6
    # a Pi on Wi-Fi with its cable out: eth0's 169.254 address (scope link) is no home network
    assert netstatus.addresses(fixture("ip-addr-wlan0.json")) == ["192.168.1.23"]
    assert netstatus.addresses("[]") == []


@pytest.mark.parametrize("status, listed, expected", [
    ("wpa-status-completed.txt", "wpa-list-completed.txt", {"state": "joined", "network": "Home"}),
    ("wpa-status-associating.txt", "wpa-list-current.txt", {"state": "joining", "network": "Home"}),
    ("wpa-status-disabled.txt", "wpa-list-disabled.txt", {"state": "joining", "network": "Home"}),
])
def test_netstatus_wifi_state_from_real_wpa_supplicant_replies(status, listed, expected):
    assert netstatus.wifi_state(fixture(status), fixture(listed), None, None) == expected


def test_netstatus_a_refused_password_is_failed_with_its_reason():
    refused = [netstatus.failure(line) for line in EVENTS]
    assert [r for r in refused if r] == [("Home", "WRONG_KEY")]
    status, listed = fixture("wpa-status-disabled.txt"), fixture("wpa-list-temp-disabled.txt")
    assert netstatus.wifi_state(status, listed, ("Home", "WRONG_KEY"), None) == {
        "state": "failed", "network": "Home", "reason": "WRONG_KEY"}
    # disabled for a while with no event seen (it came before this program started): failed, reason unknown
    assert netstatus.wifi_state(status, listed, None, None) == {"state": "failed", "network": "Home", "reason": ""}
    # once joined, an old refusal no longer counts
    assert netstatus.wifi_state(fixture("wpa-status-completed.txt"), fixture("wpa-list-completed.txt"),
                                ("Home", "WRONG_KEY"), None)["state"] == "joined"


def test_netstatus_without_wpa_supplicant_the_cards_note_says_it():
    none = {"state": "none", "network": "", "line": "Wi-Fi: none set (no wifi.txt on the boot partition)"}
    unusable = {"state": "unusable", "network": "", "line": "Wi-Fi: wifi.txt not used: ..."}
    assert netstatus.wifi_state(None, None, None, none) == {"state": "none", "network": ""}
    assert netstatus.wifi_state(None, None, None, unusable) == {"state": "unusable", "network": ""}
    assert netstatus.wifi_state(None, None, None, None) == {"state": "unknown", "network": ""}  # a hand-made box
    whole = netstatus.snapshot("cantstop", True, fixture("ip-addr-wlan0.json"), None, None, None, none)
    assert whole == {"host": "cantstop", "local": "cantstop.local", "addresses": ["192.168.1.23"],
                     "wifi": {"state": "none", "network": ""}, "card": none["line"]}
    assert netstatus.snapshot("cantstop", False, "[]", None, None, None, None)["local"] is None  # no mDNS: no name


class FakeSupplicant:
    """A stand-in for wpa_supplicant's control socket: answers STATUS and LIST_NETWORKS from the fixtures,
    and announces the refused password to attached clients before its STATUS reply, as the real one may."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(5)
        self.asked: list[str] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        replies = {"ATTACH": "OK\n", "STATUS": fixture("wpa-status-disabled.txt"),
                   "LIST_NETWORKS": fixture("wpa-list-temp-disabled.txt")}
        try:
            while True:
                data, peer = self.sock.recvfrom(4096)
                command = data.decode()
                self.asked.append(command)
                if command == "STATUS":
                    for line in EVENTS:
                        self.sock.sendto(line.encode(), peer)
                self.sock.sendto(replies.get(command, "UNKNOWN COMMAND\n").encode(), peer)
        except OSError:
            return

    def close(self) -> None:
        self.sock.close()


def test_netstatus_asks_wpa_supplicant_and_writes_the_status_whole(tmp_path, monkeypatch):
    ctrl, folder = tmp_path / "wpa_supplicant", tmp_path / "run"
    ctrl.mkdir()
    folder.mkdir()
    fake = FakeSupplicant(ctrl / "wlan0")
    monkeypatch.setattr(netstatus, "ip_addr", lambda: fixture("ip-addr-wlan0.json"))
    monkeypatch.setattr(netstatus.socket, "gethostname", lambda: "cantstop")
    try:
        netstatus.watch(folder, ctrl, rounds=1)
    finally:
        fake.close()
    assert fake.asked[:3] == ["ATTACH", "STATUS", "LIST_NETWORKS"]
    written = folder / netstatus.STATUS_FILE
    status = json.loads(written.read_text())
    assert status["addresses"] == ["192.168.1.23"] and status["host"] == "cantstop"
    assert status["wifi"] == {"state": "failed", "network": "Home", "reason": "WRONG_KEY"}
    assert oct(written.stat().st_mode & 0o777) == "0o644"  # the box (another user) reads it
    assert sorted(p.name for p in folder.iterdir()) == [netstatus.STATUS_FILE]  # no part file, no socket left


def test_netstatus_no_wpa_supplicant_is_no_wifi_state_not_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(netstatus, "ip_addr", lambda: "[]")
    netstatus.watch(tmp_path, tmp_path / "absent", rounds=1)
    assert json.loads((tmp_path / "network.json").read_text())["wifi"] == {"state": "unknown", "network": ""}
    assert "Traceback" not in capsys.readouterr().out


def test_netstatus_reads_the_cards_note_only_when_small_and_whole(tmp_path):
    note = tmp_path / netstatus.CARD_FILE
    note.write_text(json.dumps({"state": "unusable", "network": "", "line": "Wi-Fi: wifi.txt not used"}))
    assert netstatus.read_card(tmp_path)["state"] == "unusable"
    note.write_text('{"state": "unus')
    assert netstatus.read_card(tmp_path) is None
    note.write_text(json.dumps({"state": "none", "line": "x" * netstatus.MAX_CARD_BYTES}))
    assert netstatus.read_card(tmp_path) is None
    note.write_text(json.dumps({"state": "rm -rf"}))
    assert netstatus.read_card(tmp_path) is None


@pytest.mark.parametrize("wifi_txt, state", [(None, "none"), ("network = Home\npassword = short\n", "unusable"),
                                             ("network = Home\npassword = long enough\ncountry = GB\n", "taken")])
def test_cardsetup_leaves_its_wifi_result_for_the_status_writer(tmp_path, wifi_txt, state):
    boot, conf, folder = tmp_path / "boot", tmp_path / "data/wpa.conf", tmp_path / "run"
    boot.mkdir()
    if wifi_txt is not None:
        (boot / "wifi.txt").write_text(wifi_txt)
    line = cardsetup.wifi(boot, conf, folder)
    note = netstatus.read_card(folder)
    assert note == {"state": state, "network": "Home" if state == "taken" else "", "line": line}
    assert oct((folder / netstatus.CARD_FILE).stat().st_mode & 0o777) == "0o644"
    assert cardsetup.NOTE_DIR / cardsetup.NOTE_FILE == netstatus.STATUS_DIR / netstatus.CARD_FILE


def test_netstatus_the_local_name_only_when_an_mdns_responder_answers(tmp_path):
    avahi, run_dir, conf, drop = tmp_path / "avahi.pid", tmp_path / "resolve", tmp_path / "resolved.conf", tmp_path / "d"
    confs = (conf, drop)
    assert not netstatus.mdns_answers(avahi, run_dir, confs)  # nothing runs
    run_dir.mkdir()
    conf.write_text("[Resolve]\n#MulticastDNS=no\n")
    assert not netstatus.mdns_answers(avahi, run_dir, confs)  # resolved with its default
    drop.mkdir()
    (drop / "cantstop-box.conf").write_text("[Resolve]\nMulticastDNS=yes\nLLMNR=no\n")  # as the card sets it
    assert netstatus.mdns_answers(avahi, run_dir, confs)
    (drop / "zz-owner.conf").write_text("[Resolve]\nMulticastDNS=no\n")  # a later file wins
    assert not netstatus.mdns_answers(avahi, run_dir, confs)
    avahi.write_text("412\n")  # Raspberry Pi OS: Avahi
    assert netstatus.mdns_answers(avahi, tmp_path / "none", confs)


def test_netstatus_a_network_no_scan_finds_is_failed_after_a_few_scans(tmp_path):
    wpa = netstatus.Supplicant(tmp_path, tmp_path)
    for _ in range(netstatus.NOT_FOUND_SCANS - 1):
        wpa._event("<3>CTRL-EVENT-NETWORK-NOT-FOUND ")
    assert wpa.failed is None  # a router still starting up
    wpa._event("<3>CTRL-EVENT-NETWORK-NOT-FOUND ")
    status, listed = fixture("wpa-status-disabled.txt"), fixture("wpa-list-current.txt")
    assert netstatus.wifi_state(status, listed, wpa.failed, None) == {
        "state": "failed", "network": "Home", "reason": "NOT_FOUND"}
    wpa._event("<3>CTRL-EVENT-CONNECTED - Connection to 3c:a6:2f:11:22:33 completed [id=0 id_str=]")
    assert wpa.failed is None and wpa.not_found == 0


def test_netstatus_a_tool_that_fails_is_no_address_and_one_journal_line(capsys):
    assert netstatus.addresses('[{"ifname": "wlan0", "flags": ["UP"], "addr_in') == []  # cut short
    assert netstatus.addresses('{"not": "a list"}') == []

    def missing(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", "ip")

    for _ in range(3):
        assert netstatus.ip_addr(run=missing) == "[]"
    assert capsys.readouterr().out.count("ip -j addr:") == 1


def test_netstatus_a_status_nested_too_deep_is_no_note_and_no_traceback(tmp_path):
    """4 KB of nested [ raise RecursionError in json.loads, which is no ValueError (issue 45, item 12)."""
    (tmp_path / netstatus.CARD_FILE).write_text("[" * 4000)
    assert netstatus.read_card(tmp_path) is None
    assert netstatus.addresses("[" * 4000) == []


def test_netstatus_shows_a_utf8_network_name_as_its_text_not_wpa_supplicants_escapes():
    """Issue 45, item 11: "Café ☕" was shown as wpa_supplicant's printf_encode wrote it."""
    escaped = r"Caf\xc3\xa9 \xe2\x98\x95"
    assert netstatus.unescaped(escaped) == "Café ☕"
    assert netstatus.unescaped(r'say \"hi\" \\ ok') == 'say "hi" \\ ok'
    assert netstatus.unescaped(r"bad\xff") == "bad\ufffd" and netstatus.unescaped("plain\\") == "plain\\"
    status = f"wpa_state=COMPLETED\nssid={escaped}\n"
    assert netstatus.wifi_state(status, None, None, None) == {"state": "joined", "network": "Café ☕"}
    listed = f"network id / ssid / bssid / flags\n0\t{escaped}\tany\t[TEMP-DISABLED]\n"
    event = f'<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid="{escaped}" auth_failures=1 duration=10 reason=WRONG_KEY'
    assert netstatus.networks(listed) == [("Café ☕", "[TEMP-DISABLED]")]
    assert netstatus.failure(event) == ("Café ☕", "WRONG_KEY")
    assert netstatus.wifi_state("wpa_state=SCANNING\n", listed, netstatus.failure(event), None) == {
        "state": "failed", "network": "Café ☕", "reason": "WRONG_KEY"}
