"""Setting the camera up from a paired phone: its page, the fitted spaces drawn over the photo, its two requests.

The page (``/camera``, :func:`camera_page`) shows the empty board's photo of
the last set-up (``camera/setup.jpg``) with the spaces the box fitted drawn
over it (``camera/grid.json``: each column's spaces in the photo's pixels,
drawn as an SVG in the photo's own coordinates, scaled with it). Three
things to do with it:

- **Photograph the empty board**: ``{"do": "camera", "step": "photo"}``; the
  box answers at once and the set-up takes some seconds, then the photo and
  its spaces are written anew. The page waits for that (``data-wait``: the
  spaces' ETag before the request; ``static/camera.js`` asks for its head each
  second and opens the page again once it changed);
- **Looks right**: nothing to send, the box keeps the fit already; the page says so;
- **Place the columns by hand**: the bottom and the top space of each column,
  2 to 12, tapped on the photo (``static/camera.js``), sent as
  ``{"do": "camera", "step": "ends", "ends": {"2": [[x, y], [x, y]], ...}}`` in
  the photo's own pixels.

Every request passes :func:`web.phone.door.write` as the other forms do (a
paired phone, its form token, this site), and the box checks it again
(:func:`firmware.table.phone_link.check`).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass

from firmware.camera.link import GRID, SETUP
from firmware.table import phone_link as link

from .. import pictures
from ..board import e
from .text import in_language

log = logging.getLogger("cantstop.web")

COLUMNS = link.CAMERA_COLUMNS
#: The most spaces a column of the grid may list (the longest column has 13).
MAX_SPACES = 13


@dataclass(frozen=True)
class Fit:
    """The last set-up as the phone's page draws it: the photo's size, each column's spaces in its pixels
    (bottom first; none when the box did not find them), the photo's time (its address)."""

    size: tuple[int, int]
    columns: dict
    photo: int

    @property
    def found(self) -> bool:
        return bool(self.columns)


def fit_of(state_dir) -> Fit | None:
    """The last set-up's photo and spaces, None when there is none yet (or its spaces do not read: logged)."""
    photo = pictures.mtime(state_dir, SETUP)
    try:
        grid = pictures.read(state_dir, GRID)
    except pictures.TooBig as err:
        log.warning("%s", err)
        return None
    if photo is None or grid is None:
        return None
    try:
        return _grid(json.loads(grid.body), photo)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:
        log.warning("the camera's grid.json does not read: %s", err)
        return None


def _grid(raw: dict, photo: int) -> Fit:
    w, h = raw["size"]
    if not all(type(v) is int and 0 < v <= link.MAX_PHOTO_SIDE for v in (w, h)):
        raise ValueError("a photo's size is two whole numbers of pixels")
    columns = {}
    for key, points in raw["columns"].items():
        column = int(key)
        if column not in COLUMNS or not isinstance(points, list) or not 0 < len(points) <= MAX_SPACES:
            raise ValueError(f"not a column's spaces: {key}")
        columns[column] = tuple(_point(p, w, h) for p in points)
    return Fit((w, h), columns, photo)


def _point(raw, w: int, h: int) -> tuple[float, float]:
    x, y = (float(v) for v in raw)
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError("a space is two numbers")
    return min(max(x, -w), 2 * w), min(max(y, -h), 2 * h)  # a space off the photo is drawn at its edge, never far


def grid_tag(state_dir) -> str:
    """The spaces' ETag now ("" when there are none): what the page waits to change after a request."""
    try:
        found = pictures.read(state_dir, GRID, body=False)
    except pictures.TooBig:
        return "?"
    return found.etag if found is not None else ""


def request_of(fields: dict) -> dict:
    """The posted form as a request to the box (checked again by :func:`firmware.table.phone_link.check`)."""
    step = fields.get("step", "")
    if step == "photo":
        return {"do": "camera", "step": "photo"}
    if step != "ends":
        raise link.LinkError("a camera request is a photo or the columns' ends")
    try:
        ends = json.loads(fields.get("ends", ""))
    except (ValueError, RecursionError):
        raise link.LinkError("the columns' ends did not read: tap them again") from None
    return {"do": "camera", "step": "ends", "ends": ends}


