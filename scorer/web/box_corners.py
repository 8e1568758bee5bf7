"""When a teaching photo's layout is not found (or what it taught looks wrong): the teacher taps
the layout's four outer corners on the photo, one tap per page, and the layout is learned from
them (``vision.learn.learn(..., corners=)``).

No script: the photo is an ``<input type="image">``, whose form sends the tap's x, y in the
displayed picture's CSS pixels. The picture is shown ``SHOWN_PX`` wide whatever its file's size,
so a tap is scaled to the photo by the server alone. (htmx cannot carry it: htmx 2 leaves an image
input's coordinates out of the values it posts, so each tap is an ordinary post answered by a
redirect to the page again, scrolled to the photo.) The taps so far are drawn on the picture by
the server (``marked``): the page has no inline style to place marks with (CSP).

The photo is kept once, when it is sent (``box_photos.keep_photo``), with the taps beside it; a bad tap (off the
picture, corners that are no outline, too small) is refused with a message and changes nothing,
and nothing is learned before the fourth good tap, so nothing already learned is lost.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

from flask import Blueprint, abort, redirect, render_template, request, send_file, url_for
from flask_wtf import FlaskForm

from ..i18n import N_, _
from .box import _learn, _number, learning, status
from .box_photos import SHOWN_PX, slot_dir, write_meta
from .cpu import off_the_loop
from .extensions import csrf
from .learned import box_in_use

bp = Blueprint("box_corners", __name__, url_prefix="/box")
CORNERS = (N_("top-left"), N_("top-right"), N_("bottom-right"), N_("bottom-left"))
OFF_PHOTO = N_("That tap did not land on the photo. Tap on the photo itself.")


class CornerForm(FlaskForm):
    pass


def _load(n: int, slot: str) -> tuple[Path, dict]:
    folder = slot_dir(slot)
    if folder is None:
        abort(404)
    meta = json.loads((folder / "meta.json").read_text())
    if meta.get("layout") != n:
        abort(404)
    return folder, meta


def shown_size(meta: dict) -> tuple[int, int]:
    return SHOWN_PX, max(1, round(meta["h"] * SHOWN_PX / meta["w"]))


def _page(n: int, slot: str, meta: dict, error: str | None = None, code: int = 200):
    taps = meta["taps"]
    width, height = shown_size(meta)
    return render_template(
        "box_corners.html", n=n, slot=slot, taps=len(taps), error=error, st=status(box_in_use()),
        next_corner=_(CORNERS[len(taps)]) if len(taps) < 4 else None, form=CornerForm(formdata=None),
        width=width, height=height, marks="-".join(f"{x:.0f}.{y:.0f}" for x, y in taps)), code


@bp.get("/layout/<int:n>/corners/<slot>")
def corners(n: int, slot: str):
    folder, meta = _load(_number(n), slot)
    return _page(n, slot, meta)


@bp.get("/layout/<int:n>/corners/<slot>/photo.jpg")
def corners_photo(n: int, slot: str):
    """The photo shown for tapping, with the taps so far drawn on it (the address carries them)."""
    folder, meta = _load(_number(n), slot)
    picture = off_the_loop(marked, folder / "shown.jpg", meta)
    response = send_file(io.BytesIO(picture), mimetype="image/jpeg")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


def marked(path: Path, meta: dict) -> bytes:
    """The picture with each tap a numbered ring and the outline drawn so far."""
    from PIL import Image, ImageDraw
    with Image.open(path) as im:
        im = im.convert("RGB")
        f = im.width / meta["w"]
        pts = [(x * f, y * f) for x, y in meta["taps"]]
        draw = ImageDraw.Draw(im)
        r = max(6, im.width // 60)
        if len(pts) > 1:
            draw.line(pts, fill=(245, 198, 90), width=max(2, r // 3))
        for k, (x, y) in enumerate(pts):
            draw.ellipse((x - r, y - r, x + r, y + r), outline=(0, 0, 0), width=max(2, r // 3) + 2)
            draw.ellipse((x - r, y - r, x + r, y + r), outline=(245, 198, 90), width=max(2, r // 3))
            draw.text((x + r + 2, y - 2 * r), str(k + 1), fill=(245, 198, 90), font_size=2 * r,
                      stroke_width=2, stroke_fill=(0, 0, 0))
        out = io.BytesIO()
        im.save(out, "JPEG", quality=80)
        return out.getvalue()


def _tap(meta: dict) -> tuple[float, float] | None:
    """The posted tap in the learner's copy's pixels, or None when it is not on the picture."""
    width, height = shown_size(meta)
    try:
        x, y = int(request.form.get("tap.x", "")), int(request.form.get("tap.y", ""))
    except ValueError:
        return None
    if not (0 <= x <= width and 0 <= y <= height):
        return None
    return x * meta["w"] / width, y * meta["h"] / height


@bp.post("/layout/<int:n>/corners/<slot>")
@csrf.exempt   # checked below, so a stale form keeps its page and says why
def corners_post(n: int, slot: str):
    folder, meta = _load(_number(n), slot)
    if not CornerForm().validate_on_submit():
        return _page(n, slot, meta, _("This form had expired. Please tap again."), 400)
    action = request.form.get("action")
    if action == "undo":
        meta["taps"] = meta["taps"][:-1]
    elif action == "again":
        meta["taps"] = []
    else:
        if len(meta["taps"]) >= 4:
            return _page(n, slot, meta, _("Four corners are marked already. Undo the last or start again."), 422)
        tap = _tap(meta)
        if tap is None:
            return _page(n, slot, meta, _(OFF_PHOTO), 422)
        taps = meta["taps"] + [list(tap)]
        if len(taps) == 4:
            return _learn_from(n, slot, folder, meta, taps)
        meta["taps"] = taps
    write_meta(folder, meta)
    return redirect(url_for("box_corners.corners", n=n, slot=slot, _anchor="tap"), code=303)


def _learn_from(n: int, slot: str, folder: Path, meta: dict, taps: list):
    """The fourth tap: learn the layout from the four corners. Any problem: the page with why,
    the fourth tap not kept (the first three stay), the box unchanged."""
    from vision.learn import corners_problem
    problem = corners_problem(taps, meta["w"], meta["h"])
    if problem:
        return _page(n, slot, meta, problem, 422)
    with learning() as free:
        if not free:
            return _page(n, slot, meta, _("The app is already learning another photo. Wait a few seconds "
                                          "and tap the last corner again; nothing was lost."), 429)
        refused = _learn(n, (folder / "learn.jpg").read_bytes(), taps)
    if refused:
        return _page(n, slot, meta, refused[0], refused[1])
    write_meta(folder, {**meta, "taps": []})
    return redirect(url_for("box.layout", n=n, learned=1), code=303)
