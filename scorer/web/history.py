"""After the game: the history of plays, a player's stats, the results picture, BG Stats, and
export / import of every play. Thin: the store (``scorer.history_store``) answers the queries, the
pure core (``scorer.history``) and the picture (``picture``) work out the rest, the templates show it.
"""
from __future__ import annotations

import csv
import io
import json
import threading
import weakref
from math import ceil

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, StringField
from wtforms.validators import DataRequired, Length

from ..db import load_table
from ..history import (
    CSV_FIELDS,
    bgstats_link,
    csv_rows,
    name_key,
    player_stats,
    score_chart,
    utc,
)
from ..tracker_store import mark_finished_games
from ..history_store import (
    ImportFileError,
    MergeError,
    backfill,
    character_totals,
    delete_play,
    export_json,
    games_by_id,
    import_plays,
    iter_plays,
    keys_of,
    list_plays,
    merge,
    play_for_table,
    recent,
    resolve,
    separate,
    spelling,
    totals,
)
from ..i18n import _, ngettext
from .picture import picture
from .security import absolute_url
from .extensions import get_db

bp = Blueprint("history", __name__)
PER_PAGE = 20
RECENT = 30


_backfilled: weakref.WeakSet = weakref.WeakSet()  # per Database (tests share a URL on PostgreSQL)
_backfill_lock = threading.Lock()


def record_earlier_plays(db) -> None:
    """The plays of tables, and of tracked games, stored before plays were recorded."""
    backfill(db)
    mark_finished_games(db)


def plays_db():
    """The database, its older tables (stored before plays were recorded) recorded once."""
    db = get_db()
    if db not in _backfilled:
        with _backfill_lock:
            if db not in _backfilled:
                record_earlier_plays(db)
                _backfilled.add(db)
    return db


class ActionForm(FlaskForm):
    """A button that changes something: only its CSRF token."""


class MergeForm(FlaskForm):
    into = StringField("Same player as", validators=[DataRequired(), Length(max=40)])


class SeparateForm(FlaskForm):
    key = HiddenField(validators=[DataRequired(), Length(max=64)])


class ImportForm(FlaskForm):
    file = FileField("Export file (.json)")


def when(moment) -> str:
    return utc(moment).strftime("%Y-%m-%d %H:%M UTC")


@bp.app_template_filter("when")
def when_filter(moment) -> str:
    return when(moment)


def player_url(name: str) -> str:
    return url_for("history.player", name=name)


# ---------------------------------------------------------------------------------------------
# history


def _page_arg() -> int:
    raw = request.args.get("page", "1")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) < 100_000 else 1


@bp.get("/history")
def history():
    page = _page_arg()
    plays, total = list_plays(plays_db(), page, PER_PAGE)
    before = games_by_id(plays_db(), [p.rematch_of for p in plays if p.rematch_of])
    return render_template("history/history.html", plays=plays, page=page, total=total,
                           pages=max(1, ceil(total / PER_PAGE)), rematch_of=before, form=ActionForm(),
                           deleted=request.args.get("deleted") == "1", player_url=player_url)


@bp.post("/history/<play_id>/delete")
def delete(play_id: str):
    form = ActionForm()
    if not form.validate_on_submit():
        return render_template("error.html", code=400, message=_(
            "This page had expired, so nothing was deleted. Go back, reload and try again.")), 400
    if not delete_play(plays_db(), play_id[:32]):
        abort(404)
    return redirect(url_for("history.history", deleted=1, page=request.args.get("page", 1)), code=303)


# ---------------------------------------------------------------------------------------------
# players


def _player_context(name: str) -> dict | None:
    key = name_key(name)
    if not key or len(key) > 64:
        return None
    with plays_db().engine.connect() as conn:
        canon = resolve(conn, key)
        keys = keys_of(conn, canon)
        shown = spelling(conn, keys)
        if shown is None:
            return None
        stats = player_stats(totals(conn, keys), character_totals(conn, keys))
        plays = recent(conn, keys, RECENT)
        aliases = [(k, spelling(conn, [k]) or k) for k in keys[1:]]
    chart = score_chart([(p.created, p.score) for p in reversed(plays)])
    return {"name": shown, "key": canon, "stats": stats, "recent": plays[:10], "chart": chart,
            "aliases": aliases, "shown_plays": len(plays)}


