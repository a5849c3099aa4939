"""gzip for what the web view sends, but its event stream: a phone at the far end of the table, on a weak
Wi-Fi, gets the live page in a fifth of its bytes (about 10.6 KB of HTML is 2.2 KB gzipped).

Starlette's own ``GZipMiddleware`` does the work. The event stream goes past it: a compressor holds
back what it has not filled a block with, and each change must reach the page at once (the versions
of Starlette this project allows do not all leave ``text/event-stream`` alone by themselves).
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware

#: A response smaller than this goes as it is (gzip's header and the CPU are not worth it).
MINIMUM_BYTES = 500
#: The routes whose answers are streamed: never compressed.
STREAMED = frozenset({"/events"})
#: The camera's files, sent as they are with their ETag (the pictures are compressed already: gzip would spend a
#: Pi's CPU for nothing; the spaces' ETag is what the phone's page watches).
CAMERA_FILES = frozenset({"/camera/view.jpg", "/camera/read.png", "/camera/setup.jpg", "/camera/grid.json"})
UNCOMPRESSED = STREAMED | CAMERA_FILES


class Compressed:
    def __init__(self, app, minimum_size: int = MINIMUM_BYTES):
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("path") not in UNCOMPRESSED:
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
