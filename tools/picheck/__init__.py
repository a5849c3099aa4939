"""make pi-check (``sudo .venv/bin/python -m tools.picheck``): the box installed with deploy/install.sh in
emulated Pi root file systems (Debian under qemu-user), and checked there.

    check   the command: one platform's install and checks, all of them in parallel, the table
    roots   the host's tools, binfmt_misc, the cached Debian roots and the mounts a check runs in
"""
