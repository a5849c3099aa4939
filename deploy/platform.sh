# Sourced by install.sh: what this system is, and where each native Python
# module comes from. Needs R (the root prefix, "" for /), REAL and PYTHON.
# APT_CACHE (default apt-cache) can be replaced by the tests.
# shellcheck shell=bash

# The modules with compiled code that the box needs, and the distribution
# package that carries each. Each comes, in this order of preference, from:
#   present  already importable by $PYTHON (the venv sees system packages)
#   apt      the distribution's package (Raspberry Pi OS has all four;
#            Debian and Ubuntu have all but python3-lgpio on some releases)
#   wheel    a binary wheel from the package index (pip --only-binary: never
#            a compiler); PyPI has lgpio wheels for aarch64 and armv7l up
#            to Python 3.12, and Adafruit's adafruit-lgpio (the same module)
#            for Python 3.13 on aarch64
# shellcheck disable=SC2034  # read by install.sh
NATIVE_MODULES=(lgpio:python3-lgpio spidev:python3-spidev PIL:python3-pil cbor2:python3-cbor2)

# "Debian GNU/Linux 12 (bookworm)", from the root's os-release.
os_name() {
    local file=$R/etc/os-release
    [ -e "$file" ] || file=$R/usr/lib/os-release
    (
        PRETTY_NAME=
        # shellcheck disable=SC1090
        [ -e "$file" ] && . "$file" 2>/dev/null
        printf '%s\n' "${PRETTY_NAME:-this system}"
    )
}

# What apt knows of PACKAGES, asked once for all of them: each apt-cache call loads apt's
# whole cache (a second of CPU where there is no pkgcache.bin, more on a Pi Zero). The
# answer is kept in APT_POLICY for apt_has. (The whole answer first: grep -q in a pipe
# would quit early and, under pipefail, apt-cache's SIGPIPE would read as "no".)
APT_POLICY=
apt_ask() {
    APT_POLICY=$("${APT_CACHE:-apt-cache}" policy "$@" 2>/dev/null) || APT_POLICY=
}

# Does the distribution's archive offer PACKAGE (apt knows a candidate)? Read from
# the answer of apt_ask, whose lines are grouped under a "PACKAGE:" line each.
apt_has() {
    awk -v head="$1:" '/^[^[:space:]]/ { inside = ($0 == head) }
        inside && /^[[:space:]]*Candidate: [^(]/ { found = 1 }
        END { exit !found }' <<<"$APT_POLICY"
}

# Has apt never fetched its package lists (a fresh image or chroot)?
apt_lists_missing() {
    ! compgen -G "$R/var/lib/apt/lists/*_Packages*" >/dev/null
}

python_has() {
    [ "$REAL" -eq 1 ] && "$PYTHON" -c "import $1" 2>/dev/null
}

# Is systemd running this system (and so can start the service now)? Not
# under --root, not in a chroot, not in an image build.
systemd_running() {
    [ "$REAL" -eq 1 ] && [ -d /run/systemd/system ] || return 1
    if command -v systemd-detect-virt >/dev/null 2>&1 && systemd-detect-virt --quiet --chroot; then return 1; fi
    return 0
}

# The targets the unit is wanted by ([Install] WantedBy=), one per line.
wanted_by() {
    sed -n '/^\[Install\]/,/^\[/s/^WantedBy=//p' "$1" | tr ' ' '\n' | sed '/^$/d'
}
