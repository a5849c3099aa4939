#!/usr/bin/env bash
# Install the Can't Stop box on a Raspberry Pi from this checkout:
#
#     sudo deploy/install.sh            # install or update, then (re)start
#     deploy/install.sh --dry-run       # print what it would do, change nothing
#
# What it does (safe to run again: it updates the program and never
# overwrites your settings):
#   - creates the system user "cantstop" in the groups gpio, i2c, spi
#   - creates /opt/cantstop-box/venv and installs this checkout with the 'pi' extra
#   - installs /etc/cantstop-box/config.toml from firmware/default_config.toml if there is none
#   - installs the systemd unit, enables it and (re)starts it
#   - tells you if I2C is not enabled yet
#
# --root DIR (or ROOT=DIR) installs the files under DIR instead of / and only
# prints the system commands (useradd, pip, systemctl): used by the tests.
set -euo pipefail

usage="usage: sudo deploy/install.sh [--dry-run] [--root DIR]"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${ROOT:-/}
DRY_RUN=0
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run|-n) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a directory; $usage" >&2; exit 2; }
                ROOT=$2; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h|--help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
    esac
    shift
done

NAME=cantstop-box
USER_NAME=cantstop
GROUPS_WANTED=(gpio i2c spi)
R=${ROOT%/}                                   # "" for the real system
[ -z "$R" ] || R=$(cd "$R" 2>/dev/null && pwd) || { echo "install.sh: --root $ROOT is not a directory" >&2; exit 2; }
REAL=0; [ -z "$R" ] && REAL=1
OPT=$R/opt/$NAME
VENV=$OPT/venv
ETC=$R/etc/$NAME
UNIT_DIR=$R/etc/systemd/system
DROPIN_DIR=$UNIT_DIR/$NAME.service.d

# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$(dirname "$0")/steps.sh"
note() { printf 'NOTE: %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

group_exists() {
    if [ "$REAL" -eq 1 ]; then getent group "$1" >/dev/null; else grep -q "^$1:" "$R/etc/group" 2>/dev/null; fi
}

if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/systemd/$NAME.service" ]; then
    fail "run it from a checkout of the project ($SRC has no pyproject.toml)"
fi
if [ "$REAL" -eq 1 ] && [ "$DRY_RUN" -eq 0 ] && [ "$EUID" -ne 0 ]; then
    fail "needs root: run 'sudo deploy/install.sh' (or add --dry-run to see what it would do)"
fi
PYTHON=${PYTHON:-python3}
if [ "$REAL" -eq 1 ]; then
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
        fail "needs Python 3.11 or newer as '$PYTHON' (Raspberry Pi OS bookworm has it)"
fi

[ "$DRY_RUN" -eq 1 ] && say "Dry run: nothing is changed."
say "Installing $NAME from $SRC${R:+ into $R}"

# 1. The user, in the groups that own /dev/gpiochip*, /dev/i2c-* and /dev/spidev*.
present=()
for group in "${GROUPS_WANTED[@]}"; do
    if group_exists "$group"; then
        present+=("$group")
    else
        note "group '$group' does not exist here (Raspberry Pi OS has it); skipping it"
    fi
done
joined=$(IFS=,; echo "${present[*]}")
if user_exists "$USER_NAME"; then
    say "user $USER_NAME exists"
    [ -z "$joined" ] || system_step usermod --append --groups "$joined" "$USER_NAME"
else
    system_step useradd --system --user-group --no-create-home --home-dir "/var/lib/$NAME" \
        --shell /usr/sbin/nologin --comment "cantstop-box daemon" ${joined:+--groups "$joined"} "$USER_NAME"
fi

# 2. The program, in its own virtual environment. --system-site-packages lets
# Raspberry Pi OS's python3-lgpio and python3-spidev satisfy the 'pi' extra
# without a compiler (the apt packages are installed first when missing).
apt_needed=()
if [ "$REAL" -eq 0 ]; then
    apt_needed=(python3-venv python3-lgpio python3-spidev)
else
    "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null || apt_needed+=(python3-venv)
    "$PYTHON" -c 'import lgpio' 2>/dev/null || apt_needed+=(python3-lgpio)
    "$PYTHON" -c 'import spidev' 2>/dev/null || apt_needed+=(python3-spidev)
fi
if [ "${#apt_needed[@]}" -gt 0 ]; then
    if [ "$REAL" -eq 0 ] || command -v apt-get >/dev/null 2>&1; then
        system_step apt-get install -y --no-install-recommends "${apt_needed[@]}"
    else
        note "no apt-get: install ${apt_needed[*]} yourself if pip cannot"
    fi
fi
if [ -x "$VENV/bin/python" ]; then
    say "virtual environment $VENV exists: updating it"
else
    system_step "$PYTHON" -m venv --system-site-packages "$VENV"
fi
# Build from a copy, so no root-owned build/ or *.egg-info lands in the checkout.
if [ "$DRY_RUN" -eq 0 ] && [ "$REAL" -eq 1 ]; then
    build=$(mktemp -d)
    trap 'rm -rf "$build"' EXIT
    tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' -cf - . | tar -C "$build" -xf -
else
    build=$SRC
fi
system_step "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "${build}[pi]"
file_step install -d -m 0755 "$OPT/docs"
for doc in building.md wiring.png; do
    if [ -f "$SRC/docs/$doc" ]; then file_step install -m 0644 "$SRC/docs/$doc" "$OPT/docs/$doc"; fi
done

# 3. The settings: installed once, then they are yours.
if [ -e "$ETC/config.toml" ]; then
    say "kept your settings in $ETC/config.toml"
else
    file_step install -d -m 0755 "$ETC"
    file_step install -m 0644 "$SRC/firmware/default_config.toml" "$ETC/config.toml"
    [ "$DRY_RUN" -eq 1 ] || say "installed the default settings as $ETC/config.toml"
fi

# 4. The service.
file_step install -d -m 0755 "$UNIT_DIR"
file_step install -m 0644 "$SRC/systemd/$NAME.service" "$UNIT_DIR/$NAME.service"
[ "$DRY_RUN" -eq 1 ] || say "installed the service as $UNIT_DIR/$NAME.service"
if [ "${#present[@]}" -lt "${#GROUPS_WANTED[@]}" ]; then
    # The unit names all three groups; a missing one would stop it from starting.
    file_step install -d -m 0755 "$DROPIN_DIR"
    if [ "$DRY_RUN" -eq 1 ]; then
        say "would write $DROPIN_DIR/groups.conf: SupplementaryGroups=${present[*]}"
    else
        printf '# Written by deploy/install.sh: only the groups this system has.\n[Service]\nSupplementaryGroups=\nSupplementaryGroups=%s\n' \
            "${present[*]}" > "$DROPIN_DIR/groups.conf"
    fi
elif [ -e "$DROPIN_DIR/groups.conf" ]; then
    file_step rm -f "$DROPIN_DIR/groups.conf"
fi
system_step systemctl daemon-reload
system_step systemctl enable "$NAME.service"
system_step systemctl restart "$NAME.service"

# 5. I2C: the OLED's bus must be on, ideally at 400 kHz (a frame then takes ~23 ms).
boot_config=$R/boot/firmware/config.txt
[ -e "$boot_config" ] || [ ! -e "$R/boot/config.txt" ] || boot_config=$R/boot/config.txt
shown_config=${boot_config#"$R"}
if [ ! -e "$R/dev/i2c-1" ]; then
    note "I2C is not enabled (no /dev/i2c-1), so the display cannot be found."
    note "  enable it: sudo raspi-config nonint do_i2c 0"
    note "  or add to $shown_config: dtparam=i2c_arm=on,i2c_arm_baudrate=400000"
    note "  then reboot."
elif [ -e "$boot_config" ] && ! grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate=400000' "$boot_config"; then
    note "I2C runs at its default 100 kHz; for smooth screens add to $shown_config:"
    note "  dtparam=i2c_arm=on,i2c_arm_baudrate=400000   (then reboot)"
fi

say "Done. Status: systemctl status $NAME    Log: journalctl -u $NAME -f"
