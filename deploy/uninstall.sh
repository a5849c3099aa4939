#!/usr/bin/env bash
# Remove the Can't Stop box's service and program:
#
#     sudo deploy/uninstall.sh            # keeps the game history and your settings
#     sudo deploy/uninstall.sh --purge    # also deletes them, and the 'cantstop' user
#     deploy/uninstall.sh --dry-run       # print what it would do, change nothing
#
# Kept unless --purge: /var/lib/cantstop-box (every game played) and
# /etc/cantstop-box (settings). --root DIR (or ROOT=DIR) works under DIR
# and only prints the system commands (systemctl, userdel): used by the tests.
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
        -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
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

# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$(dirname "$0")/steps.sh"

if [ "$REAL" -eq 1 ] && [ "$DRY_RUN" -eq 0 ] && [ "$EUID" -ne 0 ]; then
    echo "uninstall.sh: needs root: run 'sudo deploy/uninstall.sh' (or add --dry-run)" >&2
    exit 1
fi
[ "$DRY_RUN" -eq 1 ] && say "Dry run: nothing is changed."

if [ -e "$UNIT" ] || [ -e "$DROPIN_DIR" ]; then
    # The unit may already be stopped or disabled: that is fine.
    system_step systemctl disable --now "$NAME.service" || true
    file_step rm -f "$UNIT"
    file_step rm -rf "$DROPIN_DIR"
    system_step systemctl daemon-reload
    system_step systemctl reset-failed "$NAME.service" || true
else
    say "no service installed at $UNIT"
fi
if [ -e "$OPT" ]; then
    file_step rm -rf "$OPT"
else
    say "no program installed at $OPT"
fi

done_word=Removed; [ "$DRY_RUN" -eq 0 ] || done_word="Would remove"
if [ "$PURGE" -eq 1 ]; then
    for dir in "$STATE" "$ETC"; do
        if [ -e "$dir" ]; then file_step rm -rf "$dir"; fi
    done
    if user_exists "$USER_NAME"; then system_step userdel "$USER_NAME"; fi
    say "$done_word $NAME, its game history and its settings."
else
    [ ! -e "$STATE" ] || say "kept the game history in $STATE"
    [ ! -e "$ETC" ] || say "kept your settings in $ETC"
    say "$done_word $NAME (run with --purge to delete the game history and settings too)."
fi
