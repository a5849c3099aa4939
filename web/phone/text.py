"""The phone pages' own words, marked for translation as the web page's are (:mod:`web.text`).

What the box itself says about a change ("Ann added from a phone") and its
refusals come from :mod:`firmware.words` and the roster, as on the box.
Each sentence here is written once in English; its Japanese and Korean are
in the box's catalogues (docs/translating.md), looked up by :func:`in_language`.
"""

from __future__ import annotations

import functools
import types

from firmware import i18n
from firmware.i18n import N_, NP_

#: The phone pages' sentences by key, in English.
SENTENCES = {
    "pair": N_("Pair this phone"),
    # TRANSLATORS: "Phone" is the box's menu item of that name: say it as the box's menu does.
    "pair_intro": N_("Open the box's menu, Phone: it shows a QR code and six digits. Scan the code, or type the "
                     "digits here."),
    "code": N_("Code (6 digits)"),
    # TRANSLATORS: the button that pairs this phone with the box.
    "pair_button": N_("Pair"),
    "paired": N_("This phone is paired: it can change the names and the next game."),
    "wrong_code": N_("That code is wrong or too old: the box's Phone menu shows a fresh one."),
    "too_many": N_("Too many wrong codes: scan the QR code on the box's Phone screen, or wait a minute and try "
                   "again."),
    # TRANSLATORS: "Pair" is the button of that name: say it as the button does.
    "pair_scanned": N_("You scanned the box's QR code: tap Pair to pair this phone."),
    "not_paired": N_("Only a phone paired by the box's screen can change this."),
    "pair_first": N_("Pair this phone first"),
    "form_old": N_("This page is out of date: it was opened before the phone was paired again. Open it again."),
    "other_site": N_("A form from another site is refused."),
    "too_big": N_("That is too much to send (16 KB at most)."),
    # TRANSLATORS: the page of the names a seat can take, and its link.
    "players": N_("Names"),
    "players_intro": N_("The names a seat can take on the box's new-game screen."),
    "add": N_("Add"),
    "new_name": N_("New name"),
    "rename": N_("Rename"),
    "remove": N_("Remove"),
    "no_names": N_("No names yet."),
    # TRANSLATORS: the page that sets up the next game, and its link.
    "setup": N_("Next game"),
    "setup_intro": N_("Sent to the box's new-game screen; ROLL on the box starts it."),
    # TRANSLATORS: {n} is 1 to 4.
    "seat": N_("Seat {n}"),
    # TRANSLATORS: who plays a seat: nobody, a person or the box.
    "plays": N_("Who plays"),
    "nobody": N_("nobody"),
    "person": N_("a person"),
    "box": N_("the box"),
    "colour": N_("Colour"),
    "name": N_("Name"),
    # TRANSLATORS: a seat with no name: the box calls it by its colour.
    "no_name": N_("(by colour)"),
    # TRANSLATORS: which seat plays first.
    "first": NP_("phone page", "Starts"),
    "win": N_("Columns to win"),
    # TRANSLATORS: the speedy variant, a box to tick in the next game's form.
    "speedy": NP_("phone page", "Speedy"),
    "risky": N_("Risky"),
    "language": N_("Language"),
    "send": N_("Send to the box"),
    "send_hint": N_("The game starts when someone presses ROLL on the box."),
    # TRANSLATORS: {said} is what the box said about the change, {hint} the sentence "The game starts when ...".
    "sent": N_("{said}. {hint}"),
    "stale": N_("Changed by another phone (or on the box) since this form was opened: here it is as it is now. "
                "Change it again, then send."),
    "box_off": N_("The box is off: only the names can change now."),
    "box_off_names": N_("The box is off: the name is kept and the box offers it when it starts."),
    "settings": N_("Settings"),
    "settings_intro": N_("Safe to change while a game is played; the box keeps them across a restart."),
    # TRANSLATORS: before a choice of "never" or a number of minutes.
    "dim": N_("Dim the screen after"),
    "never": N_("never"),
    "minutes": N_("{n} min"),
    "sound": N_("Sound"),
    "lamps": N_("Lamps"),
    # TRANSLATORS: the sound or the lamps, turned on or off.
    "on": NP_("phone page", "on"),
    "off": NP_("phone page", "off"),
    # TRANSLATORS: a setting left as the box has it now.
    "as_now": N_("as it is"),
    "save": N_("Save on the box"),
    # TRANSLATORS: the page that sets the camera over the board up, and its link (the box's own word for it).
    "camera": N_("Camera"),
    # TRANSLATORS: the corner tags are the camera's four printed squares on the board's corners, never markers.
    "camera_intro": N_("The camera learns the board from a photo of it empty: take every piece off the board, "
                       "leave the corner tags on its four corners, then photograph it. The box finds the board's "
                       "spaces on the photo."),
    "camera_photo": N_("Photograph the empty board"),
    "camera_waiting": N_("Waiting for the new photo: do not touch the board…"),
    "camera_late": N_("No new photo came: the box's screen says why. Try again once it is seen to."),
    "camera_none": N_("No photo of the empty board yet: photograph it first."),
    "camera_fitted": N_("The rings are the spaces the box found on the photo. Does each sit on a space of the board?"),
    "camera_not_found": N_("The box did not find the board's spaces on this photo: place the columns by hand, or "
                           "photograph the board again."),
    "camera_photo_alt": N_("The empty board, as the camera photographed it"),
    # TRANSLATORS: a button: the spaces the box found on the photo are right.
    "camera_ok": N_("Looks right"),
    "camera_kept": N_("Nothing more to send: the box keeps these spaces already."),
    "camera_by_hand": N_("Place the columns by hand"),
    "camera_needs_js": N_("Placing the columns by hand needs JavaScript."),
    # TRANSLATORS: guiding the taps on the photo, column by column: the lowest space of column {column} (2 to 12).
    "camera_tap_bottom": N_("Tap the bottom space of column {column}"),
    # TRANSLATORS: the highest space of column {column}, the one a claim needs.
    "camera_tap_top": N_("Tap the top space of column {column}"),
    "camera_tap_done": N_("Every column is placed: send them to the box."),
    "camera_undo": N_("Undo the last tap"),
    "camera_send": N_("Send the columns to the box"),
}


@functools.cache
def in_language(lang: str) -> types.MappingProxyType:
    """The phone pages' sentences by key in ``lang`` ("en", "ja", "ko"), from the box's catalogue; made once."""
    return types.MappingProxyType(i18n.translated(SENTENCES, lang))
