#!/usr/bin/env bash
# Install the Can't Stop box on a Raspberry Pi from this checkout:
#
#     sudo deploy/install.sh            # install or update, then (re)start
#     deploy/install.sh --dry-run       # print what it would do, change nothing
#     sudo deploy/install.sh --update FILE [--allow-older] | --rollback
#                                       # an offline update from a bundle (docs/update.md):
#                                       # the same as sudo cantstop-box-update FILE
#     sudo deploy/install.sh --trust KEY.pub   # install, and take update bundles signed by
#                                       # that release key only (docs/update.md)
#
# What it does (safe to run again: it updates the program and never
# overwrites your settings):
#   - creates the system user "cantstop" in the groups gpio, i2c, spi (and any
#     of these groups the system lacks, as on plain Debian and Ubuntu)
#   - installs a udev rule (/etc/udev/rules.d/60-cantstop-box.rules) giving
#     /dev/gpiochip*, /dev/gpiomem, /dev/i2c-* and /dev/spidev* to those groups
#   - creates /opt/cantstop-box/releases/<version>/venv, installs this checkout there with the
#     'pi' extra and makes it current (/opt/cantstop-box/current, one symlink swap; the units run
#     it); /opt/cantstop-box/venv points at current/venv. Each version has its own place, so an
#     update (cantstop-box-update, in /usr/local/sbin) installs beside and can go back (docs/update.md)
#   - installs /etc/cantstop-box/config.toml from firmware/default_config.toml if there is none
#   - installs cantstop-box-network.service with deploy/netstatus.py (/opt/cantstop-box/network):
#     the box's name, addresses and Wi-Fi written down for its screen (the box keeps no network)
#   - installs the systemd unit, enables it and (re)starts it; where systemd
#     is not running (a chroot, an SD-image build) it enables it offline and
#     the box starts on the next boot
#   - lgpio, spidev, Pillow, cbor2: the distribution's python3- package where
#     it has one (Raspberry Pi OS has all), else a binary wheel from PyPI
#     (lgpio for Python 3.13 on 64-bit: Adafruit's build, adafruit-lgpio);
#     never a compiler
#   - openssh-client when ssh-keygen is missing: the updater checks a bundle's signature with it;
#     --trust KEY.pub makes the box take bundles signed by that release key only (docs/update.md)
#   - remembers what it added in /opt/cantstop-box/install.record, for uninstall.sh
#   - turns the display's bus on in the Pi's boot config (/boot/firmware/config.txt
#     or /boot/config.txt): I2C at 400 kHz, or SPI, as the settings say; it keeps
#     the old file as config.txt.cantstop-box.bak and says when a reboot is due
#   - loads the display's bus module (i2c-dev, or spidev for SPI) at every boot
#     (/etc/modules-load.d/cantstop-box.conf), and now, where systemd runs
#   - with a camera over the board ([camera] source not "off"; deploy/camera.sh): OpenCV and
#     NumPy (the 'camera' extra); for "usb" or "pi" a drop-in of the unit that lets it open the
#     camera's devices (/etc/systemd/system/cantstop-box.service.d/camera.conf) and their modules
#     loaded at boot; for "pi" python3-picamera2 from apt. Without a camera, none of it
#
# --root DIR (or ROOT=DIR) installs the files (and the service links) under DIR instead of / and only
# prints the system commands (useradd, pip, systemctl): used by the tests.
set -euo pipefail