def _overlay(fit: Fit) -> str:
    """The fitted spaces over the photo, in its pixels: a line up each column, a ring on each space, its number."""
    w, h = fit.size
    r = max(w, h) / 150
    stroke = f'stroke-width="{r / 3:.1f}"'
    out = []
    for column, points in sorted(fit.columns.items()):
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polyline points="{line}" {stroke}/>')
        out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {stroke}/>' for x, y in points)
        x, y = points[-1]
        out.append(f'<text x="{x:.1f}" y="{y - 2 * r:.1f}" font-size="{3 * r:.1f}" {stroke}>{column}</text>')
    return f'<g class="fit" id="fit">{"".join(out)}</g>'


def _hidden(csrf: str, step: str) -> str:
    return f'<input type="hidden" name="csrf" value="{e(csrf)}"><input type="hidden" name="step" value="{step}">'


def camera_body(lang: str, csrf: str | None, fit: Fit | None, wait: str | None = None) -> str:
    """The page's body under its title: ``csrf`` None for a guest; ``wait``: the spaces' ETag before a request the
    box took (the page waits for them to change)."""
    t = in_language(lang)
    intro = f'<p>{e(t["camera_intro"])}</p>'
    if csrf is None:
        return intro
    photo = (f'<form method="post" action="/camera" class="camera-photo">{_hidden(csrf, "photo")}'
             f'<button type="submit" id="photo">{e(t["camera_photo"])}</button></form>')
    if wait is not None:
        return (f'{intro}<div id="camera" data-wait="{e(wait)}"><p class="hint" id="waiting" role="status">'
                f'{e(t["camera_waiting"])}</p><p class="refusal" id="late" hidden>{e(t["camera_late"])}</p></div>'
                f'{photo}')
    if fit is None:
        return f'{intro}{photo}<div id="camera"><p class="hint" id="fit-said">{e(t["camera_none"])}</p></div>'
    w, h = fit.size
    said = t["camera_fitted"] if fit.found else t["camera_not_found"]
    looks = (f'<form method="get" action="/camera"><input type="hidden" name="looks" value="right">'
             f'<button type="submit" id="looks">{e(t["camera_ok"])}</button></form>') if fit.found else ""
    guide = " ".join(f'data-{k}="{e(t["camera_tap_" + k])}"' for k in ("bottom", "top", "done"))
    return (f'{intro}<div id="camera" data-w="{w}" data-h="{h}" {guide}>'
            f'<p id="fit-said">{e(said)}</p>'
            f'<div class="shot" id="shot"><img src="/camera/{SETUP}?v={fit.photo}" width="{w}" height="{h}" '
            f'alt="{e(t["camera_photo_alt"])}" id="setup-photo">'
            f'<svg id="overlay" viewBox="0 0 {w} {h}" preserveAspectRatio="none" aria-hidden="true">'
            f'{_overlay(fit)}<g class="tapped" id="tapped"></g></svg></div>'
            f'<div class="choices" id="choices">{looks}'
            f'<button type="button" id="by-hand" class="quiet" hidden>{e(t["camera_by_hand"])}</button>'
            f'<noscript><p class="hint">{e(t["camera_needs_js"])}</p></noscript></div>'
            f'<div id="taps" hidden><p class="said" id="tap-say" role="status"></p>'
            f'<form method="post" action="/camera" id="ends-form">{_hidden(csrf, "ends")}'
            f'<input type="hidden" name="ends" id="ends" value="">'
            f'<button type="button" id="undo" class="quiet">{e(t["camera_undo"])}</button>'
            f'<button type="submit" id="send-ends" disabled>{e(t["camera_send"])}</button></form></div>'
            f'</div>{photo}')
