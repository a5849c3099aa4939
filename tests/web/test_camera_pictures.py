"""The camera's pictures over HTTP: fixed names only, each file's size checked before it is read, the right types,
kept by the browser only at the address that names their time (the set-up's for a paired phone only:
tests/phone/test_phone_camera.py)."""

from __future__ import annotations

import os
import time

import pytest

from firmware.camera.link import READ, SETUP, VIEW
from tests.web import camerafiles, fetch
from tests.web.server import Server
from web import pictures


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A web view beside a camera's files (no box: the pictures need none)."""
    state_dir = tmp_path_factory.mktemp("pictures")
    camerafiles.pictures(state_dir)
    camerafiles.setup(state_dir)
    with Server(state_dir) as server:
        yield state_dir, server


def test_the_live_pages_pictures_are_served_whole_with_their_types(served):
    state_dir, server = served
    for name, kind, data in ((VIEW, "image/jpeg", camerafiles.JPEG), (READ, "image/png", camerafiles.PNG)):
        answer = fetch.get(f"{server.url}/camera/{name}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200 and answer.content == data
        assert answer.headers["content-type"] == kind
        assert "content-encoding" not in answer.headers  # a picture is compressed already
        assert answer.headers["x-content-type-options"] == "nosniff" and "frame-ancestors 'none'" in \
            answer.headers["content-security-policy"]


def test_a_picture_named_by_its_time_is_kept_and_any_other_address_asked_again(served):
    state_dir, server = served
    stamp = (state_dir / "camera" / VIEW).stat().st_mtime_ns
    kept = fetch.get(f"{server.url}/camera/{VIEW}?v={stamp}")
    assert kept.headers["cache-control"] == "private, max-age=31536000, immutable"
    for address in (f"/camera/{VIEW}", f"/camera/{VIEW}?v={stamp - 1}", f"/camera/{VIEW}?v=x"):
        again = fetch.get(server.url + address)
        assert again.status_code == 200 and again.headers["cache-control"] == "no-cache"
        assert again.headers["etag"] == kept.headers["etag"]
    same = fetch.get(f"{server.url}/camera/{VIEW}", headers={"If-None-Match": kept.headers["etag"]})
    assert same.status_code == 304 and same.content == b""
    head = fetch.client().head(f"{server.url}/camera/{READ}")
    assert head.status_code == 200 and head.content == b"" and head.headers["content-length"] == str(len(camerafiles.PNG))


def test_only_the_cameras_own_names_are_served_never_a_path_from_the_request(served):
    state_dir, server = served
    (state_dir / "camera" / "other.jpg").write_bytes(camerafiles.JPEG)
    for address in ("/camera/other.jpg", "/camera/..%2Fgames.sqlite3", "/camera/%2e%2e/phones.json",
                    "/camera/view.jpg%00", "/camera/VIEW.JPG", "/camera/view.jpg/x"):
        answer = fetch.get(server.url + address)
        assert answer.status_code == 404, address
        assert b"SQLite" not in answer.content
    foreign = fetch.get(f"{server.url}/camera/{VIEW}", headers={"Host": "evil.example"})
    assert foreign.status_code == 421 and foreign.content != camerafiles.JPEG


def test_a_picture_over_its_limit_is_refused_in_one_line_and_never_read(tmp_path):
    camerafiles.folder(tmp_path)
    huge = tmp_path / "camera" / VIEW
    with open(huge, "wb") as f:
        f.truncate(64 << 30)  # 64 GiB, sparse: read whole, the test would never end
    with Server(tmp_path) as server:
        started = time.monotonic()
        answer = fetch.get(f"{server.url}/camera/{VIEW}", timeout=10)
        assert time.monotonic() - started < 5
    assert answer.status_code == 500
    assert answer.text.count("\n") == 1 and "over the 4096 KiB the web view reads" in answer.text
    with pytest.raises(pictures.TooBig):
        pictures.read(tmp_path, VIEW, body=False)


def test_a_link_a_folder_or_a_pipe_in_a_pictures_place_is_not_a_picture(tmp_path):
    where = camerafiles.folder(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("not the camera's")
    os.symlink(secret, where / VIEW)
    (where / READ).mkdir()
    os.mkfifo(where / SETUP)  # opened as a file without care, a pipe would hold a thread for ever
    with Server(tmp_path) as server:
        for name in (VIEW, READ):
            answer = fetch.get(f"{server.url}/camera/{name}", timeout=5)
            assert answer.status_code == 404 and b"camera's" not in answer.content
    assert pictures.read(tmp_path, SETUP) is None and pictures.mtime(tmp_path, VIEW) is None
