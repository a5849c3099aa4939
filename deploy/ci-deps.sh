#!/usr/bin/env bash
# Install the system tools the test suite uses, when they are missing:
#   systemd-analyze (Debian package "systemd"): verifies and rates the units
#   the shell linter (package "shellcheck"): lints deploy/*.sh
# or the ones named as TOOL=PACKAGE arguments, e.g. the web view's browser tests'
#   deploy/ci-deps.sh chromium=chromium chromedriver=chromium-driver
# A TOOL that starts with / is a file the package puts there (fonts have no command):
#   deploy/ci-deps.sh /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc=fonts-noto-cjk
# Idempotent and quiet: does nothing when all are there, runs
# `apt-get update` only when apt knows no candidate for a missing package.
# Called by .ci/run before `make test`. Without root it uses sudo if present.
set -euo pipefail

if [ $# -gt 0 ]; then wanted=("$@"); else wanted=(systemd-analyze=systemd shellcheck=shellcheck); fi
missing=()
for pair in "${wanted[@]}"; do
    tool=${pair%%=*}
    if [ "${tool#/}" != "$tool" ]; then
        [ -e "$tool" ] || missing+=("${pair#*=}")
    else
        command -v "$tool" >/dev/null 2>&1 || missing+=("${pair#*=}")
    fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ci-deps: no apt-get here; install ${missing[*]} by hand" >&2
    exit 1
fi
sudo=()
if [ "$EUID" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "ci-deps: need root (or sudo) to install ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

for package in "${missing[@]}"; do
    if [ -z "$(apt-cache madison "$package" 2>/dev/null)" ]; then
        "${sudo[@]}" apt-get update -qq >/dev/null
        break
    fi
done
if ! log=$("${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" 2>&1); then
    printf '%s\n' "$log" >&2
    echo "ci-deps: could not install ${missing[*]}" >&2
    exit 1
fi