usage="usage: sudo deploy/install.sh [--dry-run] [--root DIR] [--trust KEY.pub] | --update FILE [--allow-older] | --rollback"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${ROOT:-/}
DRY_RUN=0
TRUST=
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run|-n) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a directory; $usage" >&2; exit 2; }
                ROOT=$2; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --trust) [ $# -ge 2 ] || { echo "install.sh: --trust needs a release key's KEY.pub; $usage" >&2; exit 2; }
                 TRUST=$(realpath -m -- "$2"); shift ;;
        --update|--rollback)
            # The updater does it all (deploy/update.py), with the system's python3.
            [ "$1" = --rollback ] || [ $# -ge 2 ] || { echo "install.sh: --update needs a bundle FILE; $usage" >&2; exit 2; }
            if [ "$1" = --rollback ]; then set -- --rollback "${@:2}"; else set -- "${@:2}"; fi
            exec "${PYTHON:-python3}" "$(dirname "${BASH_SOURCE[0]}")/update.py" "$@" ;;
        -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
    esac
    shift
done

NAME=cantstop-box
WEB_NAME=$NAME-web
NET_NAME=$NAME-network
USER_NAME=cantstop
GROUPS_WANTED=(gpio i2c spi)
R=${ROOT%/}                                   # "" for the real system
[ -z "$R" ] || R=$(cd "$R" 2>/dev/null && pwd) || { echo "install.sh: --root $ROOT is not a directory" >&2; exit 2; }
REAL=0; [ -z "$R" ] && REAL=1
OPT=$R/opt/$NAME
ETC=$R/etc/$NAME
UNIT_DIR=$R/etc/systemd/system
DROPIN_DIR=$UNIT_DIR/$NAME.service.d
UDEV_DIR=$R/etc/udev/rules.d
UDEV_RULE=60-$NAME.rules

# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$(dirname "$0")/steps.sh"
# shellcheck source-path=SCRIPTDIR source=platform.sh
. "$(dirname "$0")/platform.sh"
# shellcheck source-path=SCRIPTDIR source=releases.sh
. "$(dirname "$0")/releases.sh"
# shellcheck source-path=SCRIPTDIR source=camera.sh
. "$(dirname "$0")/camera.sh"
VERSION=$(release_version)
[ -n "$VERSION" ] || { echo "install.sh: pyproject.toml names no version" >&2; exit 2; }
RELEASE=$OPT/releases/$VERSION
VENV=$RELEASE/venv
OLD_CURRENT=$(readlink "$OPT/current" 2>/dev/null || true); OLD_CURRENT=${OLD_CURRENT##*/}
note() { printf 'NOTE: %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# What this install added to the system (packages, the user, the settings as
# installed), one per line in $RECORD, so that uninstall.sh removes exactly that.
RECORD=$OPT/install.record
record() {
    [ "$DRY_RUN" -eq 0 ] || return 0
    mkdir -p "$OPT"
    grep -qxF "$1" "$RECORD" 2>/dev/null || printf '%s\n' "$1" >> "$RECORD"
}
installed_packages() {
    dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' 2>/dev/null | awk '$1 == "ii" {print $2}' | sort
}
# pip into the venv from binary wheels only (never a compiler); its output
# goes to $pip_log, for the caller to show if it gives up.
pip_log=
pip_install() {
    if [ "$DRY_RUN" -eq 1 ] || [ "$REAL" -eq 0 ]; then
        say "would run: $(show "$VENV/bin/python" -m pip install --disable-pip-version-check --upgrade --only-binary=:all: "$@")"
        return 0
    fi
    pip_log=${pip_log:-$(mktemp)}
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade --only-binary=:all: "$@" >"$pip_log" 2>&1
}
# Has the package index a binary wheel of REQUIREMENT (named NAME) for this
# Python and machine? Only pip's own "no matching distribution" means no: a
# network fault is left for the real install to report. (Asked before
# installing, so the install runs once.) PIP (a command) replaces the venv's
# pip for this question: the tests set it to a stand-in, and then it is asked
# under --root too.
wheel_exists() {
    local pip=("$VENV/bin/python" -m pip)
    if [ -n "${PIP:-}" ]; then
        read -r -a pip <<<"$PIP"
    elif [ "$REAL" -eq 0 ] || [ "$DRY_RUN" -eq 1 ]; then
        return 0
    fi
    local dir answer
    dir=$(mktemp -d)
    answer=$("${pip[@]}" download --disable-pip-version-check --only-binary=:all: --no-deps \
        --dest "$dir" "$1" 2>&1) || true
    rm -rf "$dir"
    ! grep -q "No matching distribution found for $2" <<<"$answer"
}
# Enable the unit without a running systemd: systemctl --root writes the
# links itself; without systemctl, make the WantedBy= links by hand.
enable_offline() {
    local target unit=${1:-$NAME}
    if command -v systemctl >/dev/null 2>&1; then
        file_step systemctl --root="${R:-/}" --quiet enable "$unit.service"
        return
    fi
    while read -r target; do
        file_step install -d -m 0755 "$UNIT_DIR/$target.wants"
        file_step ln -sfn "/etc/systemd/system/$unit.service" "$UNIT_DIR/$target.wants/$unit.service"
    done < <(wanted_by "$SRC/systemd/$unit.service")
}

# What the settings ask for ([web] enabled, [camera] source, [display] interface; else the
# defaults), read once by deploy/wanted.py, as the updater reads them: WEB (1 or 0), CAMERA
# (off, usb, pi, scene, folder), CAMERA_DEVICE (1 where that source opens a device: usb, pi) and
# BUS_MODULE (i2c-dev, spidev, or empty). A config the box cannot read is the box's to report:
# the web view and the camera stay off, and no bus module is loaded.
settings_file() {
    if [ -e "$ETC/config.toml" ]; then echo "$ETC/config.toml"; else echo "$SRC/firmware/default_config.toml"; fi
}
read_settings() {
    local line
    line=$("$PYTHON" "$SRC/deploy/wanted.py" settings "$(settings_file)" 2>/dev/null) || line=
    read -r WEB CAMERA BUS_MODULE <<<"${line:-0 off -}"
    [ "$WEB" = 1 ] || WEB=0
    case $CAMERA in usb|pi) CAMERA_DEVICE=1 ;; scene|folder) CAMERA_DEVICE=0 ;; *) CAMERA=off CAMERA_DEVICE=0 ;; esac
    case $BUS_MODULE in i2c-dev|spidev) ;; *) BUS_MODULE= ;; esac
}

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
read_settings
# A camera's devices are the group video's: the drop-in gives it to the unit (not to the user).
if [ "$CAMERA_DEVICE" -eq 1 ]; then GROUPS_WANTED+=(video); fi

