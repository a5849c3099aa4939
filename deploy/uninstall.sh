#!/usr/bin/env bash
# Remove the Can't Stop box's service and program:
#
#     sudo deploy/uninstall.sh            # keeps the game history (and settings you changed)
#     sudo deploy/uninstall.sh --purge    # also deletes them
#     deploy/uninstall.sh --dry-run       # print what it would do, change nothing
#
# Removes what install.sh added, as listed in /opt/cantstop-box/install.record:
# the services, the udev rule, the bus module's modules-load.d file, the program,
# the packages it installed, the 'cantstop' user and the groups it made, and the
# settings if you never changed them. Kept unless --purge: /var/lib/cantstop-box (every game
# played) and settings you edited.
# --root DIR (or ROOT=DIR) works under DIR and only prints the system commands
# (systemctl, dpkg, userdel): used by the tests.
set -euo pipefail

usage="usage: sudo deploy/uninstall.sh [--purge] [--dry-run] [--root DIR]"
ROOT=${ROOT:-/}
DRY_RUN=0
PURGE=0
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run|-n) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --root) [ $# -ge 2 ] || { echo "uninstall.sh: --root needs a directory; $usage" >&2; exit 2; }
                ROOT=$2; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "uninstall.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
    esac
    shift
done

NAME=cantstop-box
USER_NAME=cantstop
R=${ROOT%/}
[ -z "$R" ] || R=$(cd "$R" 2>/dev/null && pwd) || { echo "uninstall.sh: --root $ROOT is not a directory" >&2; exit 2; }
REAL=0; [ -z "$R" ] && REAL=1
UNIT=$R/etc/systemd/system/$NAME.service
DROPIN_DIR=$R/etc/systemd/system/$NAME.service.d
OPT=$R/opt/$NAME
STATE=$R/var/lib/$NAME
ETC=$R/etc/$NAME
UNIT_DIR=$R/etc/systemd/system
UDEV_RULE=$R/etc/udev/rules.d/60-$NAME.rules

# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$(dirname "$0")/steps.sh"
# shellcheck source-path=SCRIPTDIR source=platform.sh
. "$(dirname "$0")/platform.sh"

# What install.sh added ("package P", "user U", "config SHA256"), read before $OPT goes.
RECORD=$OPT/install.record
recorded() { [ ! -e "$RECORD" ] || sed -n "s/^$1 //p" "$RECORD"; }
mapfile -t added_packages < <(recorded package)
added_user=$(recorded user)
mapfile -t added_groups < <(recorded group)
mapfile -t added_modules_conf < <(recorded modules-load)
config_sum=$(recorded config)

# The service's links without a running systemd (a chroot, an image, --root).
disable_offline() {
    if command -v systemctl >/dev/null 2>&1 && [ -e "$UNIT" ]; then
        file_step systemctl --root="${R:-/}" --quiet disable "$NAME.service" || true
    fi
    local link
    for link in "$UNIT_DIR"/*.wants/"$NAME.service"; do
        if [ -L "$link" ]; then file_step rm -f "$link"; fi
    done
}

if [ "$REAL" -eq 1 ] && [ "$DRY_RUN" -eq 0 ] && [ "$EUID" -ne 0 ]; then
    echo "uninstall.sh: needs root: run 'sudo deploy/uninstall.sh' (or add --dry-run)" >&2
    exit 1
fi
[ "$DRY_RUN" -eq 1 ] && say "Dry run: nothing is changed."

if [ -e "$UNIT" ] || [ -e "$DROPIN_DIR" ]; then
    if systemd_running; then
        # The unit may already be stopped or disabled: that is fine.
        system_step systemctl disable --now "$NAME.service" || true
    fi
    disable_offline
    file_step rm -f "$UNIT"
    file_step rm -rf "$DROPIN_DIR"
    if systemd_running; then
        system_step systemctl daemon-reload
        system_step systemctl reset-failed "$NAME.service" || true
    fi
else
    say "no service installed at $UNIT"
fi
# The web view's service, when install.sh put it there ([web] enabled = true).
WEB_UNIT=$UNIT_DIR/$NAME-web.service
if [ -e "$WEB_UNIT" ]; then
    remove_unit "$NAME-web"
fi
# The network status for the box's screen (its program goes with $OPT below).
if [ -e "$UNIT_DIR/$NAME-network.service" ]; then
    remove_unit "$NAME-network"
fi
# The updater's boot-time step and its command (docs/update.md).
if [ -e "$UNIT_DIR/$NAME-update-recover.service" ]; then
    remove_unit "$NAME-update-recover"
fi
UPDATE_LINK=$R/usr/local/sbin/$NAME-update
if [ -L "$UPDATE_LINK" ] && [ "$(readlink "$UPDATE_LINK")" = "/opt/$NAME/updater/update.py" ]; then
    file_step rm -f "$UPDATE_LINK"
fi
BIN_LINK=$R/usr/local/bin/$NAME
if [ -L "$BIN_LINK" ] && [ "$(readlink "$BIN_LINK")" = "/opt/$NAME/venv/bin/$NAME" ]; then
    file_step rm -f "$BIN_LINK"  # only the link install.sh made
fi
if [ -e "$UDEV_RULE" ]; then
    # The devices go back to the system's own rules (udev applies them on the next event or boot).
    file_step rm -f "$UDEV_RULE"
    if systemd_running; then system_step udevadm control --reload || true; fi
fi
# The display's bus module, loaded at boot by the install's own file (it stays loaded until the next boot).
for conf in "${added_modules_conf[@]}"; do
    if [ -e "$R$conf" ]; then file_step rm -f "$R$conf"; fi
done
if [ -e "$OPT" ]; then
    file_step rm -rf "$OPT"
else
    say "no program installed at $OPT"
fi
# The settings as installed and never changed are the installer's, not yours.
if [ "$PURGE" -eq 0 ] && [ -n "$config_sum" ] && [ -e "$ETC/config.toml" ] &&
        [ "$(sha256sum < "$ETC/config.toml" | cut -d' ' -f1)" = "$config_sum" ]; then
    file_step rm -f "$ETC/config.toml"
    if [ "$DRY_RUN" -eq 0 ]; then rmdir "$ETC" 2>/dev/null || true; fi
fi
if [ "${#added_packages[@]}" -gt 0 ]; then
    say "removing the packages the install added: ${added_packages[*]}"
    # dpkg refuses to remove one that other software has come to need: that one stays.
    quiet_system_step dpkg --purge "${added_packages[@]}" || say "NOTE: some stay installed: other software needs them"
fi

done_word=Removed; [ "$DRY_RUN" -eq 0 ] || done_word="Would remove"
if [ "$PURGE" -eq 1 ]; then
    for dir in "$STATE" "$ETC"; do
        if [ -e "$dir" ]; then file_step rm -rf "$dir"; fi
    done
    say "$done_word $NAME, its game history and its settings."
else
    [ ! -e "$STATE" ] || say "kept the game history in $STATE"
    [ ! -e "$ETC" ] || say "kept your settings in $ETC"
    say "$done_word $NAME (run with --purge to delete the game history and settings too)."
fi
if { [ -n "$added_user" ] || [ "$PURGE" -eq 1 ]; } && user_exists "$USER_NAME"; then
    system_step userdel "$USER_NAME"
fi
# The device groups this install made (plain Debian, Ubuntu), not ones the system had.
for group in "${added_groups[@]}"; do
    system_step groupdel "$group" || say "NOTE: group $group stays (groupdel refused)"
done
