"""Pages: home, scoring a table (by hand counts or tile by tile), and a scored table's results.

A thin layer: the form (``scorer.web.forms``) becomes the SPEC's scoring request, the pure core scores
it (``score_request``), and a finished table is stored (``save_table``) and reopened by its link
``/tables/<id>``. Every page works without JavaScript; with it, htmx swaps the live score.

The grid editor helpers (``grid_editor``, ``planet_view``) are shared with the photo scanner page.
"""
from __future__ import annotations

import gzip
from functools import lru_cache

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_wtf.csrf import validate_csrf
from werkzeug.datastructures import MultiDict
from wtforms.validators import ValidationError

from ..catalog import (
    CHARACTER_NAMES, CHARACTER_RULES, CHARACTERS, ITEM_NAMES, STACK_NAMES, catalog,
)
from ..contract import score_request
from ..errors import InputError
from ..db import load_table, save_table
from .forms import (
    COUNT_FIELDS, FACE_DOWN_STEP, MIN_PLAYERS, MODES, ScoreForm, apply_action, field_for_where,
    find_action, normalise, table_request,
)
from ..planet import BACK, POSITIONS_OF, STACK_AT, planet_from_take_order, position_words
from .extensions import csrf, get_db
from .security import absolute_url

bp = Blueprint("pages", __name__)

ITEM_HELP = {
    "baobab": "face up only, 0–2",
    "star": "on character tiles too",
    "face_down": "in threes: 0, 3, 6 or 9",
}


# ---------------------------------------------------------------------------------------------
# view helpers (the scanner page reuses grid_editor / planet_view)


@lru_cache(maxsize=1)
def character_cards() -> tuple[dict, ...]:
    """Each character once: id, name, one-line rule and the art of one of its tiles."""
    first_tile = {}
    for tile in catalog().stack("character"):
        first_tile.setdefault(tile.character, tile.id)
    return tuple({"id": c, "name": CHARACTER_NAMES[c], "rule": CHARACTER_RULES[c],
                  "tile": first_tile.get(c), "initials": "".join(w[0] for w in CHARACTER_NAMES[c].split()[:2])}
                 for c in CHARACTERS)


def art_url(tile_id: str | None) -> str | None:
    if not tile_id:
        return None
    return url_for("art.tile_art", name=tile_id)


@lru_cache(maxsize=1)
def _stack_options() -> dict[str, tuple[tuple[str, str], ...]]:
    out = {}
    for stack in POSITIONS_OF:
        out[stack] = tuple((t.id, f"{t.id} · {t.describe()}") for t in catalog().stack(stack))
    return out


def tile_label(value: str | None) -> str:
    if not value:
        return ""
    if value == BACK:
        return "face down"
    cat = catalog()
    return cat[value].describe() if value in cat else value


def grid_editor(prefix: str, cells, used=(), doubtful=(), errors=None, label: str = "") -> dict:
    """The view model of ``partials/grid_editor.html``.

    ``prefix``: input names are ``<prefix>-<position>`` (0..15, row-major).
    ``cells``: 16 values, each a tile id, ``"back"`` or None/"" (empty).
    ``used``: tile ids taken elsewhere at this table (offered greyed out, not choosable).
    ``doubtful``: positions to outline (a photo reading the scanner is unsure of).
    ``errors``: {position: message} for cells at fault.
    """
    cells = list(cells or [])[:16] + [None] * (16 - len(cells or []))
    errors = errors or {}
    doubtful = set(doubtful or ())
    used = set(used or ())
    cat = catalog()
    out = []
    for p in range(16):
        stack = STACK_AT[p]
        value = (cells[p] or "") if isinstance(cells[p], str) else ""
        options = [{"value": "", "label": "— empty —", "disabled": False}]
        if stack != "character":
            options.append({"value": BACK, "label": "Face down (baobab turned over)", "disabled": False})
        known = False
        for tile_id, text in _stack_options()[stack]:
            known = known or tile_id == value
            options.append({"value": tile_id, "label": text + (" (used)" if tile_id in used and tile_id != value else ""),
                            "disabled": tile_id in used and tile_id != value})
        if value and value != BACK and not known:
            options.append({"value": value, "label": f"{value} (not a {STACK_NAMES[stack]} tile)", "disabled": False})
        shown = value if value == BACK or value in cat else ""
        out.append({
            "position": p, "stack": stack, "stack_name": STACK_NAMES[stack],
            "where": position_words(p), "name": f"{prefix}-{p}", "id": f"{prefix}-{p}",
            "value": value, "art": art_url(shown) if shown else None,
            "text": tile_label(shown), "options": options,
            "doubtful": p in doubtful, "error": errors.get(p),
        })
    return {"prefix": prefix, "label": label, "cells": out}


