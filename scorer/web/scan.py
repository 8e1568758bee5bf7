"""Scan a planet: a photo in, the planet read by ``vision.recognize``, checked by the player on
the grid editor (doubtful cells outlined), then scored alone or added to a table.

Thin: the upload is checked for size here, everything about the image (type, truncation,
decompression bombs, no planet in sight) is the recognizer's to refuse, with a message that is
shown as it is.
"""
from __future__ import annotations

import io
import json
import re
import secrets
import shutil
from pathlib import Path

from flask import (
    Blueprint, abort, current_app, redirect, render_template, request, send_from_directory, session, url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField
from wtforms.validators import Length

from ..contract import score_request
from ..errors import InputError
from ..i18n import _
from ..db import save_table
from ..planet import BACK
from ..limits import MAX_PLAYERS, MAX_UPLOAD_BYTES
from .extensions import csrf, get_db
from .forms import active_square, apply_action, doubtful_squares, find_action, normalise
from .learned import scan_reference
from .planet_view import planet
from .cpu import off_the_loop
from .ratelimits import Busy, busy_message, one_of_few_scans, when_scans_full

bp = Blueprint("scan", __name__)
PREFIX = "players-0-cells"  # the score page's field names: "add to a table" posts straight to it
MIN_BYTES = 100
KEEP = 200  # readings kept under their own address


class PhotoForm(FlaskForm):
    photo = FileField("Photo of the planet")


class ReviewForm(FlaskForm):
    name = StringField("Whose planet?", validators=[Length(max=40)])


def _page(form=None, error=None, status=200):
    return render_template("scan.html", form=form or PhotoForm(), error=error,
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


def _review(cells, doubtful=(), name="", error=None, cell_errors=None, status=200, active=None, scan_id=""):
    grid = planet(cells, prefix=PREFIX, active=active, doubtful=doubtful, errors=cell_errors,
                  label=_("The planet as read"))
    scan_id = scan_id if stored(scan_id) else ""
    return render_template("scan_review.html", grid=grid, form=ReviewForm(formdata=None, name=name),
                           name=name, error=error, scan_id=scan_id, table=session.get("table") or [],
                           doubtful_count=sum(1 for c in grid.cells if c.doubtful)), status


# ---------------------------------------------------------------------------------------------
# a reading kept under its own address (/scan/<id>): reload and Back show it again, with the photo


def scans_dir() -> Path:
    return Path(current_app.instance_path) / "scans"


def stored(scan_id: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9_-]{12}", scan_id or "")) and (scans_dir() / scan_id).is_dir()


def keep(data: bytes, reading) -> str:
    """The photo (shrunk to 900 px for the page) and its reading, under a new id; the oldest go
    when more than KEEP are kept."""
    scan_id = secrets.token_urlsafe(9)
    folder = scans_dir() / scan_id
    folder.mkdir(parents=True)
    off_the_loop(_shrink_photo, data, folder / "photo.jpg")
    doubtful = [p for p in range(16) if reading.doubtful[p]]
    (folder / "reading.json").write_text(json.dumps({"cells": list(reading.cells), "doubtful": doubtful}))
    _forget_the_oldest(scans_dir())
    return scan_id


def _shrink_photo(data: bytes, to: Path) -> None:
    """The photo for the review page: upright, 900 px, a JPEG decoded at the scale it needs (a
    12 MP photo decoded whole here took longer than reading the planet)."""
    from PIL import Image, ImageOps
    with Image.open(io.BytesIO(data)) as im:
        im.draft("RGB", (900, 900))
        im = ImageOps.exif_transpose(im).convert("RGB")
        im.thumbnail((900, 900))
        im.save(to, "JPEG", quality=80)


def _forget_the_oldest(folder: Path) -> None:
    """Keep the newest KEEP scans. Another worker may be forgetting the same ones at this moment:
    a scan gone before it is looked at is simply passed over."""
    kept = []
    for scan in folder.iterdir():
        try:
            kept.append((scan.stat().st_mtime, scan))
        except FileNotFoundError:
            continue
    for _mtime, old in sorted(kept)[:-KEEP]:
        shutil.rmtree(old, ignore_errors=True)


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


@bp.post("/scan/add")
@csrf.exempt
def add_to_table():
    """"Add it to the table": this planet joins the ones added before (kept in the session), and
    the score page opens with all of them."""
    if not ReviewForm().validate_on_submit():
        return redirect(url_for("scan.scan"), code=303)
    cells = [(request.form.get(f"{PREFIX}-{p}") or "").strip()[:8] for p in range(16)]
    name = (request.form.get("players-0-name") or "").strip()[:40]
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
    return redirect(url_for("scan.review", scan_id=keep(upload.read(MAX_UPLOAD_BYTES), reading)), code=303)


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


@bp.post("/scan/score")
@csrf.exempt
def scan_score():
    form = ReviewForm()
    cells = [(request.form.get(f"{PREFIX}-{p}") or "").strip()[:8] or None for p in range(16)]
    name = (request.form.get("players-0-name") or "").strip()[:40] or _("My planet")
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