# 1. The user, in the groups that own /dev/gpiochip*, /dev/i2c-* and /dev/spidev*
# (Raspberry Pi OS has all three; plain Debian and Ubuntu may have none: then
# they are made here, and the udev rule of step 4 gives the devices to them).
for group in "${GROUPS_WANTED[@]}"; do
    if group_exists "$group"; then continue; fi
    system_step groupadd --system "$group"
    [ "$REAL" -eq 0 ] || record "group $group"
done
joined=$(IFS=,; echo "${GROUPS_WANTED[*]:0:3}")  # gpio, i2c, spi
if user_exists "$USER_NAME"; then
    say "user $USER_NAME exists"
    system_step usermod --append --groups "$joined" "$USER_NAME"
else
    system_step useradd --system --user-group --no-create-home --home-dir "/var/lib/$NAME" \
        --shell /usr/sbin/nologin --comment "cantstop-box daemon" --groups "$joined" "$USER_NAME"
    [ "$REAL" -eq 0 ] || record "user $USER_NAME"
fi

# 2. The program, in its own virtual environment. --system-site-packages lets
# the distribution's compiled modules serve it; what the distribution lacks
# comes as binary wheels from the package index (never a compiler).
if [ "$REAL" -eq 1 ]; then
    say "System: $(os_name), $("$PYTHON" -c 'import platform; print("Python", platform.python_version(), "on", platform.machine())')"
fi
apt_wanted=()
if [ "$REAL" -eq 0 ] || ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then apt_wanted+=(python3-venv); fi
# The updater checks each bundle's signature with OpenSSH's ssh-keygen (deploy/signing.py).
if [ "$REAL" -eq 1 ] && ! command -v ssh-keygen >/dev/null 2>&1; then apt_wanted+=(openssh-client); fi
have_apt=0
if [ "$REAL" -eq 0 ] || command -v apt-get >/dev/null 2>&1; then have_apt=1; fi
if [ "$have_apt" -eq 1 ] && apt_lists_missing; then
    # A fresh image or chroot: apt knows no package until it fetches its lists.
    say "fetching the package lists (apt-get update)"
    quiet_system_step apt-get update
