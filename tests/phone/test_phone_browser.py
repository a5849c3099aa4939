"""A phone's browser (headless Chromium at a phone's size) beside the real emulator: pair, add names, set up a game.

The emulator is ``cantstop-box emulate`` in its own process (the daemon of
``run`` on mock pins), the web view serves the same state directory, and the
two meet only where they meet on a box: the store (read-only for the web) and
the box's own socket. The code comes from ``cantstop-box pair``. The new-game
screen must show the phone's game at once and start it only on ROLL (``r``).
Skipped in one line without Chromium, as the web view's browser tests are; 17 s, so not in
``make test``: ``make test-phone`` runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware.store import Store
from tests.phone.kit import pair_code
from tests.web.browser import chrome, missing
from tests.web.server import Server

WHY = missing()
pytestmark = [pytest.mark.skipif(WHY is not None, reason=WHY or ""), pytest.mark.emulator_browser]
ROOT = Path(__file__).resolve().parents[2]


class Emulator:
    """``cantstop-box emulate --trace`` on ``state_dir``: keys in, one line per frame out."""

    def __init__(self, state_dir: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("NOTIFY_SOCKET", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boxcli.cli", "emulate", "--seed", "3", "--state-dir", str(state_dir),
             "--trace", "--mute"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        self.shown: list[str] = []
        self.other: list[str] = []
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            with self.arrived:
                (self.shown if line.startswith("shown ") else self.other).append(line.strip())
                self.arrived.notify_all()

    def wait(self, done, timeout: float = 15.0) -> bool:
        with self.arrived:
            return self.arrived.wait_for(done, timeout)

    def press(self, key: str) -> None:
        before = len(self.shown)
        self.proc.stdin.write(key + "\n")
        self.proc.stdin.flush()
        self.wait(lambda: len(self.shown) > before)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("qq\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()


def _socket_up(state_dir: Path, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if (state_dir / "box.sock").exists():
            return True
        time.sleep(0.05)
    return False


def _says(driver, text: str, timeout: float = 15.0) -> bool:
    """Whether the page comes to say ``text`` in its note (the answer to the form just posted)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def said(d):
        try:
            return d.find_element(By.ID, "note").text == text
        except (NoSuchElementException, StaleElementReferenceException):
            return False

    try:
        return WebDriverWait(driver, timeout).until(said)
    except Exception:
        return False


def test_chromium_pairs_adds_names_and_sets_up_three_seats_the_emulator_shows_and_starts(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    state = tmp_path / "state"
    box = Emulator(state)
    driver = None
    try:
        assert box.wait(lambda: box.shown), box.other  # the first frame: the new-game screen
        assert _socket_up(state), box.other
        with Server(state) as server:
            driver = chrome("phone", "en")
            driver.get(server.url + "/pair")
            driver.find_element(By.ID, "code").send_keys(pair_code(state))
            driver.find_element(By.ID, "pair").click()
            WebDriverWait(driver, 15).until(lambda d: d.current_url.endswith("/players"))
            for name in ("Ann", "Bob"):
                driver.find_element(By.ID, "name").send_keys(name)
                driver.find_element(By.ID, "add-button").click()
                assert _says(driver, f"{name} added from a phone"), driver.page_source[-600:]
            assert [w.text for w in driver.find_elements(By.CSS_SELECTOR, "ul.names .who")] == ["Ann", "Bob"]
            driver.get(server.url + "/setup")
            for seat, (plays, name) in enumerate((("person", "Ann"), ("person", "Bob"), ("box", ""), ("", ""))):
                Select(driver.find_element(By.ID, f"plays{seat}")).select_by_value(plays)
                Select(driver.find_element(By.ID, f"name{seat}")).select_by_value(name)
            Select(driver.find_element(By.ID, "first")).select_by_value("1")  # Bob starts
            seen = len(box.shown)
            driver.find_element(By.ID, "send").click()
            # the answer says how the game starts (issue 46, item 3)
            assert _says(driver, "Next game from a phone. The game starts when someone presses ROLL on the box."), \
                driver.page_source[-600:]
        # the emulator's new-game screen showed it at once, and nothing started
        assert box.wait(lambda: len(box.shown) > seen), box.other
        assert box.shown[-1].endswith("view=SetupView"), box.shown[-3:]
        with Store.open(state, readonly=True) as store:
            assert store.open_game() is None
        box.press("r")  # ROLL on the box starts it
        assert box.wait(lambda: box.shown[-1].endswith("view=TurnView")), box.shown[-3:]
        with Store.open(state, readonly=True) as store:
            game = store.open_game()
            seats = [(s["colour"], s.get("name"), s["bot"]) for s in game.meta["seats"]]
        assert seats == [("Blue", "Bob", None), ("Green", None, "strong"), ("Red", "Ann", None)]  # Bob first
    finally:
        if driver is not None:
            driver.quit()
        box.close()