def grid_from_reading(cells, doubt_below: float = 0.75) -> tuple[list, set]:
    """A photo reading (``vision recognize``: 4 rows of ``{"tile", "confidence"}``) as
    ``grid_editor`` inputs: the 16 cell values and the positions to outline as doubtful."""
    flat = [c for row in (cells or []) for c in (row or [])][:16]
    values, doubtful = [], set()
    for p, cell in enumerate(flat):
        cell = cell if isinstance(cell, dict) else {}
        tile = cell.get("tile")
        values.append(tile if isinstance(tile, str) else None)
        confidence = cell.get("confidence", 1)
        if isinstance(confidence, (int, float)) and confidence < doubt_below:
            doubtful.add(p)
    return values, doubtful


def planet_view(grid: dict | None, highlight=(), volcanoes=(), self_position=None) -> list[dict] | None:
    """A planet grid JSON (result ``planet``) as 16 cells for ``partials/planet_view.html``;
    ``highlight``: positions lit (what a character counted), ``self_position``: that character's
    own tile (outlined)."""
    if not grid or not isinstance(grid.get("cells"), list):
        return None
    flat = [v for row in grid["cells"] for v in row]
    highlight = set(highlight or ())
    cells = []
    for p, value in enumerate(flat):
        shown = value if isinstance(value, str) and (value == BACK or value in catalog()) else None
        cells.append({"position": p, "value": value, "art": art_url(shown), "text": tile_label(shown),
                      "stack": STACK_AT[p], "lit": p in highlight, "self": p == self_position,
                      "volcano": p in set(volcanoes or ())})
    return cells


# ---------------------------------------------------------------------------------------------
# the form, scored


def used_tiles(form: ScoreForm) -> dict[str, str]:
    """Tile id → the input that holds it, over every tile-by-tile player."""
    owner = {}
    for entry in form.players:
        if entry.form.mode.data == "grid":
            for cell in entry.form.cells:
                v = (cell.data or "").strip().upper()
                if v and v != "BACK":
                    owner.setdefault(v, cell.id)
    return owner


def evaluate(form: ScoreForm):
    """(result or None, errors {field id: message}, error slots {field id: slot id})."""
    errors: dict[str, str] = {}
    for entry in form.players:
        for name in COUNT_FIELDS:
            field = getattr(entry.form, name)
            field.validate(entry.form)
            if field.errors:
                errors[field.id] = field.errors[0]
        entry.form.name.validate(entry.form)
        if entry.form.name.errors:
            errors[entry.form.name.id] = entry.form.name.errors[0]
    if errors:
        return None, errors
    try:
        return score_request(table_request(form)), {}
    except InputError as exc:
        for problem in exc.problems:
            field = field_for_where(form, problem.where)
            errors.setdefault(field.id if field is not None else "table", problem.message)
        return None, errors


def slot_of(field_id: str) -> str:
    """The id of the element that shows a field's error (grid cells share their grid's)."""
    head, _, tail = field_id.rpartition("-")
    if head.endswith("-cells") and tail.isdigit():
        return head
    if head.endswith("-characters") and tail.isdigit():
        return head
    return field_id


def build_form(formdata=None, players: int = MIN_PLAYERS) -> ScoreForm:
    if formdata is None:
        data = MultiDict({f"players-{i}-name": "" for i in range(players)})
        return ScoreForm(formdata=data)
    return ScoreForm(formdata=formdata)