fi
# Where each native module comes from (platform.sh, NATIVE_MODULES): present, apt or a wheel.
wheels=() present=() asked=()
for entry in "${NATIVE_MODULES[@]}"; do
    if python_has "${entry%%:*}"; then present+=("${entry%%:*}"); else asked+=("${entry#*:}"); fi
done
mapfile -t -O "${#asked[@]}" asked < <(camera_apt_question)
[ "${#asked[@]}" -eq 0 ] || apt_ask "${asked[@]}"  # one question to apt for all of them
for entry in "${NATIVE_MODULES[@]}"; do
    module=${entry%%:*} package=${entry#*:}
    if [[ " ${present[*]} " == *" $module "* ]]; then
        say "$module: already installed"
    elif apt_has "$package"; then
        apt_wanted+=("$package"); say "$module: from the distribution ($package)"
    else
        wheels+=("$module"); say "$module: $(os_name) has no $package; a binary wheel from the package index"
    fi
done
camera_apt
if [ "${#apt_wanted[@]}" -gt 0 ]; then
    [ "$have_apt" -eq 1 ] || fail "no apt-get here: install ${apt_wanted[*]} with this system's package manager, then run this again"
    packages_before=$(installed_packages)
    say "installing ${apt_wanted[*]} with apt-get (a few minutes on a Pi Zero)"
    quiet_system_step env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${apt_wanted[@]}"
    if [ "$REAL" -eq 1 ] && [ "$DRY_RUN" -eq 0 ]; then
        # Remembered so that uninstall.sh removes exactly what this added.
        while read -r package; do record "package $package"; done < <(comm -13 <(printf '%s\n' "$packages_before") <(installed_packages))
    fi
fi
if [ -x "$VENV/bin/python" ]; then
    say "virtual environment $VENV exists: updating it"
else
    [ "$REAL" -eq 0 ] || [ "$DRY_RUN" -eq 1 ] || rm -rf "$RELEASE"  # a half install of this version
    system_step "$PYTHON" -m venv --system-site-packages "$VENV"
fi
# Build from a copy, so no root-owned build/ or *.egg-info lands in the checkout.
if [ "$DRY_RUN" -eq 0 ] && [ "$REAL" -eq 1 ]; then
    build=$(mktemp -d)
    trap 'rm -rf "$build" ${pip_log:+"$pip_log"}' EXIT
    tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' -cf - . | tar -C "$build" -xf -
else
    build=$SRC
fi
extras=(pi) held=()
if [[ " ${wheels[*]} " == *" lgpio "* ]] && ! wheel_exists 'lgpio>=0.2' lgpio; then
    # Debian trixie (Python 3.13): no python3-lgpio, and PyPI's lgpio wheels stop at 3.12.
    # The 'pi' extra asks for the lgpio distribution, which no wheel can give here: its
    # parts come one by one instead.
    extras=()
    if wheel_exists 'adafruit-lgpio>=0.2.2' adafruit-lgpio; then
        # Adafruit's build of the same lgpio module (import lgpio), for Python 3.13 on aarch64:
        # what a Pi 5 needs to read its buttons. None of these needs anything else, and
        # rpi-lgpio (RPi.GPIO's API for an SPI display's pins, pure Python) names the lgpio
        # distribution, which pip would look for: hence --no-deps.
        say "lgpio: PyPI's lgpio has no wheel for this Python; Adafruit's build of it (adafruit-lgpio), a binary wheel"
        pi_parts=("adafruit-lgpio>=0.2.2" "rpi-lgpio>=0.6")
        if [[ " ${wheels[*]} " == *" spidev "* ]]; then pi_parts+=("spidev>=3.6"); fi
        if ! pip_install --no-deps "${pi_parts[@]}"; then
            cat "$pip_log" >&2
            fail "pip could not install ${pi_parts[*]} from binary wheels"
        fi
    else
        note "no lgpio for this Python on $(uname -m): $(os_name) has no python3-lgpio and PyPI no wheel for it."
        note "  On a Pi Zero, 1, 2, 3 or 4 the buttons use gpiozero's own backend (/dev/gpiomem) instead."
        note "  A Pi 5 cannot read its buttons without lgpio: install python3-lgpio"
        note "  (Raspberry Pi OS has it), then run this again."
    fi
fi
if [ "$WEB" -eq 1 ]; then
    # The web view's extra (Starlette, uvicorn: pure Python, the same wheel on every Pi).
    extras+=(web)
fi
camera_extra
extra=
if [ "${#extras[@]}" -gt 0 ]; then extra="[$(IFS=,; echo "${extras[*]}")]"; fi
if ! pip_install "${build}${extra}" "${held[@]}"; then
    cat "$pip_log" >&2
    fail "pip found no binary wheel for part of the program on this Python and machine${wheels[0]:+ (it looked for: ${wheels[*]})}; install the distribution's python3- package for it, then run this again"
fi
release_files "$RELEASE"
make_current "$VERSION"
install_updater
trust_release_key
file_step install -d -m 0755 "$OPT/docs"
for doc in building.md wiring.png web.md; do
    if [ -f "$SRC/docs/$doc" ]; then file_step install -m 0644 "$SRC/docs/$doc" "$OPT/docs/$doc"; fi
done

# 3. The settings: installed once, then they are yours.
if [ -e "$ETC/config.toml" ]; then
    say "kept your settings in $ETC/config.toml"
else
    file_step install -d -m 0755 "$ETC"
    file_step install -m 0644 "$SRC/firmware/default_config.toml" "$ETC/config.toml"
    [ "$DRY_RUN" -eq 1 ] || say "installed the default settings as $ETC/config.toml"
    record "config $(sha256sum < "$SRC/firmware/default_config.toml" | cut -d' ' -f1)"
fi

# 4. The service.
file_step install -d -m 0755 "$UNIT_DIR"
file_step install -m 0644 "$SRC/systemd/$NAME.service" "$UNIT_DIR/$NAME.service"
[ "$DRY_RUN" -eq 1 ] || say "installed the service as $UNIT_DIR/$NAME.service"
if [ -e "$DROPIN_DIR/groups.conf" ]; then
    # An older install's stand-in for a missing group: the groups exist now (step 1).
    file_step rm -f "$DROPIN_DIR/groups.conf"
    if [ "$DRY_RUN" -eq 0 ]; then rmdir "$DROPIN_DIR" 2>/dev/null || true; fi
fi
camera_drop_in
# The command on root's PATH, so `sudo cantstop-box players add Ann` works as the docs show it
# (a file of somebody else's there is left alone, with a note).
BIN_LINK=$R/usr/local/bin/$NAME
if [ -L "$BIN_LINK" ] || [ ! -e "$BIN_LINK" ]; then
    file_step install -d -m 0755 "$R/usr/local/bin"
    file_step ln -sfn "/opt/$NAME/venv/bin/$NAME" "$BIN_LINK"
else
    say "NOTE: $BIN_LINK is another program's: run the box's commands as /opt/$NAME/venv/bin/$NAME"
fi
# The devices' groups: a udev rule of the box's own, applied now where udev runs.
file_step install -d -m 0755 "$UDEV_DIR"
file_step install -m 0644 "$SRC/deploy/$UDEV_RULE" "$UDEV_DIR/$UDEV_RULE"
if systemd_running; then
    system_step udevadm control --reload
    # (udevadm ANDs a subsystem filter with a name filter: gpiomem, whose subsystem varies, on its own.)
    system_step udevadm trigger --action=change --subsystem-match=gpio --subsystem-match=i2c-dev --subsystem-match=spidev
    system_step udevadm trigger --action=change --sysname-match='gpiomem*'
else
    say "the udev rule $UDEV_RULE gives the GPIO, I2C and SPI devices to their groups from the next boot"
fi
if systemd_running; then
    system_step systemctl daemon-reload
    system_step systemctl enable "$RECOVER_UNIT.service" "$NAME.service"
else
    # A chroot, an image being built, or --root: no systemd to talk to.
    enable_offline "$RECOVER_UNIT"
    enable_offline
fi

# 4b. The live web view, its own service, only when [web] enabled = true.
WEB_UNIT=$UNIT_DIR/$WEB_NAME.service
if [ "$WEB" -eq 1 ]; then
    file_step install -m 0644 "$SRC/systemd/$WEB_NAME.service" "$WEB_UNIT"
    [ "$DRY_RUN" -eq 1 ] || say "installed the web view as $WEB_UNIT ([web] enabled = true)"
    if systemd_running; then
        system_step systemctl daemon-reload
        system_step systemctl enable "$WEB_NAME.service"
    else
        enable_offline "$WEB_NAME"
    fi
elif [ -e "$WEB_UNIT" ]; then
    remove_unit "$WEB_NAME"  # [web] enabled is false now: the web view stops and goes
    [ "$DRY_RUN" -eq 1 ] || say "removed the web view's service ([web] enabled is not true)"
fi

# 4c. The box's network written down for its screen (the box itself keeps no network): the
# name, the addresses, whether the Wi-Fi worked, in /run/cantstop-box-network/network.json.
# Its own small program (the system's python3) and its own unit, on every box.
NET_UNIT=$UNIT_DIR/$NET_NAME.service
file_step install -d -m 0755 "$OPT/network"
file_step install -m 0755 "$SRC/deploy/netstatus.py" "$OPT/network/netstatus.py"
file_step install -m 0644 "$SRC/systemd/$NET_NAME.service" "$NET_UNIT"
[ "$DRY_RUN" -eq 1 ] || say "installed the network status for the box's screen as $NET_UNIT"
if systemd_running; then
    system_step systemctl daemon-reload
    system_step systemctl enable "$NET_NAME.service"  # (re)started in step 7
else
    enable_offline "$NET_NAME"
fi

# 5. The display's bus (I2C at 400 kHz, or SPI, as the settings say) on in the
# Pi's boot config, where there is one: deploy/bootconfig.py, which keeps a
# backup and changes nothing the second time. A change takes a reboot.
boot_config=$R/boot/firmware/config.txt
[ -e "$boot_config" ] || [ ! -e "$R/boot/config.txt" ] || boot_config=$R/boot/config.txt
shown_config=${boot_config#"$R"}
settings=$ETC/config.toml
[ -e "$settings" ] || settings=$SRC/firmware/default_config.toml   # a dry run installs none
reboot_due=0
if [ -e "$boot_config" ]; then
    bus_status=0 dry=()
    [ "$DRY_RUN" -eq 0 ] || dry=(--dry-run)
    # Its lines name the boot config as the Pi sees it (without the --root prefix).
    "$PYTHON" "$SRC/deploy/bootconfig.py" "${dry[@]}" "$settings" "$boot_config" | sed "s|^$R/|/|" || bus_status=$?
    case $bus_status in
        0) say "the display's bus is already on in $shown_config" ;;
        10) reboot_due=1 ;;
        *) note "the display's bus was left as it is in $shown_config (see the line above)" ;;
    esac
