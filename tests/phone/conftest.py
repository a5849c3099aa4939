"""The phone's tests: one headless Chromium for a session's browser tests, as the web view's have
(tests/web/conftest.py): ``browser.page(size, lang)``."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def browser():
    from tests.web.browser import Shared

    shared = Shared()
    yield shared
    shared.close()