def render_score(form: ScoreForm, result, errors, status=200):
    used = used_tiles(form)
    grids = []
    for i, entry in enumerate(form.players):
        cells = [c.data for c in entry.form.cells]
        cell_errors = {int(fid.rsplit("-", 1)[1]): msg for fid, msg in errors.items()
                       if fid.startswith(f"{entry.form.cells.id}-")}
        grids.append(grid_editor(entry.form.cells.id, cells, used=set(used), errors=cell_errors,
                                 label=f"Planet of player {i + 1}"))
    slots = {slot_of(k): v for k, v in errors.items()}
    return render_template(
        "score.html", form=form, result=result, errors=errors, slots=slots, grids=grids,
        summary=status == 422, slots_of={k: slot_of(k) for k in errors},
        characters=character_cards(), items=COUNT_FIELDS, item_names=ITEM_NAMES,
        item_help=ITEM_HELP, face_down_step=FACE_DOWN_STEP, modes=MODES,
    ), status


# ---------------------------------------------------------------------------------------------
# routes


@bp.after_request
def compress(response):
    """Gzip these pages' HTML: the score form repeats itself a lot (tile lists, pickers), so
    ~150 KB shrinks to ~15 KB on the phone's connection. Only this blueprint's responses."""
    if (response.status_code < 200 or response.direct_passthrough or response.mimetype != "text/html"
            or "Content-Encoding" in response.headers
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    data = response.get_data()
    if len(data) < 1400:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/score")
def score():
    players = request.args.get("players", "")
    n = int(players) if players.isascii() and players.isdigit() and 2 <= int(players) <= 5 else MIN_PLAYERS
    form = build_form(players=n)
    source = request.args.get("from", "")
    if source:
        row = load_table(get_db(), source[:40])
        if row is not None:
            form = ScoreForm(formdata=request_to_formdata(row.request))
    result, errors = evaluate(form) if source else (None, {})
    return render_score(form, result, {})[0]


EXPIRED = ("This page had expired, so nothing was scored yet. Everything you entered is still here: "
           "tap See results again.")


NOTHING_ENTERED = ("Nothing is entered yet. Pick each player's characters and count their planet "
                   "(or tap in its tiles), then tap See results.")


def nothing_entered(req: dict) -> bool:
    """True when no player has a character, a count or a tile: a stray tap on "See results"
    would otherwise store an all-zero table and call it a shared victory."""
    for player in req["players"]:
        if "counts" in player and (player["counts"].get("characters") or len(player["counts"]) > 1):
            return False
        if "planet" in player and any(v for row in player["planet"]["cells"] for v in row):
            return False
    return True


def csrf_ok() -> bool:
    """The CSRF check, done by the view rather than before it: a failed check must not throw
    away a whole table typed in (a phone that dropped its session cookie mid-game)."""
    if not current_app.config.get("WTF_CSRF_ENABLED", True):
        return True
    try:
        validate_csrf(request.form.get("csrf_token"))
        return True
    except ValidationError:
        return False


@bp.post("/score")
@csrf.exempt  # saving is checked below, by csrf_ok(), so that a stale page keeps what was typed
def score_post():
    data = normalise(request.form)
    action = find_action(request.form)
    if action is not None or "finish" not in request.form:
        if action is None:
            action = ("update", ())
        data = apply_action(data, action)
        form = ScoreForm(formdata=data)
        result, errors = evaluate(form)
        return render_score(form, result, errors)
    form = ScoreForm(formdata=data)
    if not csrf_ok():  # only saving a table needs the check; the buttons above change nothing stored
        return render_score(form, None, {"table": EXPIRED}, status=400)
    result, errors = evaluate(form)
    if result is None:
        return render_score(form, None, errors, status=422)
    if nothing_entered(table_request(form)):
        return render_score(form, None, {"table": NOTHING_ENTERED}, status=422)
    table_id = save_table(get_db(), table_request(form), result)
    return redirect(url_for("pages.table", table_id=table_id), code=303)


@bp.post("/score/live")
def score_live():
    """The live score fragment, for htmx: the form as it stands, scored."""
    form = ScoreForm(formdata=normalise(request.form))
    result, errors = evaluate(form)
    return render_template("partials/live_score.html", form=form, result=result, errors=errors,
                           slots={k: slot_of(k) for k in errors})


@bp.get("/tables/<table_id>")
def table(table_id: str):
    row = load_table(get_db(), table_id[:40])
    if row is None:
        abort(404)
    result = row.result
    show = request.args.get("show", "")
    lit: dict[int, set] = {}
    try:
        pi, ci = (int(x) for x in show.split(".", 1))
        character = result["players"][pi]["characters"][ci]
        lit = {pi: (ci, set(character.get("positions") or ()), character.get("position"))}
    except (ValueError, IndexError, KeyError, TypeError):
        lit = {}
    planets = []
    for pi, player in enumerate(result["players"]):
        chosen = lit.get(pi)
        planets.append(planet_view(player.get("planet"), chosen[1] if chosen else (),
                                   player.get("volcano_positions"), chosen[2] if chosen else None))
    return render_template("results.html", table_id=table_id, result=result, planets=planets,
                           lit={k: v[0] for k, v in lit.items()}, copy_text=copy_text(result),
                           link=absolute_url("pages.table", table_id=table_id))


def copy_text(result: dict) -> str:
    """The results as plain text for the group chat."""
    lines = ["Make Me a Planet — results"]
    if len(result["players"]) == 1:  # a planet scored alone: no rank, no win, a penalty that may not apply
        p = result["players"][0]
        maybe = (f" ({points(p['total'])} if this planet has the most volcanoes at the table)"
                 if p["penalty"] else "")
        lines.append(f"{p['name']}: {points(p['subtotal'])}{maybe}")
        lines.extend(f"   {c['detail']}" for c in p["characters"])
        return "\n".join(lines)
    for p in sorted(result["players"], key=lambda p: p["rank"]):
        penalty = f" ({p['subtotal']} − {-p['penalty']} volcanoes)" if p["penalty"] else ""
        crown = " ★" if p["winner"] else ""
        lines.append(f"{p['rank']}. {p['name']}: {points(p['total'])}{penalty}{crown}")
        for c in p["characters"]:
            lines.append(f"   {c['detail']}")
    lines.append(result.get("penalty_explained", ""))
    lines.append(result.get("tie_break_explained", ""))
    return "\n".join(l for l in lines if l)


def request_to_formdata(req: dict) -> MultiDict:
    """A stored scoring request back into the form's fields (to edit a scored table)."""
    data = MultiDict()
    for i, player in enumerate(req.get("players", [])[:5]):
        data[f"players-{i}-name"] = player.get("name", "")
        if "tiles" in player:  # a take order (the tracker's): the planet it built, flips and all
            try:
                player = {"planet": planet_from_take_order(player["tiles"])[0].as_grid()}
            except (ValueError, KeyError, TypeError):
                continue
        if "planet" in player:
            data[f"players-{i}-mode"] = "grid"
            flat = [v for row in player["planet"]["cells"] for v in row]
            for p, v in enumerate(flat):
                data[f"players-{i}-cells-{p}"] = v or ""
        elif "counts" in player:
            counts = player["counts"]
            data[f"players-{i}-mode"] = "counts"
            for k, ch in enumerate(counts.get("characters", [])[:4]):
                data[f"players-{i}-characters-{k}"] = ch
            for item in COUNT_FIELDS:
                data[f"players-{i}-{item}"] = str(counts.get(item, 0))
    return data


SOFT_BREAKS = (("Businessman", "Business\u00adman"), ("Lamplighter", "Lamp\u00adlighter"),
               ("Geographer", "Geo\u00adgrapher"), ("Astronomer", "Astro\u00adnomer"))


@bp.app_template_filter("soft_breaks")
def soft_breaks(name: str) -> str:
    """Long character names with soft hyphens, so a narrow picker breaks them where a reader would."""
    for word, soft in SOFT_BREAKS:
        name = name.replace(word, soft)
    return name


@bp.app_template_filter("points")
def points(n) -> str:
    """A score with a real minus sign: −4, not -4."""
    return f"−{-n}" if isinstance(n, int) and n < 0 else str(n)


@bp.app_template_filter("without_name")
def without_name(detail: str, name: str) -> str:
    """"Hunter — 4 species × 3 = 12" under the heading Hunter reads "4 species × 3 = 12"."""
    prefix = f"{name} — "
    return detail[len(prefix):] if isinstance(detail, str) and detail.startswith(prefix) else detail
