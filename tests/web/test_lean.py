"""The web process stays lean: it never loads Pillow, the renderer, the display's code, NumPy or OpenCV.

The web view measures the box's lines (the instructions' pages, whether a
name can be drawn) with :mod:`hw.textfit` and :mod:`firmware.layout`, which
need no Pillow; drawing is the box's business. Pillow and its libraries are
about 4 MB of a process that must stay under 40 MB on a Pi
(benchmarks/web.py), so these tests fail if anything on the web's path
brings it back: at import, and in a real ``cantstop-box web`` process after
it has served every kind of page in every language.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.kit.rig import Rig
from tests.web import camerafiles
from tests.web.webproc import free_port, start_web

ROOT = Path(__file__).resolve().parents[2]

#: Modules the web process must never load (Pillow, the renderer, the display, the glyphs' drawing side; the
#: camera's NumPy and OpenCV and what it reads pictures with: the web only serves the camera's files).
HEAVY = ("PIL", "firmware.screens", "hw.display", "hw.glyphs", "hw.oled", "luma", "gpiozero", "numpy", "cv2",
         "firmware.camera.pictures", "firmware.camera.eye", "sight.read", "sight.markers", "sight.calibrate")


def _heavy(modules) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def _fresh(code: str) -> str:
    """What ``code`` prints, run by a fresh interpreter from the repository's root."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def listings() -> tuple[list[str], list[str]]:
    """The modules a fresh interpreter holds after importing the web view, then after the box's renderer too
    (one process for both: the second listing is the first plus what the renderer brought)."""
    code = ("import sys, web.app, web.serve, web.command, web.live, web.board, web.pages, boxcli.web\n"
            "web.serve._slow_headers_protocol()\n"  # uvicorn's protocol and config too
            "print('\\n'.join(sys.modules))\n"
            "print('-- the renderer --')\n"
            "import firmware.screens\n"
            "print('\\n'.join(sys.modules))\n")
    web, _, renderer = _fresh(code).partition("-- the renderer --")
    return web.split(), renderer.split()


def test_importing_the_web_view_loads_no_pillow(listings):
    loaded = listings[0]
    assert "web.app" in loaded and "hw.textfit" in loaded  # the listing is real: the measuring side is there
    assert _heavy(loaded) == []


def test_the_web_view_loads_the_config_checks_suggester_only_for_a_mistake(listings):
    # difflib (did you mean ...?) is imported by the config check only for a word it does not know
    assert "firmware.config.check" in listings[0] and "difflib" not in listings[0]


def test_the_start_is_kept_out_of_the_collectors_full_passes():
    """web.serve.settled() freezes what the start made: most of the process's objects, which every full pass of
    the garbage collector walked (25-34 ms a pass at 10,000 games, met by whichever request came then)."""
    code = ("import gc, web.app, web.serve\n"
            "web.serve._slow_headers_protocol()\n"
            "before = len(gc.get_objects())\n"
            "web.serve.settled()\n"
            "print(before, gc.get_freeze_count(), len(gc.get_objects()))\n")
    before, frozen, left = map(int, _fresh(code).split())
    assert frozen >= 0.9 * before and left < 0.1 * before


def test_the_checker_sees_pillow_when_it_is_there(listings):
    # not a check that cannot fail: the box's renderer, imported the same way, is caught
    assert {"PIL.Image", "firmware.screens", "hw.glyphs"} <= set(_heavy(listings[1]))


def _mapped(pid: int) -> set[str]:
    """The files mapped into process ``pid`` (its shared libraries and extension modules)."""
    return {line.split(None, 5)[5].strip() for line in Path(f"/proc/{pid}/maps").read_text().splitlines()
            if len(line.split(None, 5)) == 6}


def _pillow_files(files) -> list[str]:
    return sorted(f for f in files if "/PIL/" in f or "pillow.libs" in f.lower())


@pytest.fixture
def store_of_every_kind(tmp_path):
    """A finished game and one under way, seats named in Japanese, Korean and accented Latin (measured text)."""
    rig = Rig(tmp_path, names=("さくら", "민수", "Zoë"), seed=5, rest=1.0)
    rig.play_on()
    rig.tap("ROLL")  # the result seen: the new-game screen
    rig.tap("ROLL")  # a new game
    rig.play_on(presses=12)
    camerafiles.pictures(tmp_path)  # and a camera's pictures, which the live page shows
    camerafiles.seen(tmp_path, "wrong", wrong=(("moved", "Red", 7, 4, 5),))
    yield tmp_path
    rig.close()


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc/<pid>/maps")
def test_a_serving_web_process_never_loads_pillow(store_of_every_kind, tmp_path_factory):
    port, log = free_port(), tmp_path_factory.mktemp("web") / "web.log"
    server = start_web(store_of_every_kind, port, log)
    url = f"http://127.0.0.1:{port}"
    try:
        with urllib.request.urlopen(url + "/now.json", timeout=5) as page:
            assert json.loads(page.read())["v"] >= 1
        pages = 0
        for lang in ("en", "ja", "ko"):
            for path in ("/", "/now.json", "/games", "/games/1", "/games/1?step=9", "/games/1.json", "/games/2",
                         "/people", "/static/style.css", "/camera/view.jpg", "/camera"):
                with urllib.request.urlopen(f"{url}{path}{'&' if '?' in path else '?'}lang={lang}",
                                            timeout=10) as page:
                    assert page.status == 200 and page.read()
                    pages += 1
            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(f"{url}/games/99999?lang={lang}", timeout=10)
            assert missing.value.code == 404
            with socket.create_connection(("127.0.0.1", port), timeout=10) as stream:
                stream.sendall(f"GET /events?lang={lang} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                got = b""
                while b"event: live" not in got:
                    got += stream.recv(65536)
        assert pages == 33
        assert "さくら" in urllib.request.urlopen(url + "/games/1?lang=ja", timeout=10).read().decode()
        mapped = _mapped(server.pid)
        assert any("python" in f for f in mapped)  # the listing is real: the interpreter is mapped
        assert _pillow_files(mapped) == []
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert "Traceback" not in log.read_text()