elif [ ! -e "$R/dev/i2c-1" ] && [ ! -e "$R/dev/spidev0.0" ]; then
    note "no /boot/firmware/config.txt or /boot/config.txt here, and no /dev/i2c-1: turn the display's bus on"
    note "  (on a Raspberry Pi: sudo raspi-config nonint do_i2c 0), then reboot."
fi

# 6. The display's bus module at every boot: i2c-dev (what makes /dev/i2c-1) or spidev,
# as the settings say. raspi-config lists it in /etc/modules when it turns the bus on;
# step 5 turns the bus on without raspi-config, so the module is listed here, in a
# file of the box's own, and loaded now where this system runs (no reboot for it).
MODULES_CONF=$R/etc/modules-load.d/$NAME.conf
bus_module=$BUS_MODULE
if [ -z "$bus_module" ]; then
    note "no bus module loaded at boot: the settings do not say \"i2c\" or \"spi\" ([display] interface)"
fi
mapfile -t camera_mods < <(camera_modules)
boot_modules=(${bus_module:+"$bus_module"} "${camera_mods[@]}")
if [ "${#boot_modules[@]}" -gt 0 ]; then
    shown_modules=$(IFS=,; echo "${boot_modules[*]}"); shown_modules=${shown_modules//,/, }
    are=is; [ "${#boot_modules[@]}" -eq 1 ] || are=are
    modules_text="# The Can't Stop box's display bus ([display] interface), from deploy/install.sh${bus_module:+
$bus_module}"
    if [ "${#camera_mods[@]}" -gt 0 ]; then
        modules_text+="
