"""Scan a planet: a photo in, the planet read by ``vision.recognize``, checked by the player on
the grid editor (doubtful cells outlined), then scored alone or added to a table. With a learned
box in use, "Remember the tiles I corrected" teaches the box how those tiles look in this photo
(``vision.learn.learn_from_scan``; only corrected tiles: remembering tiles that were read right
from a tilted photo made later readings worse). A tile whose picture in the box shows its drawing
more sharply than this photo does is kept as it was, and the page says so (``Lesson.kept``).

Thin: the upload is checked for size here, everything about the image (type, truncation,
decompression bombs, no planet in sight) is the recognizer's to refuse, with a message that is
shown as it is.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from flask import (
    Blueprint, abort, current_app, redirect, render_template, request, send_from_directory, session, url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField
from wtforms.validators import Length

from ..box_store import StaleBox, save_box_bytes
from ..contract import score_request
from ..errors import InputError
from ..i18n import N_, _
from ..db import save_table
from ..planet import BACK
from ..limits import MAX_PLAYERS, MAX_UPLOAD_BYTES
from .extensions import csrf, get_db
from .forms import active_square, apply_action, doubtful_squares, find_action, normalise
from .box import learning, status as box_status
from .learned import box_in_use, scan_reference
from .planet_view import planet
from .kept_photos import forget_oldest, is_id, new_folder, straightened, upright
from .cpu import off_the_loop
from .ratelimits import Busy, busy_message, one_of_few_scans, when_scans_full

bp = Blueprint("scan", __name__)
PREFIX = "players-0-cells"  # the score page's field names: "add to a table" posts straight to it
MIN_BYTES = 100
KEEP = 200  # readings kept under their own address
NO_BOX = N_("No learned box is in use, so there is nothing to remember the tiles in.")
LEARN_COPY = "learn.jpg"  # with a learned box in use: the photo as the box may learn from it
PLANET_PICTURE = "planet.jpg"  # the planet cut out of the photo, square, turned as the grid reads it
PLANET_SIDE = 480  # px: 120 a tile, sharp on a phone's screen at the review's size


class PhotoForm(FlaskForm):
    photo = FileField("Photo of the planet")


class ReviewForm(FlaskForm):
    name = StringField("Whose planet?", validators=[Length(max=40)])


def _form_cells() -> list[str | None]:
    """The 16 squares of the posted review (a tile id, or None for an empty square)."""
    return [(request.form.get(f"{PREFIX}-{p}") or "").strip()[:8] or None for p in range(16)]


def _form_name() -> str:
    return (request.form.get("players-0-name") or "").strip()[:40]


def _page(form=None, error=None, status=200):
    return render_template("scan.html", form=form or PhotoForm(), error=error, st=box_status(box_in_use()),
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


def _review(cells, doubtful=(), name="", error=None, cell_errors=None, status=200, active=None, scan_id="",
            remembered=None, sharper=None):
    scan_id = scan_id if stored(scan_id) else ""
    grid = planet(cells, prefix=PREFIX, active=active, doubtful=doubtful, errors=cell_errors,
                  used={c for c in cells if c and c != BACK},   # greyed in the picker, as on the score page
                  label=_("The planet as read"), likely=likely_of_scan(scan_id))
    used = box_in_use()
    straight = bool(scan_id) and (scans_dir() / scan_id / PLANET_PICTURE).is_file()
    return render_template("scan_review.html", grid=grid, form=ReviewForm(formdata=None, name=name),
                           name=name, error=error, scan_id=scan_id, table=session.get("table") or [], straight=straight,
                           doubtful_count=sum(1 for c in grid.cells if c.doubtful),
                           can_remember=_learnable(scan_id, used), st=box_status(used),
                           remembered=remembered, sharper=sharper), status


# ---------------------------------------------------------------------------------------------
# a reading kept under its own address (/scan/<id>): reload and Back show it again, with the photo


def scans_dir() -> Path:
    return Path(current_app.instance_path) / "scans"


def stored(scan_id: str) -> bool:
    return is_id(scan_id) and (scans_dir() / scan_id).is_dir()


def keep(data: bytes, reading, learnable: bool = False) -> str:
    """The photo (shrunk to 900 px for the page) and its reading, under a new id; the oldest go
    when more than KEEP are kept. ``learnable`` (read with a learned box): a copy the box can
    learn corrected tiles from is kept too (``vision.tuning.SCAN_SIDE``, about 0.4 MB)."""
    scan_id, folder = new_folder(scans_dir())
    off_the_loop(_shrink_photo, data, folder / "photo.jpg")
    if reading.quad:
        off_the_loop(_planet_picture, data, reading.quad, folder / PLANET_PICTURE)
    if learnable:
        from vision.tuning import SCAN_SIDE
        off_the_loop(_shrink_photo, data, folder / LEARN_COPY, SCAN_SIDE, 92)
    doubtful = [p for p in range(16) if reading.doubtful[p]]
    (folder / "reading.json").write_text(json.dumps({"cells": list(reading.cells), "doubtful": doubtful,
                                                     "likely": [list(t) for t in reading.likely]}))
    _forget_the_oldest(scans_dir())
    return scan_id


def _shrink_photo(data: bytes, to: Path, short_side: int | None = None, quality: int = 80) -> None:
    """The photo for the review page: upright, 900 px, a JPEG decoded at the scale it needs (a
    12 MP photo decoded whole here took longer than reading the planet). ``short_side``: shrunk
    to that short side instead (never enlarged)."""
    im = upright(data, short_side or 900)
    if short_side is None:
        im.thumbnail((900, 900))
    else:
        f = min(1.0, short_side / max(1, min(im.size)))
        im.thumbnail((max(1, round(im.size[0] * f)), max(1, round(im.size[1] * f))))
    im.save(to, "JPEG", quality=quality)


def _planet_picture(data: bytes, corners: list, to: Path) -> None:
    """The planet as the reader found it, cut out square and turned as the grid reads it, so a
    square of the grid is the same square of the picture whatever way the photo was taken. A
    picture that cannot be made is left out (the page shows the whole photo): never an error."""
    try:
        straightened(data, corners, PLANET_SIDE).save(to, "JPEG", quality=80)
    except Exception:  # noqa: BLE001 (the reading stands without its picture)
        current_app.logger.exception("the planet's picture could not be made")


def _forget_the_oldest(folder: Path) -> None:
    """Keep the newest KEEP scans."""
    forget_oldest(folder, KEEP)


def _learnable(scan_id: str, used) -> bool:
    """Can this kept scan teach the box in use (``used``)? It was read with a learned box."""
    return bool(scan_id) and (scans_dir() / scan_id / LEARN_COPY).is_file() and used is not None


def likely_of_scan(scan_id: str) -> dict[int, list[str]]:
    """Per square, the tiles the reader found likeliest after the one it read (kept with the
    scan; none for a scan kept before they were, or none at all)."""
    if not stored(scan_id):
        return {}
    try:
        likely = load(scan_id).get("likely")
    except (OSError, ValueError, AttributeError):   # unreadable, or not the object keep() writes
        return {}
    if not isinstance(likely, list):
        return {}
    return {p: [str(t) for t in tiles] for p, tiles in enumerate(likely[:16]) if isinstance(tiles, list)}


def load(scan_id: str) -> dict:
    if not stored(scan_id):
        abort(404)
    return json.loads((scans_dir() / scan_id / "reading.json").read_text())


@bp.get("/scan/<scan_id>")
def review(scan_id: str):
    kept = load(scan_id)
    return _review(kept["cells"], kept["doubtful"], scan_id=scan_id)


@bp.get("/scan/<scan_id>/photo.jpg")
def photo(scan_id: str):
    load(scan_id)
    return send_from_directory(scans_dir() / scan_id, "photo.jpg", max_age=86400)


@bp.get("/scan/<scan_id>/planet.jpg")
def planet_picture(scan_id: str):
    load(scan_id)
    return send_from_directory(scans_dir() / scan_id, PLANET_PICTURE, max_age=86400)


@bp.post("/scan/add")
@csrf.exempt
def add_to_table():
    """"Add it to the table": this planet joins the ones added before (kept in the session), and
    the score page opens with all of them."""
    if not ReviewForm().validate_on_submit():
        return redirect(url_for("scan.scan"), code=303)
    cells = [c or "" for c in _form_cells()]
    name = _form_name()
    table = (session.get("table") or [])[-(MAX_PLAYERS - 1):]
    session["table"] = table + [{"name": name, "cells": cells}]
    return redirect(url_for("pages.score", scanned=1), code=303)


@bp.get("/scan")
def scan():
    return _page()


# Both posts check their CSRF token themselves (validate_on_submit) and answer with the page and
# a message, so a stale page keeps the planet being checked instead of ending on an error page.
@bp.post("/scan")
@csrf.exempt
@when_scans_full(lambda: _page(PhotoForm(formdata=None), busy_message(), 429))
def scan_post():
    form = PhotoForm()
    if not form.validate_on_submit():  # only the CSRF token can fail here
        return _page(form, _("This form had expired. Please choose the photo again."), 400)
    upload = request.files.get("photo")
    reading, error, status = read_photo(upload)
    if reading is None:
        return _page(form, error, status)
    upload.stream.seek(0)
    kept = keep(upload.read(MAX_UPLOAD_BYTES), reading, learnable=box_in_use() is not None)
    return redirect(url_for("scan.review", scan_id=kept), code=303)


def read_photo(upload):
    """A photo upload read as a planet: (the reading, None, 200) or (None, a message for a
    person, an HTTP status). The score page's camera buttons use it too."""
    data = upload.read(MAX_UPLOAD_BYTES + 1) if upload else b""
    if not data:
        return None, _("Choose a photo of the finished planet first."), 422
    if len(data) > MAX_UPLOAD_BYTES:
        return None, _("That file is larger than %(mb)d MB. A phone photo is usually 2–8 MB.",
                       mb=MAX_UPLOAD_BYTES // (1024 * 1024)), 413
    if len(data) < MIN_BYTES:
        return None, _("That file is too small to be a photo."), 422
    try:
        from vision.recognize import recognize
        with one_of_few_scans():
            reading = off_the_loop(recognize, data, scan_reference())  # the learned box, if there is one
    except Busy as busy:
        return None, str(busy), 429
    except Exception:  # the recognizer promises a Reading; never let a surprise become a 500
        current_app.logger.exception("recognizer failed")
        reading = None
    if reading is None:
        return None, _("That photo could not be read. Try a JPEG or PNG taken from above."), 422
    if not reading.ok:
        return None, reading.error, 422
    return reading, None, 200


@bp.post("/scan/<scan_id>/remember")
@csrf.exempt   # checked below, so a stale page keeps the planet being checked
def remember(scan_id: str):
    """"Remember the tiles I corrected": the learned box learns the tiles the player changed from
    the reading, as they look in this photo; the page stays on the planet, saying what was
    learned. Nothing changes unless the whole lesson is stored."""
    kept = load(scan_id)
    cells, name = _form_cells(), _form_name()
    doubtful = doubtful_squares(request.form, 0)
    again = functools.partial(_review, cells, doubtful, name, scan_id=scan_id)
    if not ReviewForm().validate_on_submit():
        return again(_("This form had expired. Check the planet and try again."), status=400)
    used = box_in_use()
    if not _learnable(scan_id, used):
        return again(_(NO_BOX), status=409)
    corrected = [p for p in range(16) if cells[p] != kept["cells"][p] and cells[p] is not None]
    if not corrected:
        return again(_("You corrected no tile, so there is nothing to remember. Change a tile that "
                       "was read wrong first."), status=422)
    problem, learned, sharper = _remember(scan_id, cells, corrected, used)
    if problem:
        return again(problem[0], status=problem[1])
    kept["cells"] = cells   # remembered: pressing again has nothing new to learn
    (scans_dir() / scan_id / "reading.json").write_text(json.dumps(kept))
    # the page asks for the box again: its pictures' new version
    return again(remembered=learned, sharper=sharper)


def _remember(scan_id: str, cells: list, corrected: list, used) -> tuple[tuple[str, int] | None, tuple, tuple]:
    """Teach ``used`` (the box in use) the ``corrected`` tiles of this scan: (None, the samples
    learned, those whose picture in the box is sharper and was kept: ``Lesson.kept``), or
    ((message, status), (), ()) when nothing was stored. A lesson that learned nothing stores nothing."""
    from vision.learn import learn_from_scan
    with learning() as free:
        if not free:
            return (_("The app is already learning another photo. Wait a few seconds and try again; "
                      "nothing was lost."), 429), (), ()
        lesson = off_the_loop(learn_from_scan, (scans_dir() / scan_id / LEARN_COPY).read_bytes(),
                              cells, corrected, used.box)
    if not lesson.ok or lesson.box is None:
        return (lesson.error or _("This photo could not be learned."), 422), (), ()
    if lesson.learned:
        try:
            save_box_bytes(get_db(), lesson.box.to_bytes(), used.stamp)
        except StaleBox:   # changed or forgotten by another phone since it was read
            return (_("The box was changed from another phone meanwhile. Try again."), 409), (), ()
    return None, lesson.learned, lesson.kept


@bp.post("/scan/score")
@csrf.exempt
def scan_score():
    form = ReviewForm()
    cells = _form_cells()
    name = _form_name() or _("My planet")
    doubtful = doubtful_squares(request.form, 0)
    scan_id = request.form.get("scan", "")
    action = find_action(request.form)
    if action is not None and action[0] in ("cell", "tile", "stack"):  # the tile picker, without JavaScript
        data = apply_action(normalise(request.form), action)
        cells = [(data.get(f"{PREFIX}-{p}") or "").strip()[:8] or None for p in range(16)]
        return _review(cells, doubtful, name, active=active_square(data, 0), scan_id=scan_id)
    if not form.validate_on_submit():
        return _review(cells, doubtful, name, _("This form had expired. Check the planet and score it again."),
                       status=400, scan_id=scan_id)
    request_json = {"players": [{"name": name, "planet": {"cells": [cells[r * 4:r * 4 + 4] for r in range(4)]}}]}
    try:
        result = score_request(request_json)
    except InputError as exc:
        cell_errors = {}
        for problem in exc.problems:
            at = problem.where[-2:]
            if problem.where[-3:-2] == ("cells",) and all(isinstance(k, int) for k in at):
                cell_errors.setdefault(int(at[0]) * 4 + int(at[1]), problem.message)
        return _review(cells, doubtful, name, exc.message, cell_errors, status=422, scan_id=scan_id)
    table_id = save_table(get_db(), request_json, result)
    return redirect(url_for("pages.table", table_id=table_id), code=303)


__all__ = ["bp", "BACK"]
