"""The web page's own words (the box's words come from :mod:`firmware.words`), marked for translation.

The page says what the box says wherever the box has words for it (the
instruction on its screen, the names of the colours, "round 3", a bust);
these are only the words around them that a 0.96-inch screen never needed.
Each is written here once, in English, and marked as the box's tables are
(``N_``; ``NP_`` with a context where the box says the same English word
another way): ``make messages`` takes them into the box's catalogues, where
their Japanese and Korean are (``firmware/locale/*/LC_MESSAGES/cantstop.po``,
docs/translating.md), and :func:`in_language` looks them up there.
"""

from __future__ import annotations

import functools
import types

from firmware import i18n
from firmware.i18n import N_, NP_

#: The page's sentences by key, in English. A sentence the box shows too (without a context) is one entry of the
#: catalogue with the box's, and says the same in every language.
SENTENCES = {
    # TRANSLATORS: the game's name, as players of the language know it (the page's header and title).
    "title": N_("Can't Stop"),
    # TRANSLATORS: the web page's three links: the game being played, the past games, the statistics.
    "live": N_("Live game"),
    "history": N_("History"),
    # TRANSLATORS: the web page of each person's statistics, and its link.
    "people": NP_("web page", "Statistics"),
    # TRANSLATORS: badges at the top of the web page: whether the box is running.
    "box_on": N_("Box on"),
    "box_off": N_("The box is off: the game is saved"),
    "box_quiet": N_("No press for a while"),
    # TRANSLATORS: the badge when the page cannot tell whether the box runs: the box itself, not a seat it plays.
    "box_unknown": NP_("web page", "Box"),
    "over": N_("Game over"),
    "damaged": N_("This game is damaged"),
    "no_game": N_("No game yet: start one on the box."),
    "no_store": N_("No saved games yet."),
    "dice": N_("Dice"),
    # TRANSLATORS: a tag on the pairing of the dice that was chosen.
    "chosen": N_("chosen"),
    # TRANSLATORS: a pairing of the dice that moves nothing.
    "illegal": N_("no move"),
    # TRANSLATORS: before the chance, as in "Bust if rolled again: 23.9%".
    "bust": N_("Bust if rolled again"),
    # TRANSLATORS: a heading over what the box's screen shows, in its own words.
    "screen": N_("The box says"),
    # TRANSLATORS: after a win: each player's turns, busts and best turn.
    "recap": NP_("web page", "Recap"),
    "player": N_("Player"),
    "turns": N_("Turns"),
    "busts": N_("Busts"),
    "best": N_("Best turn"),
    # TRANSLATORS: the history's columns: the game's number, when it started, who played it, ...
    "game": N_("Game"),
    "started": N_("Started"),
    # TRANSLATORS: a column of the history: the names of who played the game (not how many).
    "players": NP_("web page", "Players"),
    "rounds": N_("Rounds"),
    "winner": N_("Winner"),
    "duration": N_("Duration"),
    "status": N_("Status"),
    # TRANSLATORS: a game's status in the history.
    "status_open": N_("playing"),
    "status_finished": N_("finished"),
    "status_abandoned": N_("unfinished"),
    "status_damaged": N_("damaged"),
    # TRANSLATORS: the history's links to its newer and older pages.
    "newer": N_("Newer"),
    "older": N_("Older"),
    # TRANSLATORS: stepping through a past game, as in "Step 12/80".
    "step": N_("Step"),
    # TRANSLATORS: a past game before its first roll.
    "start": NP_("replay", "Start"),
    # TRANSLATORS: links stepping through a past game: to its start, one step back, one on, to its end.
    "first": NP_("replay", "First"),
    "prev": NP_("replay", "Back"),
    "next": NP_("replay", "Next"),
    "end": NP_("replay", "Last"),
    # TRANSLATORS: a link to the game's record, a file (keep "JSON").
    "record": N_("Game record (JSON)"),
    "games": N_("Games"),
    "no_people": N_("No finished games yet."),
    "counting": N_("Still adding up the games: {done} of {total} so far (reload in a moment)."),
    # TRANSLATORS: {n} is a number of games of the history page shown.
    "checking": N_("{n} of these games are still being checked for damage (reload in a moment)."),
    "not_found": N_("Not found"),
    "not_found_text": N_("There is no such page or game."),
    # TRANSLATORS: before the columns a player has claimed ("claimed 3 7"), or before the player ("12: claimed Ann").
    "claimed": N_("claimed"),
    # TRANSLATORS: the board read aloud, a column a line: before the runner's square ("7: Ann 3, runner 4").
    "runner": N_("runner"),
    # TRANSLATORS: the page lost its connection to the box and tries again.
    "reconnecting": N_("Reconnecting…"),
    "language": N_("Language"),
    # TRANSLATORS: the heading over the last turns, newest first.
    "log": N_("What just happened"),
    # TRANSLATORS: {dice} like "6 2 6 5"; {columns} the columns whose runners were lost, like "3, 9".
    "log_bust": N_("{name} rolled {dice}: bust, lost {columns}"),
    "log_bust_none": N_("{name} rolled {dice}: bust"),
    # TRANSLATORS: {steps} where the runners went, each as "{column} to {step}", listed.
    "log_stop": N_("{name} stopped: {steps}"),
    # TRANSLATORS: follows "{name} stopped: {steps}" when the stop claimed columns.
    "log_claimed": N_("; claimed {columns}"),
    "log_now": N_("{name}, this turn: {steps}"),
    "log_rolled": N_("{name} rolled {dice}"),
    # TRANSLATORS: a runner in column {column} on square {step} (1 = bottom), one item of {steps}.
    "log_to": N_("{column} to {step}"),
    "wins": N_("{name} wins!"),
    # TRANSLATORS: a turn's best: the squares climbed.
    "best_unit": N_("{n} squares"),
    "bust_now": N_("Bust: the runners come off"),
    # TRANSLATORS: a tag beside the player who just bust.
    "bust_short": NP_("web page", "bust"),
    # TRANSLATORS: a pairing whose two sums cannot both be taken: the two columns the box asks between.
    "pick": N_("{a} or {b}"),
    "pick_ask": N_("the box asks which"),
    "picks": N_("{name} picks {a} or {b} on the box"),
    # TRANSLATORS: {squares} where the markers go, like "5:3  9:2".
    "stopped_to": N_("{name} stopped: markers to {squares}, then ROLL"),
    "claimed_to": N_("{name} claimed {columns}: markers to {squares}, then ROLL"),
    # TRANSLATORS: {takes} is one or more "take {colours} off {column}", listed.
    "claimed_take": N_("{name} claimed {columns}: {takes}, then ROLL"),
    # TRANSLATORS: {colours} the colours of the markers that come off, like "Blue, Green".
    "take_off": N_("take {colours} off {column}"),
    # TRANSLATORS: a tag beside the player whose turn it is.
    "now": N_("now"),
    # TRANSLATORS: explains the robot mark after a seat's name; keep the 🤖 first.
    "bot_legend": N_("🤖 the box plays this seat"),
    # TRANSLATORS: the board read aloud, for a screen reader: its name.
    "positions": N_("Positions"),
    # TRANSLATORS: the board read aloud: a column with no piece on it.
    "nobody": N_("empty"),
    # TRANSLATORS: the heading over what the camera above the board last saw (the box's own word for it).
    "camera": N_("Camera"),
    # TRANSLATORS: the camera's last photo of the real board, and the words a screen reader says for it.
    "camera_photo": N_("The camera's last photo of the board"),
    # TRANSLATORS: the board straightened out of the photo, with rings on the pieces the camera checked.
    "camera_read": N_("The board as the camera read it"),
    # TRANSLATORS: under the board as the camera read it: what each colour of ring means.
    "camera_legend": N_("Green ring: a piece where the game has it. Red: a piece that is wrong, or where it is "
                        "instead. Yellow: the camera could not tell."),
    # TRANSLATORS: {time} is when the camera last read the board, like "14:03:05".
    "camera_when": N_("Read at {time}"),
    "camera_nothing": N_("The camera has not read the board yet."),
}


@functools.cache
def in_language(lang: str) -> types.MappingProxyType:
    """The page's sentences by key in ``lang`` ("en", "ja", "ko"), from the box's catalogue; made once."""
    return types.MappingProxyType(i18n.translated(SENTENCES, lang))


def choose(query: str | None, accept: str | None, box: str) -> str:
    """The page's language: ``?lang=``, else the browser's first one the box speaks, else the box's."""
    if query in i18n.LANGUAGES:
        return query
    for lang in accepted(accept or ""):
        if lang in i18n.LANGUAGES:
            return lang
    return box


def accepted(header: str) -> list[str]:
    """An Accept-Language header's primary languages, most wanted first ("ko-KR,ko;q=0.9,en;q=0.8")."""
    found = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().split("-")[0].lower()
        if lang and q > 0:
            found.append((-q, i, lang))
    return [lang for _, _, lang in sorted(found)]
