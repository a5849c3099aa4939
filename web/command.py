"""``cantstop-box web``: what the command does once its arguments are parsed (firmware's command module parses them).

Exit statuses as the other commands: 78 for a bad config, 69 when the port
cannot be had (in use, or not allowed), 2 for a mistake on the command line.
"""

from __future__ import annotations

import errno
import logging
import socket
import sys

EXIT_CONFIG = 78
EXIT_UNAVAILABLE = 69


def _fail(message: str, code: int) -> int:
    print(f"cantstop-box web: {message}", file=sys.stderr)
    return code


def run(args) -> int:
    from firmware.config import ConfigError, load
    from firmware.store.installed import state_dir as store_dir

    try:
        cfg = load(args.config)
    except ConfigError as err:
        return _fail(str(err), EXIT_CONFIG)
    host = args.host or cfg.web.host
    port = args.port or cfg.web.port
    state_dir = store_dir(args.state_dir, cfg.state_dir)  # as every command: the installed box's own store
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr, force=True)
    try:
        import starlette  # noqa: F401  (only: is the extra installed?)
        import uvicorn  # noqa: F401
    except ImportError:
        return _fail("the web view needs its extra: pip install 'cantstop-box[web]' "
                     "(deploy/install.sh installs it when [web] enabled = true)", EXIT_UNAVAILABLE)
    try:
        sock = listen(host, port)
    except OSError as err:
        why = "the port is in use" if err.errno == errno.EADDRINUSE else (err.strerror or str(err))
        return _fail(f"cannot listen on {host} port {port}: {why}", EXIT_UNAVAILABLE)
    from .serve import serve

    shown = f"[{host}]" if ":" in host else host
    logging.getLogger("cantstop.web").info("serving the games in %s at http://%s:%d/", state_dir, shown, port)
    serve(state_dir, cfg.game, cfg.display.language, sock, names=(host, cfg.web.host),
          camera=cfg.camera.on)
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (bound here, so a taken port is one line, not a traceback)."""
    info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = info[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
