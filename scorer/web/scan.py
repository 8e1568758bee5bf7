"""Scan a planet: a photo in, the planet read by ``vision.recognize``, checked by the player on
the grid editor (doubtful cells outlined), then scored alone or added to a table.

Thin: the upload is checked for size here, everything about the image (type, truncation,
decompression bombs, no planet in sight) is the recognizer's to refuse, with a message that is
shown as it is.
"""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField
from wtforms.validators import Length

from ..contract import score_request
from ..errors import InputError
from ..db import save_table
from ..planet import BACK
from ..limits import MAX_UPLOAD_BYTES
from .extensions import csrf, get_db
from .ratelimits import Busy, one_of_few_scans
from .pages import grid_editor

bp = Blueprint("scan", __name__)
PREFIX = "players-0-cells"  # the score page's field names: "add to a table" posts straight to it
MIN_BYTES = 100


class PhotoForm(FlaskForm):
    photo = FileField("Photo of the planet")


class ReviewForm(FlaskForm):
    name = StringField("Whose planet?", validators=[Length(max=40)])


def _page(form=None, error=None, status=200):
    return render_template("scan.html", form=form or PhotoForm(), error=error,
                           max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)), status


def _review(cells, doubtful=(), name="", error=None, cell_errors=None, reading=None, status=200):
    grid = grid_editor(PREFIX, cells, doubtful=doubtful, errors=cell_errors, label="The planet as read")
    return render_template("scan_review.html", grid=grid, form=ReviewForm(formdata=None, name=name),
                           name=name, error=error, reading=reading,
                           doubtful_count=sum(1 for c in grid["cells"] if c["doubtful"])), status


@bp.get("/scan")
def scan():
    return _page()


# Both posts check their CSRF token themselves (validate_on_submit) and answer with the page and
# a message, so a stale page keeps the planet being checked instead of ending on an error page.
@bp.post("/scan")
@csrf.exempt
def scan_post():
    form = PhotoForm()
    if not form.validate_on_submit():  # only the CSRF token can fail here
        return _page(form, "This form had expired. Please choose the photo again.", 400)
    upload = request.files.get("photo")
    data = upload.read(MAX_UPLOAD_BYTES + 1) if upload else b""
    if not data:
        return _page(form, "Choose a photo of the finished planet first.", 422)
    if len(data) > MAX_UPLOAD_BYTES:
        return _page(form, f"That file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB. "
                           "A phone photo is usually 2–8 MB.", 413)
    if len(data) < MIN_BYTES:
        return _page(form, "That file is too small to be a photo.", 422)
    try:
        from vision.recognize import recognize
        with one_of_few_scans():
            reading = recognize(data)
    except Busy as busy:
        return _page(form, str(busy), 429)
    except Exception:  # the recognizer promises a Reading; never let a surprise become a 500
        current_app.logger.exception("recognizer failed")
        reading = None
    if reading is None:
        return _page(form, "That photo could not be read. Try a JPEG or PNG taken from above.", 422)
    if not reading.ok:
        return _page(form, reading.error, 422)
    doubtful = [p for p in range(16) if reading.doubtful[p]]
    return _review(reading.cells, doubtful, reading=reading)


@bp.post("/scan/score")
@csrf.exempt
def scan_score():
    form = ReviewForm()
    cells = [(request.form.get(f"{PREFIX}-{p}") or "").strip()[:8] or None for p in range(16)]
    name = (request.form.get("players-0-name") or "").strip()[:40] or "My planet"
    doubtful = [int(p) for p in request.form.getlist("doubtful") if p.isdigit() and int(p) < 16]
    if not form.validate_on_submit():
        return _review(cells, doubtful, name, "This form had expired. Check the planet and score it again.",
                       status=400)
    request_json = {"players": [{"name": name, "planet": {"cells": [cells[r * 4:r * 4 + 4] for r in range(4)]}}]}
    try:
        result = score_request(request_json)
    except InputError as exc:
        cell_errors = {}
        for problem in exc.problems:
            at = problem.where[-2:]
            if problem.where[-3:-2] == ("cells",) and all(isinstance(k, int) for k in at):
                cell_errors.setdefault(int(at[0]) * 4 + int(at[1]), problem.message)
        return _review(cells, doubtful, name, exc.message, cell_errors, status=422)
    table_id = save_table(get_db(), request_json, result)
    return redirect(url_for("pages.table", table_id=table_id), code=303)


__all__ = ["bp", "BACK"]
