"""Rising to the Stars: the tally page, its live total, a stored tally, and the JSON API.

Thin: the form (``scorer.stars_forms``) becomes the SPEC §3 request, the pure core tallies it
(``scorer.stars``), and a finished tally is stored (``scorer.stars_store``) and reopened by its
link ``/stars/<id>``. The page works without JavaScript; with it, htmx swaps the live totals.
"""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from ..errors import InputError
from ..i18n import _, ngettext
from ..stars import (
    MAX_PILOTS,
    MIN_PILOTS,
    Tally,
    read_json,
    score_stars,
    tie_break_words,
)
from ..stars_store import load_tally, save_tally
from .security import absolute_url
from .extensions import csrf, get_db
from .pages import csrf_ok
from .stars_forms import (
    MAX_TILES,
    StarsForm,
    apply_action,
    blank,
    find_action,
    normalise,
    request_to_formdata,
    slot_for,
    slots_of,
    tally_request,
)

bp = Blueprint("stars", __name__)


@bp.post("/api/stars/score")
@csrf.exempt  # JSON clients, no cookies or sessions involved
def api_score():
    try:
        return jsonify(score_stars(read_json(request.get_data(cache=False))))
    except InputError as exc:
        return jsonify(exc.as_json()), 400


def evaluate(form: StarsForm) -> tuple[dict | None, dict[str, str]]:
    """(the tally's JSON, or None; the problems as {slot id: message}, every one at once)."""
    try:
        return score_stars(tally_request(form)), {}
    except InputError as exc:
        slots = slots_of(form)
        errors: dict[str, str] = {}
        for problem in exc.problems:
            errors.setdefault(slot_for(problem.where, slots), problem.message)
        return None, errors


def render_form(form: StarsForm, result, errors, status=200, summary=False):
    return render_template("stars.html", form=form, result=result, errors=errors, summary=summary,
                           max_pilots=MAX_PILOTS, min_pilots=MIN_PILOTS, max_tiles=MAX_TILES), status


@bp.get("/stars")
def tally_page():
    source = request.args.get("from", "")
    row = load_tally(get_db(), source) if source else None
    if row is not None:
        form = StarsForm(formdata=request_to_formdata(row.request))
        return render_form(form, *evaluate(form))
    pilots = request.args.get("pilots", "")
    form = StarsForm(formdata=blank(int(pilots) if pilots.isascii() and pilots.isdigit() else MIN_PILOTS))
    return render_form(form, None, {})


def nothing_entered() -> str:
    return _("Nothing is entered yet: every pilot has 0 stars. Count each pilot's stars, then tap "
             "See who wins.")


def expired() -> str:
    return _("This page had expired, so nothing was stored yet. Everything you entered is still "
             "here: tap See who wins again.")


@bp.post("/stars")
@csrf.exempt  # checked below by csrf_ok(): a stale page must keep what was typed
def tally_post():
    data = normalise(request.form)
    action = find_action(request.form)
    if action is not None or "finish" not in request.form:
        form = StarsForm(formdata=apply_action(data, action) if action else data)
        return render_form(form, *evaluate(form))
    form = StarsForm(formdata=data)
    if not csrf_ok():
        return render_form(form, None, {"pilots": expired()}, 400, summary=True)
    result, errors = evaluate(form)
    if result is None:
        return render_form(form, None, errors, 422, summary=True)
    if not any(p["total"] for p in result["pilots"]):
        return render_form(form, None, {"pilots": nothing_entered()}, 422, summary=True)
    tally_id = save_tally(get_db(), tally_request(form), result)
    return redirect(url_for("stars.stored", tally_id=tally_id), code=303)


@bp.post("/stars/live")
def live():
    """The live totals, for htmx: the form as it stands, tallied."""
    form = StarsForm(formdata=normalise(request.form))
    result, errors = evaluate(form)
    return render_template("partials/stars_live.html", form=form, result=result, errors=errors, oob=True)


@bp.get("/stars/<tally_id>")
def stored(tally_id: str):
    row = load_tally(get_db(), tally_id)
    if row is None:
        abort(404)
    result = Tally.from_json(row.result)
    words = tie_break_words(result)
    return render_template("stars_result.html", tally_id=row.id, result=result, words=words,
                           copy_text=copy_text(result, words),
                           link=absolute_url("stars.stored", tally_id=row.id))


def copy_text(result: Tally, words: str) -> str:
    """The tally as plain text for the group chat."""
    lines = [_("Rising to the Stars — results")]
    for p in sorted(result.pilots, key=lambda p: p.rank):
        lines.append(ngettext("%(rank)d. %(name)s: %(num)d star", "%(rank)d. %(name)s: %(num)d stars",
                              p.total, rank=p.rank, name=p.name) + (" ★" if p.winner else ""))
    lines.append(words)
    return "\n".join(lines)
