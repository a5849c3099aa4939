"""The developer's checks beside the box, run from the repository root with ``python -m``:

    bootcheck/   make boot-check: the box installed and booted in qemu-system-aarch64
    picheck/     make pi-check: the box installed in emulated Pi root file systems
    web_gallery  make web-gallery: screenshots of the web view in headless Chromium
    floors       make test-floors: the dependency floors of pyproject.toml as exact pins

None of it is part of the box (pyproject.toml installs engine, hw, firmware and web only).
"""
