"""The phone pages' HTML: pairing, the names, the next game, the settings, the camera (its body: :mod:`.camera`).
Every text a user typed goes through :func:`e`; ``camera=True`` on a box with a camera (its page in the links)."""

from __future__ import annotations

from firmware import i18n, words
from firmware.table import phones

from .. import pages
from ..board import e
from .camera import camera_body
from .text import in_language

#: The pages' policy: the site's, but its own forms may be posted (to this box only).
CSP = pages.CSP.replace("form-action 'none'", "form-action 'self'")
HEAD = '<link rel="stylesheet" href="/static/phone.css">'
SEATS = 4


def _nav(lang: str, here: str, camera: bool = False) -> str:
    t = in_language(lang)
    links = (("players", "/players"), ("setup", "/setup"), ("settings", "/settings"),
             *((("camera", "/camera"),) if camera else ()), ("pair", "/pair"))
    return '<nav class="phone">' + "".join(
        f'<a href="{href}"' + (' aria-current="page"' if key == here else "") + f">{e(t[key])}</a>"
        for key, href in links) + "</nav>"


def _note(text: str | None, ok: bool) -> str:
    if not text:
        return ""
    return f'<p class="{"said" if ok else "refusal"}" id="note" role="status">{e(text)}</p>'


def page(lang: str, here: str, title: str, body: str, note: str | None = None, ok: bool = True, *,
         camera: bool = False, head: str = "", script: str | None = None) -> str:
    return pages.layout(lang, title, f'{_nav(lang, here, camera)}<h1>{e(title)}</h1>{_note(note, ok)}{body}',
                        path=f"/{here}", head=HEAD + head, script=script)


def _hidden(csrf: str) -> str:
    return f'<input type="hidden" name="csrf" value="{e(csrf)}">'


def _pair_prompt(lang: str) -> str:
    t = in_language(lang)
    return f'<p class="pair-first"><a href="/pair" id="pair-link">{e(t["pair_first"])}</a></p>'


def pair_page(lang: str, code: str = "", paired: bool = False, note: str | None = None, ok: bool = True,
              key: str = "", camera: bool = False) -> str:
    """The pairing page: with a QR code's ``key``, one button pairs; else the six digits, typed."""
    t = in_language(lang)
    shown = code if phones.is_code(code) else ""
    body = f'<p>{e(t["paired"])}</p>' if paired else ""
    if phones.is_key(key):
        body += (f'<p>{e(t["pair_scanned"])}</p><form method="post" action="/pair" class="pair">'
                 f'<input type="hidden" name="key" value="{e(key)}">'
                 f'<button type="submit" id="pair">{e(t["pair_button"])}</button></form>')
    else:
        body += (f'<p>{e(t["pair_intro"])}</p><form method="post" action="/pair" class="pair">'
                 f'<label for="code">{e(t["code"])}</label>'
                 f'<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{{6}}" '
                 f'maxlength="6" required value="{e(shown)}">'
                 f'<button type="submit" id="pair">{e(t["pair_button"])}</button></form>')
    return page(lang, "pair", t["pair"], body, note, ok, camera=camera)


def players_page(lang: str, names: tuple[str, ...], csrf: str | None, note: str | None = None,
                 ok: bool = True, camera: bool = False) -> str:
    t = in_language(lang)
    if csrf is None:  # a guest sees the list; a paired phone changes it
        items = "".join(f"<li>{e(n)}</li>" for n in names) or f'<li class="empty">{e(t["no_names"])}</li>'
        return page(lang, "players", t["players"], f'<p>{e(t["players_intro"])}</p><ul class="names">{items}</ul>'
                    + _pair_prompt(lang), note, ok, camera=camera)
    rows = []
    for n in names:
        rows.append(
            f'<li><span class="who">{e(n)}</span>'
            f'<form method="post" action="/players" class="rename">{_hidden(csrf)}'
            f'<input type="hidden" name="action" value="rename"><input type="hidden" name="old" value="{e(n)}">'
            f'<input name="new" aria-label="{e(t["rename"])}: {e(n)}" maxlength="64" required>'
            f'<button type="submit">{e(t["rename"])}</button></form>'
            f'<form method="post" action="/players" class="remove">{_hidden(csrf)}'
            f'<input type="hidden" name="action" value="remove"><input type="hidden" name="name" value="{e(n)}">'
            f'<button type="submit" class="quiet">{e(t["remove"])}</button></form></li>')
    listed = "".join(rows) or f'<li class="empty">{e(t["no_names"])}</li>'
    add = (f'<form method="post" action="/players" class="add" id="add">{_hidden(csrf)}'
           f'<input type="hidden" name="action" value="add">'
           f'<label for="name">{e(t["new_name"])}</label><input id="name" name="name" maxlength="64" required '
           f'autocomplete="off" enterkeyhint="done"><button type="submit" id="add-button">{e(t["add"])}</button></form>')
    return page(lang, "players", t["players"], f'<p>{e(t["players_intro"])}</p>{add}<ul class="names">{listed}</ul>',
                note, ok, camera=camera)