# and its camera's devices ([camera] source = \"$CAMERA\"), known before the box starts
$(printf '%s\n' "${camera_mods[@]}")"
    fi
    if [ -e "$MODULES_CONF" ] && [ "$(cat "$MODULES_CONF")" = "$modules_text" ]; then
        say "$shown_modules $are loaded at boot already (${MODULES_CONF#"$R"})"
    elif [ "$DRY_RUN" -eq 1 ]; then
        say "would write $MODULES_CONF: $shown_modules, loaded at every boot"
    else
        install -d -m 0755 "$R/etc/modules-load.d"
        printf '%s\n' "$modules_text" > "$MODULES_CONF.new"
        chmod 0644 "$MODULES_CONF.new"
        mv -f "$MODULES_CONF.new" "$MODULES_CONF"
        say "$shown_modules $are loaded at every boot (${MODULES_CONF#"$R"})"
    fi
    record "modules-load ${MODULES_CONF#"$R"}"
    if systemd_running; then
        for module in "${boot_modules[@]}"; do
            system_step modprobe "$module" || note "modprobe $module failed: it loads at the next boot"
        done
    fi
fi

# 7. Start (or restart) the box, last: its display's bus is on and its module loaded by now.
# Where the bus waits for a reboot (step 5 just turned it on), it starts at that boot: started
# now, it would wait for a bus that is not there. A start that fails is said in one line and
# the install still ends whole (every file in place), with status 1.
started=0 start_failed=0
if systemd_running && [ "$reboot_due" -eq 0 ]; then
    if system_step systemctl restart "$NAME.service"; then
        started=1
    else
        start_failed=1
        note "$NAME did not start: see journalctl -u $NAME -b (everything else is installed)"
    fi
    if [ "$WEB" -eq 1 ]; then
        system_step systemctl restart "$WEB_NAME.service" ||
            { start_failed=1; note "$WEB_NAME did not start: see journalctl -u $WEB_NAME -b"; }
    fi
fi
# The network status needs no bus: it starts now wherever systemd runs, a reboot due or not.
if systemd_running; then
    system_step systemctl restart "$NET_NAME.service" ||
        { start_failed=1; note "$NET_NAME did not start: see journalctl -u $NET_NAME -b"; }
fi

if [ "$reboot_due" -eq 1 ] && [ "$DRY_RUN" -eq 1 ]; then
    note "after that change the Pi would need a reboot"
elif [ "$reboot_due" -eq 1 ]; then
    note "the display's bus changed in $shown_config: reboot for it to take effect (sudo reboot); $NAME starts then"
fi
if [ "$start_failed" -eq 1 ]; then
    exit 1
elif [ "$started" -eq 1 ]; then
    say "Done. Status: systemctl status $NAME    Log: journalctl -u $NAME -f"
elif systemd_running; then
    say "Done. $NAME is enabled and starts when the Pi reboots."
else
    say "Done. systemd is not running here (a chroot or an image being built): $NAME is enabled and starts on the next boot."
fi
