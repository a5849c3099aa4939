"""Setting the camera up on a phone's browser (headless Chromium at a phone's size, touch): photograph the empty
board, wait for the new photo, then place the columns by hand; the taps on the scaled photo reach the box in the
photo's own pixels. The box is its socket only (tests/phone/kit.py's FakeBox), whose camera writes a new photo
when asked. Skipped in one line without Chromium; about 4 s with it (and the start of one Chromium for the
session, tests/phone/conftest.py)."""

from __future__ import annotations

import io
import json

import pytest

from tests.phone.kit import FakeBox, pair_code
from tests.web import camerafiles
from tests.web.browser import missing, wait_for
from tests.web.server import Server

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")
SIZE = (1600, 1200)


def _jpeg(size) -> bytes:
    from PIL import Image  # the test draws its photo; the web view never loads Pillow

    out = io.BytesIO()
    Image.new("RGB", size, (40, 90, 60)).save(out, "JPEG", quality=60)
    return out.getvalue()


#: The phone's page waits no longer than this for each step (a busy machine is slow, never wrong).
PATIENCE = 15.0


def test_a_phone_photographs_the_board_then_places_the_columns_by_hand(tmp_path, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    photo = _jpeg(SIZE)

    def camera(request):  # the box's camera: a new photo of the empty board a moment after it is asked
        if request["step"] == "photo":
            camerafiles.setup(tmp_path, size=SIZE, photo=photo)

    box = FakeBox(tmp_path, then=camera)
    try:
        with Server(tmp_path, camera=True) as server:
            driver = browser.page("phone", "en")
            driver.get(server.url + "/pair")
            driver.find_element(By.ID, "code").send_keys(pair_code(tmp_path))
            driver.find_element(By.ID, "pair").click()
            wait_for(driver, lambda d: d.current_url.endswith("/players"), PATIENCE)
            driver.get(server.url + "/camera")
            driver.find_element(By.ID, "photo").click()
            assert wait_for(driver, lambda d: d.find_elements(By.ID, "by-hand") and
                            d.find_element(By.ID, "by-hand").is_displayed(), PATIENCE)  # the new photo, once it came
            assert box.asked == [{"do": "camera", "step": "photo"}]
            assert len(driver.find_elements(By.CSS_SELECTOR, "#fit circle")) == 83
            driver.find_element(By.ID, "by-hand").click()
            say = driver.find_element(By.ID, "tap-say")
            assert say.text == "Tap the bottom space of column 2"
            svg = driver.find_element(By.ID, "overlay")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
            _, _, width, height = driver.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", svg)
            assert width < SIZE[0] / 3  # shown scaled: a CSS pixel is several of the photo's

            def taps(*offsets) -> None:  # from the drawing's centre, in CSS pixels: one chain of touches
                chain = ActionChains(driver, duration=0)  # no 250 ms glide to each point
                for dx, dy in offsets:
                    chain.move_to_element_with_offset(svg, dx, dy).click()
                chain.perform()

            taps((0, 0), (int(width * 0.3), 0))
            assert say.text == "Tap the bottom space of column 3"
            driver.find_element(By.ID, "undo").click()  # two slips, taken back
            driver.find_element(By.ID, "undo").click()
            assert say.text == "Tap the bottom space of column 2"
            tapped = [(int((column - 7) * width / 12), dy) for column in range(2, 13)
                      for dy in (int(height * 0.35), -int(height * 0.35))]  # each column's bottom, then its top
            taps(*tapped[:1])
            assert say.text == "Tap the top space of column 2"
            taps(*tapped[1:])
            assert say.text == "Every column is placed: send them to the box."
            assert len(driver.find_elements(By.CSS_SELECTOR, "#tapped circle")) == 22
            ends = json.loads(driver.find_element(By.ID, "ends").get_attribute("value"))
            assert sorted(ends, key=int) == [str(c) for c in range(2, 13)]
            scale = SIZE[0] / width
            for i, (dx, dy) in enumerate(tapped):  # each tap where it was, in the photo's pixels
                x, y = ends[str(2 + i // 2)][i % 2]
                assert abs(x - (width / 2 + dx) * scale) < 2 * scale and abs(y - (height / 2 + dy) * scale) < 2 * scale
            driver.find_element(By.ID, "send-ends").click()
            wait_for(driver, lambda d: d.find_elements(By.ID, "waiting"), PATIENCE)
            assert box.asked[-1] == {"do": "camera", "step": "ends", "ends": ends}
    finally:
        box.close()