def _player_page(name: str, merge_form=None, error=None, status=200):
    context = _player_context(name)
    if context is None:
        return render_template("error.html", code=404, message=_(
            "Nobody called “%(name)s” has played a table here yet.", name=name.strip()[:40])), 404
    return render_template("history/player.html", merge_form=merge_form or MergeForm(formdata=None),
                           separate_form=SeparateForm(formdata=None), error=error, **context), status


@bp.get("/players/<path:name>")
def player(name: str):
    return _player_page(name)


@bp.post("/players/<path:name>/merge")
def merge_player(name: str):
    form = MergeForm()
    if not form.validate_on_submit():
        message = (_("Type the other spelling of this player’s name.") if form.into.errors
                   else _("This page had expired. Please try again."))
        return _player_page(name, form, message, 400)
    try:
        merge(plays_db(), name, form.into.data)
    except MergeError as exc:
        return _player_page(name, form, str(exc), 422)
    return redirect(player_url(form.into.data.strip()), code=303)


@bp.post("/players/<path:name>/separate")
def separate_player(name: str):
    form = SeparateForm()
    if not form.validate_on_submit():
        return _player_page(name, None, _("This page had expired. Please try again."), 400)
    separate(plays_db(), form.key.data)
    return redirect(player_url(name), code=303)


# ---------------------------------------------------------------------------------------------
# export and import


def _attachment(body, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f"attachment; filename={filename}"
    return response


def csv_text(db) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
    writer.writeheader()
    for play in iter_plays(db):
        writer.writerows(csv_rows(play))
    return out.getvalue()


@bp.get("/history/export.json")
def export_plays_json():
    return _attachment(stream_with_context(export_json(plays_db())), "application/json", "plays.json")


@bp.get("/history/export.csv")
def export_plays_csv():
    return _attachment(csv_text(plays_db()), "text/csv", "plays.csv")


def _import_page(form=None, message=None, error=None, status=200):
    return render_template("history/import.html", form=form or ImportForm(), message=message,
                           error=error), status


@bp.get("/history/import")
def import_page():
    return _import_page()


@bp.post("/history/import")
def import_post():
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(form, error=_("This page had expired. Please choose the file again."), status=400)
    upload = request.files.get("file")
    raw = upload.read() if upload else b""
    if not raw:
        return _import_page(form, error=_("Choose the export file (plays.json) first."), status=422)
    try:
        added, skipped = import_plays(plays_db(), json.loads(raw))
    except (ValueError, RecursionError) as exc:
        text = str(exc) if isinstance(exc, ImportFileError) else _("That file is not JSON.")
        return _import_page(form, error=_("Nothing was imported: %(why)s", why=text), status=422)
    return _import_page(message=import_message(added, skipped))


def import_message(added: int, skipped: int) -> str:
    text = ngettext("%(num)s play added.", "%(num)s plays added.", added)
    if skipped:
        text += " " + ngettext("%(num)s was already here.", "%(num)s were already here.", skipped)
    return text


# ---------------------------------------------------------------------------------------------
# a table's picture, and what the results page offers after the game


@bp.get("/tables/<table_id>/picture.png", defaults={"kind": "png"})
@bp.get("/tables/<table_id>/picture.webp", defaults={"kind": "webp"})
def table_picture(table_id: str, kind: str):
    """The results picture: PNG to share and for link previews, WebP to show in the page."""
    row = load_table(plays_db(), table_id[:40])
    if row is None:
        abort(404)
    response = Response(picture(row.result, utc(row.created).strftime("%Y-%m-%d"), kind), mimetype=f"image/{kind}")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.app_template_global()
def after_game(table_id: str) -> dict:
    """What the results page shows after the game: the picture and the BG Stats link."""
    play = play_for_table(plays_db(), table_id)
    return {
        "picture": url_for("history.table_picture", table_id=table_id, kind="png"),
        "shown": url_for("history.table_picture", table_id=table_id, kind="webp"),
        "picture_abs": absolute_url("history.table_picture", table_id=table_id, kind="png"),
        "filename": f"make-me-a-planet-{table_id}.png",
        "bgstats": bgstats_link(play) if play else None,
        "history": url_for("history.history"),
        "players": [(p.name, player_url(p.name)) for p in play.players] if play and play.counted else [],
    }

