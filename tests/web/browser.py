"""Headless Chromium (Debian's chromium and chromium-driver) driven by Selenium, or a one-line reason it is not here."""

from __future__ import annotations

import shutil

SIZES = {"phone": (390, 844), "tv": (1920, 1080), "720p": (1280, 720), "1080p": (1920, 1080),
         "phone 200%": (195, 422)}
#: The sizes whose viewport is set exactly (device scale factor, mobile): a phone's, a TV browser in full screen
#: (the page has the whole 1280x720 or 1920x1080, no window frame), and a phone at 200 % zoom: the browser's zoom
#: doubles the CSS pixel, so a 390x844 phone lays the page out in 195x422 CSS px, each 4 device pixels.
VIEWPORTS = {"phone": (2, True), "720p": (1, False), "1080p": (1, False), "phone 200%": (4, True)}
#: Reads the board drawn in the page back as the state view holds it.
READ_BOARD = """
const markers = {}, runners = {}, claimed = {};
for (const sq of document.querySelectorAll('#game .sq')) {
  const col = sq.dataset.col, step = Number(sq.dataset.step);
  for (const p of sq.querySelectorAll('.piece')) { (markers[p.dataset.seat] ||= {})[col] = step; }
  if (sq.querySelector('.runner')) { runners[col] = step; }
}
for (const c of document.querySelectorAll('#game .col[data-owner]')) { claimed[c.dataset.col] = Number(c.dataset.owner); }
return {markers, runners, claimed};
"""


def missing() -> str | None:
    """Why there is no browser to test with (one line), or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not _chromium() or not shutil.which("chromedriver"):
        return "no headless Chromium here (apt-get install chromium chromium-driver); browser tests skipped"
    return None


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def chrome(size: str = "phone", lang: str = "en"):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _chromium()
    width, height = SIZES[size]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars", f"--lang={lang}",
                "--no-first-run", "--disable-extensions", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(20)
    if size in VIEWPORTS:  # the page as a phone lays it out (its viewport, its touch), or a full screen
        viewport(driver, size)
    return driver


def wait_for(driver, condition, seconds=20.0):
    """Until ``condition(driver)`` holds; the bound is generous (a loaded machine is slow, never wrong)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))


def viewport(driver, size: str) -> None:
    """The viewport exactly ``size`` (one of :data:`VIEWPORTS`)."""
    (width, height), (scale, mobile) = SIZES[size], VIEWPORTS[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})


def full_screenshot(driver, path) -> None:
    """The whole page, however long (a phone's page scrolls)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.execute_script("return window.innerWidth")
    metrics = {"width": width, "height": max(height, 1), "deviceScaleFactor": 2 if width < 600 else 1,
               "mobile": width < 600}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.save_screenshot(str(path))


class Shared:
    """One Chromium for many tests: :meth:`page` hands it over as a fresh ``chrome(size, lang)`` would be.

    Starting Chromium costs 2 to 5 s (a test's whole check is often less). Between tests the
    tab goes to about:blank, its cookies and cache are cleared, and the size and language are
    set again: the window's size (and, for a phone, its viewport), and the Accept-Language and
    navigator.languages a browser started with ``--lang`` has (checked against fresh ones
    alike: sizes, pixel ratio, media queries, languages, the header sent). A browser that no longer
    answers is quit and another started.
    """

    def __init__(self) -> None:
        self.driver = None
        self.agent = ""

    def page(self, size: str = "phone", lang: str = "en"):
        if self.driver is not None:
            try:
                self.driver.get("about:blank")
                self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
                self.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            except Exception:  # crashed or stuck in the last test: a new one
                self.close()
        if self.driver is None:
            self.driver = chrome("tv", "en")
            self.agent = self.driver.execute_script("return navigator.userAgent")
        driver = self.driver
        width, height = SIZES[size]
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.set_window_size(width, height)
        if size in VIEWPORTS:
            viewport(driver, size)
        driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": self.agent, "acceptLanguage": lang})
        # and the header itself on every request: once in a CI run (of 3,028 tests) a page asked for in Japanese
        # was served in English, the override's language missing from that request
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": lang}})
        return driver

    def close(self) -> None:
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:
                pass
            self.driver = None


_SHARED: Shared | None = None


def shared() -> Shared:
    """This process's one :class:`Shared` Chromium: the web view's browser tests and the phone's hand it over in
    turn (each folder's session fixture yields this one), so a worker that runs both starts Chromium once."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Shared()
    return _SHARED
