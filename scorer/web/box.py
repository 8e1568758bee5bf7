"""Teach the app your box (SPEC §2 "Teaching the app a real box"): the box plan (six layouts, each
slot showing its tile's contents as pictures), one photo per layout learned by
``vision.learn.learn``, what was learned shown tile by tile, the box in use, and forgetting it.

Thin: the photo is checked for size here; everything about the image is the learner's to refuse
with a message that is shown as it is. A bad photo changes nothing: the box is written only when
a layout was learned, compare-and-set on its version (``scorer.box_store``).

A photo whose layout is not found (or whose learned tiles look cut wrong) can be taught from its
corners, tapped on the photo (``box_corners``; the photo is kept for it by ``box_photos``).

Vision entry points used: ``vision.plan.teaching_plan``, ``vision.learn.learn`` (its ``Lesson``:
``ok``, ``box``, ``error``, ``not_found``; ``corners=`` for the tapped corners), ``vision.box.Box`` (``samples``, ``add``, ``to_bytes``) and, through
``learned``, ``box_from_bytes`` / ``Box.save``.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from werkzeug.exceptions import RequestEntityTooLarge

from ..box_store import StaleBox, box_stamp, forget_box, save_box_bytes
from ..catalog import CHARACTER_NAMES, ITEM_NAMES, ITEMS, STACK_NAMES, catalog
from ..i18n import _
from ..limits import MAX_UPLOAD_BYTES
from ..planet import STACK_AT
from .cpu import off_the_loop
from .extensions import csrf, get_db
from .learned import InUse, box_in_use

bp = Blueprint("box", __name__, url_prefix="/box")
LAYOUTS = 6
MIN_BYTES = 100
_learning = threading.Lock()   # learning is CPU-heavy: one at a time in a worker


class TeachForm(FlaskForm):
    photo = FileField()


class ForgetForm(FlaskForm):
    pass


@lru_cache(maxsize=1)
def plan() -> tuple[tuple[str | None, ...], ...]:
    """The six layouts, each 16 names (tile ids or "back") in position order."""
    from vision.plan import teaching_plan
    return tuple(tuple(c for row in grid["cells"] for c in row) for grid in teaching_plan())


def _key(name: str, position: int) -> str:
    from vision.box import sample_key  # the box's own rule; vision (OpenCV) loads on first use
    return sample_key(name, position)


def learned_layouts(used: InUse | None) -> list[bool]:
    samples = used.box.samples if used else {}  # type: ignore[attr-defined]
    return [all(_key(n, p) in samples for p, n in enumerate(cells) if n) for cells in plan()]


def slot(name: str | None, position: int) -> dict:
    """What a slot of the plan shows: its stack, the items as pictures, the character."""
    stack = STACK_AT[position]
    if name is None or name == "back":
        return {"stack": stack, "back": True, "icons": [], "character": None, "words": _("face down")}
    tile = catalog()[name]
    icons = [item for item in ITEMS for _n in range(tile.count(item))]
    character = _(CHARACTER_NAMES[tile.character]) if tile.character else None
    parts = [character] if character else []
    parts += [_(ITEM_NAMES[i][0]) if tile.count(i) == 1 else f"{tile.count(i)} {_(ITEM_NAMES[i][1])}"
              for i in ITEMS if tile.count(i)]
    return {"stack": stack, "back": False, "icons": icons, "character": character,
            "words": ", ".join(parts) or _("nothing"), "key": _key(name, position)}


def layout_view(n: int, used: InUse | None) -> dict:
    cells = plan()[n - 1]
    slots = [dict(slot(name, p), position=p, stack_name=_(STACK_NAMES[STACK_AT[p]]),
                  key=_key(name or "back", p)) for p, name in enumerate(cells)]
    return {"number": n, "face_down": n == LAYOUTS, "slots": slots}


def status(used: InUse | None) -> dict:
    done = learned_layouts(used)
    when = format_date(used.stamp.updated, "medium") if used else None
    damaged = used is None and box_stamp(get_db()) is not None  # kept, but cannot be read
    return {"used": used, "done": done, "count": sum(done), "total": LAYOUTS, "when": when,
            "version": f"{used.stamp.id}.{used.stamp.version}" if used else "", "damaged": damaged}


def _layout_page(n: int, error: str | None = None, code: int = 200, just_learned: bool = False,
                 not_found: str | None = None):
    """Layout ``n``'s page; ``not_found``: the kept photo whose layout was not found (the page
    offers to show its corners)."""
    from .box_photos import kept_photo
    used = box_in_use()
    st = status(used)
    learned = st["done"][n - 1]
    return render_template("box_layout.html", layout=layout_view(n, used), st=st, error=error,
                           learned=learned, just_learned=just_learned, form=TeachForm(formdata=None),
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024), not_found=not_found,
                           kept=kept_photo(n) if learned and not error else None), code


def _number(n: int) -> int:
    if not 1 <= n <= LAYOUTS:
        abort(404)
    return n


@bp.get("")
def overview():
    used = box_in_use()
    return render_template("box.html", st=status(used),
                           layouts=[layout_view(n, used) for n in range(1, LAYOUTS + 1)])


@bp.get("/layout/<int:n>")
def layout(n: int):
    return _layout_page(_number(n), just_learned=request.args.get("learned") == "1")


@bp.post("/layout/<int:n>")
@csrf.exempt   # checked below, so a stale form keeps its page and says why
def teach(n: int):
    n = _number(n)
    if not TeachForm().validate_on_submit():
        return _layout_page(n, _("This form had expired. Please choose the photo again."), 400)
    upload = request.files.get("photo")
    data = upload.read() if upload else b""
    problem = _photo_problem(data)
    if problem:
        return _layout_page(n, problem, 422)
    with learning() as free:
        if not free:
            return _layout_page(n, _("The app is already learning another photo. Wait a few seconds "
                                     "and send this one again; nothing was lost."), 429)
        from .box_photos import keep_photo
        slot = keep_photo(data, n)   # for its corners, should its layout not be found or look wrong
        refused = _learn(n, data)
    if refused:
        return _layout_page(n, refused[0], refused[1], not_found=slot if refused[2] else None)
    return redirect(url_for("box.layout", n=n, learned=1), code=303)


@contextmanager
def learning() -> Iterator[bool]:
    """One lesson at a time in a worker: yields False (at once) when another is under way."""
    free = _learning.acquire(blocking=False)
    try:
        yield free
    finally:
        if free:
            _learning.release()


def _photo_problem(data: bytes) -> str | None:
    if not data:
        return _("Choose a photo of this layout first.")
    if len(data) < MIN_BYTES:   # larger than the photo limit: refused before here (too_large)
        return _("That file is too small to be a photo.")
    return None


def _learn(n: int, data: bytes, corners=None) -> tuple[str, int, bool] | None:
    """Learn layout ``n`` from the photo into the active box (``corners``: where the teacher showed
    the layout's corners, in the photo's pixels); (message, status, layout not found) when it was
    not."""
    from vision.box import Box
    from vision.learn import learn
    used = box_in_use()
    cells = plan()[n - 1]
    mine = {_key(name, p) for p, name in enumerate(cells) if name}
    # a retake replaces this layout: what it taught before must not judge the new photo
    others = Box(samples={k: s for k, s in used.box.samples.items() if k not in mine}) if used else Box()  # type: ignore[attr-defined]
    lesson = off_the_loop(learn, data, {"cells": [list(cells[r * 4:r * 4 + 4]) for r in range(4)]}, others, corners)
    if not lesson.ok or lesson.box is None:
        return lesson.error or _("This photo could not be learned. Please take it again."), 422, lesson.not_found
    try:
        save_box_bytes(get_db(), lesson.box.to_bytes(), used.stamp if used else None)
    except StaleBox:
        return _("The box was changed from another phone while this photo was being learned. "
                 "Look at the layouts again and send this photo once more."), 409, False
    return None


@bp.errorhandler(RequestEntityTooLarge)
def too_large(exc: RequestEntityTooLarge):
    n = (request.view_args or {}).get("n")
    message = _("That file is larger than %(mb)d MB. A phone photo is usually 2–8 MB.",
                mb=MAX_UPLOAD_BYTES // (1024 * 1024))
    if isinstance(n, int) and 1 <= n <= LAYOUTS:
        return _layout_page(n, message, 413)
    return render_template("error.html", code=413, message=message), 413


@bp.get("/tile/<key>.png")
def tile_picture(key: str):
    """A tile as it was learned (cut from its photo)."""
    used = box_in_use()
    sample = used.box.samples.get(key) if used else None  # type: ignore[attr-defined]
    if sample is None:
        abort(404)
    response = Response(sample.png, mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=86400"  # the URL carries the version
    return response


@bp.get("/forget")
def forget_confirm():
    return render_template("box_forget.html", st=status(box_in_use()), form=ForgetForm())


@bp.post("/forget")
def forget():  # the app-wide CSRF check has passed by now
    forget_box(get_db())
    return redirect(url_for("box.overview", forgotten=1), code=303)