def _select(name: str, options, chosen, label: str) -> str:
    opts = "".join(f'<option value="{e(v)}"' + (" selected" if v == chosen else "") + f">{e(text)}</option>"
                   for v, text in options)
    return f'<label>{e(label)}<select name="{name}" id="{name}">{opts}</select></label>'


def setup_page(lang: str, roster: tuple[str, ...], colours: tuple[str, ...], chosen: dict, csrf: str | None,
               note: str | None = None, ok: bool = True, camera: bool = False) -> str:
    """The next game's form; ``chosen`` the values shown (the table's now, web/phone/tableform.py, or a form sent
    back) with ``from``, the mark of the set-up the form was made from."""
    t = in_language(lang)
    if csrf is None:
        return page(lang, "setup", t["setup"], f'<p>{e(t["setup_intro"])}</p>' + _pair_prompt(lang), note, ok,
                    camera=camera)
    w = words.language(lang)
    seats = []
    for i in range(SEATS):
        plays = _select(f"plays{i}", (("", t["nobody"]), ("person", t["person"]), ("box", t["box"])),
                        chosen.get(f"plays{i}", ""), t["plays"])
        colour = _select(f"colour{i}", ((c, w.colour(c)) for c in colours),
                         chosen.get(f"colour{i}", colours[i % len(colours)]), t["colour"])
        name = _select(f"name{i}", [("", t["no_name"])] + [(n, n) for n in roster], chosen.get(f"name{i}", ""),
                       t["name"])
        seats.append(f'<fieldset class="seat"><legend>{e(t["seat"].format(n=i + 1))}</legend>{plays}{colour}'
                     f'{name}</fieldset>')
    first = _select("first", ((str(i), t["seat"].format(n=i + 1)) for i in range(SEATS)), chosen.get("first", "0"),
                    t["first"])
    win = _select("win", ((str(n), str(n)) for n in range(1, 12)), chosen.get("win", "3"), t["win"])
    language = _select("language", ((code, i18n.NAMES[code]) for code in i18n.LANGUAGES),
                       chosen.get("language", lang), t["language"])
    flags = "".join(f'<label class="flag"><input type="checkbox" name="{k}" id="{k}" value="on"'
                    + (" checked" if chosen.get(k) == "on" else "") + f">{e(t[k])}</label>" for k in ("speedy", "risky"))
    body = (f'<p>{e(t["setup_intro"])}</p><form method="post" action="/setup" class="setup" id="setup">'
            f'{_hidden(csrf)}<input type="hidden" name="from" value="{e(chosen.get("from", ""))}">{"".join(seats)}<fieldset class="rules">{first}{win}{flags}{language}</fieldset>'
            f'<button type="submit" id="send" aria-describedby="send-hint">{e(t["send"])}</button>'
            f'<p class="hint" id="send-hint">{e(t["send_hint"])}</p></form>')
    return page(lang, "setup", t["setup"], body, note, ok, camera=camera)


DIM_MINUTES = (0, 1, 2, 5, 10, 20, 30, 60)


def settings_page(lang: str, chosen: dict, csrf: str | None, note: str | None = None, ok: bool = True,
                  camera: bool = False) -> str:
    """Language, dimming, sound, lamps; each "as it is" unless chosen (``chosen``: what the box keeps now)."""
    t = in_language(lang)
    if csrf is None:
        return page(lang, "settings", t["settings"], f'<p>{e(t["settings_intro"])}</p>' + _pair_prompt(lang), note, ok,
                    camera=camera)
    same = ("", t["as_now"])
    language = _select("language", [same] + [(c, i18n.NAMES[c]) for c in i18n.LANGUAGES], chosen.get("language", ""),
                       t["language"])
    dim = _select("dim", [same] + [(str(n), t["minutes"].format(n=n) if n else t["never"]) for n in DIM_MINUTES],
                  chosen.get("dim", ""), t["dim"])
    flags = "".join(_select(k, (same, ("on", t["on"]), ("off", t["off"])), chosen.get(k, ""), t[k])
                    for k in ("sound", "lamps"))
    body = (f'<p>{e(t["settings_intro"])}</p><form method="post" action="/settings" class="setup" id="settings">'
            f'{_hidden(csrf)}<fieldset class="rules">{language}{dim}{flags}</fieldset>'
            f'<button type="submit" id="save">{e(t["save"])}</button></form>')
    return page(lang, "settings", t["settings"], body, note, ok, camera=camera)


#: While a request to the camera runs, a page without JavaScript looks again this often (seconds).
CAMERA_REFRESH = 5


def camera_page(lang: str, csrf: str | None, fit=None, note: str | None = None, ok: bool = True,
                wait: str | None = None) -> str:
    """Setting the camera up (:mod:`.camera`): the last set-up's photo with its spaces, or the wait for a new one."""
    t = in_language(lang)
    body = camera_body(lang, csrf, fit, wait)
    if csrf is None:
        body += _pair_prompt(lang)
    head = f'<noscript><meta http-equiv="refresh" content="{CAMERA_REFRESH};url=/camera"></noscript>' \
        if wait is not None else ""
    return page(lang, "camera", t["camera"], body, note, ok, camera=True, head=head,
                script="camera.js" if csrf is not None else None)
