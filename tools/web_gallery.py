"""Screenshots of the web view for docs/gallery/web: headless Chromium beside a box being played.

A box (firmware's Box on mock pins, a real store in a temporary folder)
plays a seeded game, the web view serves it on 127.0.0.1, and Chromium
takes the live page mid-game and after the win, the history, one game
stepped part way, and the statistics, at a phone's size (390x844, drawn at
2x), a TV's (1920x1080) and a 720p screen's (1280x720, the page in full
screen), in English, Japanese and Korean; and the phone's
own pages (docs/phone.md): pairing, the names, the next game and the settings, at a phone's
size, paired with a code as the box's Phone screen gives one.

Run: ``make web-gallery`` or ``.venv/bin/python -m tools.web_gallery docs/gallery/web``
(needs Debian's chromium and chromium-driver, and fonts-noto-cjk for the
Japanese and Korean text).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.kit.rig import Rig  # the tests' box on mock pins
from tests.web.browser import chrome, full_screenshot, missing, viewport
from tests.web.server import Server

LANGS = ("en", "ja", "ko")
SIZES = ("phone", "tv", "720p")
NAMES = {"en": ("Ann", "Bob", "Cy"), "ja": ("さくら", "はると", "ゆい"), "ko": ("민준", "서연", "지우")}


def shots(out: Path) -> list[tuple[str, str]]:
    made = []
    for lang in LANGS:
        with tempfile.TemporaryDirectory() as state:
            rig = Rig(Path(state), names=NAMES[lang], seed=21, language=lang, rest=1.0)
            rig.play_on()
            rig.tap("ROLL")
            rig.tap("ROLL")
            rig.play_on(presses=57)
            with Server(Path(state), lang=lang) as server:
                for size in SIZES:
                    driver = chrome(size, lang)
                    if size == "720p":
                        viewport(driver, size)  # the page has the whole screen, as a TV's browser in full screen
                    try:
                        pages = [("live", "/"), ("history", "/games"), ("game", "/games/1?step=40"),
                                 ("stats", "/people")]
                        for name, path in pages:
                            driver.get(server.url + path + ("&" if "?" in path else "?") + f"lang={lang}")
                            file = out / f"{name}-{size}-{lang}.png"
                            if size == "phone":
                                full_screenshot(driver, file)
                                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                                    "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
                            else:
                                driver.save_screenshot(str(file))
                            made.append((file.name, f"{name}, {size}, {lang}"))
                    finally:
                        driver.quit()
            rig.play_on()
            with Server(Path(state), lang=lang) as server:
                for size in SIZES:
                    driver = chrome(size, lang)
                    if size == "720p":
                        viewport(driver, size)
                    try:
                        driver.get(server.url + f"/?lang={lang}")
                        file = out / f"won-{size}-{lang}.png"
                        full_screenshot(driver, file) if size == "phone" else driver.save_screenshot(str(file))
                        made.append((file.name, f"won, {size}, {lang}"))
                    finally:
                        driver.quit()
            rig.close()
    return made


PHONE_PAGES = (("pair", "/pair"), ("players", "/players"), ("setup", "/setup"), ("settings", "/settings"))


def phone_shots(out: Path) -> list[tuple[str, str]]:
    """The phone pages at a phone's size: pairing (the code typed in), then the names and the next game, paired."""
    import time

    from selenium.webdriver.common.by import By

    from firmware.config import GameConfig
    from firmware.table import phones

    made = []
    for lang in LANGS:
        with tempfile.TemporaryDirectory() as state:
            settings = GameConfig(roster=NAMES[lang], players=3)
            rig = Rig(Path(state), settings=settings, language=lang)
            with Server(Path(state), settings=settings, lang=lang) as server:
                driver = chrome("phone", lang)
                try:
                    code = phones.new_code(state, now=time.time())
                    for name, path in PHONE_PAGES:
                        driver.get(server.url + path + (f"?code={code}&" if name == "pair" else "?") + f"lang={lang}")
                        file = out / f"phone-{name}-{lang}.png"
                        full_screenshot(driver, file)
                        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
                        made.append((file.name, f"phone {name}, {lang}"))
                        if name == "pair":
                            driver.find_element(By.ID, "pair").click()  # paired: the next pages have their forms
                finally:
                    driver.quit()
            rig.close()
    return made


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.web_gallery OUT_DIR", file=sys.stderr)
        return 2
    why = missing()
    if why:
        print(f"web_gallery: {why}", file=sys.stderr)
        return 1
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    made = shots(out) + phone_shots(out)
    lines = ["# Web view gallery", "",
             "The live web view (`cantstop-box web`, [docs/web.md](../../web.md)) in headless Chromium beside a",
             "box being played: a phone held upright (390x844, drawn at 2x), a TV (1920x1080) and a 720p screen",
             "(1280x720, in full screen), in every",
             "language the box speaks. Regenerate with `make web-gallery`.", ""]
    for kind, title in (("live", "The live game"), ("won", "After the win: the recap"), ("history", "History"),
                        ("game", "One game, step by step"), ("stats", "Statistics per person")):
        lines += [f"## {title}", "", "| | English | 日本語 | 한국어 |", "|---|---|---|---|"]
        for size in ("tv", "720p", "phone"):
            cells = " | ".join(f"![{kind} {size} {lang}]({kind}-{size}-{lang}.png)" for lang in LANGS)
            lines.append(f"| {size} | {cells} |")
        lines.append("")
    lines += ["## The phone as the table's keyboard ([docs/phone.md](../../phone.md))", "",
              "Pairing with the code from the box's Phone screen, then (paired) the names, the next game, the settings.", "",
              "| | English | 日本語 | 한국어 |", "|---|---|---|---|"]
    for name, _ in PHONE_PAGES:
        cells = " | ".join(f"![phone {name} {lang}](phone-{name}-{lang}.png)" for lang in LANGS)
        lines.append(f"| {name} | {cells} |")
    lines.append("")
    (out / "README.md").write_text("\n".join(lines))
    print(f"wrote {len(made)} screenshots and README.md to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
