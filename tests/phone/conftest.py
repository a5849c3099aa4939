"""The phone's tests: the headless Chromium of the session's browser tests, the same one the web view's hand
over (tests/web/conftest.py, tests/web/browser.py's ``shared``): ``browser.page(size, lang)``."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def browser():
    from tests.web.browser import shared

    one = shared()
    yield one
    one.close()
