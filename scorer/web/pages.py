"""Pages: home, scoring a table (by hand counts or tile by tile), and a scored table's results.

A thin layer: the form (``scorer.web.forms``) becomes the SPEC's scoring request, the pure core scores
it (``score_request``), and a finished table is stored (``save_table``) and reopened by its link
``/tables/<id>``. Every page works without JavaScript; with it, htmx swaps the live score.

Planets are drawn from one view model (``scorer.web.planet_view``) by one macro.
"""
from __future__ import annotations

import re
from functools import lru_cache

from flask import Blueprint, abort, current_app, redirect, render_template, request, session, url_for
from flask_wtf.csrf import validate_csrf
from werkzeug.datastructures import MultiDict
from wtforms.validators import ValidationError

from ..catalog import CHARACTERS, ITEMS, catalog, character_name, character_rule, item_name
from ..contract import score_request
from ..errors import InputError
from ..db import load_table, save_table
from .forms import (
    PLAYER_KEY, active_square, count_players, doubtful_squares, put_reading, COUNT_FIELDS, FACE_DOWN_STEP, MIN_PLAYERS, MODES, ScoreForm, apply_action, field_for_where,
    find_action, normalise, table_request,
)
from ..planet import planet_from_take_order
from .extensions import csrf, get_db
from .picture import planet_title
from .planet_view import planet
from .ratelimits import busy_message, when_scans_full
from .scan import likely_of_scan, read_photo
from ..i18n import N_, _
from .security import absolute_url

bp = Blueprint("pages", __name__)

ITEM_HELP = {
    "baobab": N_("face up only, 0–2"),
    "star": N_("on character tiles too"),
    "face_down": N_("in threes: 0, 3, 6 or 9"),
}


# ---------------------------------------------------------------------------------------------
# view helpers


@lru_cache(maxsize=1)
def character_cards() -> tuple[dict, ...]:
    """Each character once: id, name, one-line rule and the art of one of its tiles."""
    first_tile = {}
    for tile in catalog().stack("character"):
        first_tile.setdefault(tile.character, tile.id)
    return tuple({"id": c, "tile": first_tile.get(c)} for c in CHARACTERS)


def character_choices() -> tuple[dict, ...]:
    """``character_cards`` with each character's name, rule and initials in the reader's language."""
    return tuple(dict(card, name=character_name(card["id"]), rule=character_rule(card["id"]),
                      initials=initials(character_name(card["id"]))) for card in character_cards())


def initials(name: str) -> str:
    """``Vain Man`` -> ``VM``, ``Le Vaniteux`` -> ``Va``, ``國王`` -> ``國王``: a stand-in for the art, its
    own for each character (a name of one word gives two letters: Geographer ``Ge``, Gardener ``Ga``).
    A qualifier tells the three Businessmen apart: ``Businessman (white)`` -> ``BWh``, ``(brown)`` ->
    ``BBr`` (two letters: French ``blanc`` and ``brun`` start alike), ``商人（白羊）`` -> ``商白``."""
    qualified = re.fullmatch(r"(.+?)\s*[(（]([^)）]+)[)）]", name)
    if qualified:
        main, qualifier = initials(qualified.group(1))[0], qualified.group(2).strip()
        cjk = any("\u2e80" <= ch <= "\u9fff" for ch in qualifier)
        return main + (qualifier[0] if cjk else qualifier[:2].capitalize())
    if any("\u2e80" <= ch <= "\u9fff" for ch in name):
        return name[:2]
    words = [w for w in re.split(r"[\s’']+", name) if w]
    words = [w for w in words if len(w) > 2] or words
    return "".join(w[0] for w in words[:2]) if len(words) > 1 else words[0][:2].capitalize()


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


def shape_errors(form: ScoreForm) -> dict[str, str]:
    """What WTForms finds wrong with what was typed (a count that is not a number, a long name)."""
    errors: dict[str, str] = {}
    for entry in form.players:
        for field in [getattr(entry.form, name) for name in COUNT_FIELDS] + [entry.form.name]:
            field.validate(entry.form)
            if field.errors:
                errors[field.id] = field.errors[0]
    return errors


def evaluate(form: ScoreForm):
    """(result or None, errors {field id: message}): every problem at once, the form's own (a
    count that is not a number) and the rules' (``InputError.problems``), each at its field."""
    errors = shape_errors(form)
    try:
        result = score_request(table_request(form))
    except InputError as exc:
        for problem in exc.problems:
            field = field_for_where(form, problem.where)
            errors.setdefault(field.id if field is not None else "table", problem.message)
        return None, errors
    return (None, errors) if errors else (result, {})


def error_slots(form: ScoreForm) -> list[str]:
    """Every place on the score page an error can be shown (``<id>-error``), in page order."""
    slots = ["table"]
    for i, entry in enumerate(form.players):
        p = entry.form
        slots += [p.name.id, f"players-{i}", p.characters.id] + [getattr(p, n).id for n in COUNT_FIELDS]
        slots.append(p.cells.id)
    return slots


def editors(form: ScoreForm, errors: dict[str, str], likely: dict[int, list[str]] | None = None) -> list:
    """Each player's planet, tile by tile, with its picker (tiles used at the table greyed).
    ``likely``: the first player's planet is a scan being checked, and these its squares' likeliest
    tiles (its picker shows them first)."""
    used = used_tiles(form)
    out = []
    for i, entry in enumerate(form.players):
        cells = [c.data for c in entry.form.cells]
        cell_errors = {int(fid.rsplit("-", 1)[1]): msg for fid, msg in errors.items()
                       if fid.startswith(f"{entry.form.cells.id}-")}
        data = MultiDict({f"players-{i}-at": entry.form.at.data or "", f"players-{i}-doubtful": entry.form.doubtful.data or ""})
        data.update({f"players-{i}-cells-{p}": v or "" for p, v in enumerate(cells)})
        out.append(planet(cells, prefix=entry.form.cells.id, player=i, active=active_square(data, i),
                          filtered=request.form.getlist(f"players-{i}-filter") if request.method == "POST" else (),
                          used=set(used), errors=cell_errors, doubtful=doubtful_squares(data, i),
                          label=_("Planet of player %(n)d", n=i + 1), likely=likely if i == 0 else None))
    return out


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


def score_context(form: ScoreForm, result, errors) -> dict:
    """What ``score.html`` and its ``partials/player_card.html`` need."""
    return dict(form=form, result=result, errors=errors, slots={slot_of(k): v for k, v in errors.items()},
                grids=editors(form, errors), slots_of={k: slot_of(k) for k in errors},
                characters=character_choices(), items=COUNT_FIELDS,
                item_names={k: item_name(k, plural=True) for k in ITEMS},
                item_help={k: _(v) for k, v in ITEM_HELP.items()}, face_down_step=FACE_DOWN_STEP, modes=[(k, _(v)) for k, v in MODES])


def render_score(form: ScoreForm, result, errors, status=200):
    return render_template("score.html", summary=status == 422, **score_context(form, result, errors)), status


def scan_into(data: MultiDict, i: int) -> tuple[MultiDict, str | None]:
    """Player ``i``'s photo (field ``photo-<i>``) read into their planet, or why it could not be."""
    reading, error, _status = read_photo(request.files.get(f"photo-{i}"))
    return (put_reading(data, i, reading), None) if reading is not None else (data, error)


# ---------------------------------------------------------------------------------------------
# routes


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/score")
def score():
    players = request.args.get("players", "")
    n = int(players) if players.isascii() and players.isdigit() and 2 <= int(players) <= 5 else MIN_PLAYERS
    form = build_form(players=n)
    source = request.args.get("from", "")
    if request.args.get("scanned") and session.get("table"):  # planets added from the scan review
        players = [{"name": p["name"], "planet": {"cells": [p["cells"][r * 4:r * 4 + 4] for r in range(4)]}}
                   for p in session["table"][:5]]
        players += [{"name": ""}] * (MIN_PLAYERS - len(players))
        form = ScoreForm(formdata=request_to_formdata({"players": players}))
    elif source:
        row = load_table(get_db(), source[:40])
        if row is not None:
            form = ScoreForm(formdata=request_to_formdata(row.request))
    result, errors = evaluate(form) if source else (None, {})
    return render_score(form, result, {})[0]


EXPIRED = N_("This page had expired, so nothing was scored yet. Everything you entered is still here: "
             "tap See results again.")


NOTHING_ENTERED = N_("Nothing is entered yet. Pick each player's characters and count their planet "
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
        data, error = scan_into(data, action[1][0]) if action[0] == "scan" else (apply_action(data, action), None)
        form = ScoreForm(formdata=data)
        result, errors = evaluate(form)
        if error:
            errors[f"players-{action[1][0]}"] = error
        return render_score(form, result, errors)
    form = ScoreForm(formdata=data)
    if not csrf_ok():  # only saving a table needs the check; the buttons above change nothing stored
        return render_score(form, None, {"table": _(EXPIRED)}, status=400)
    result, errors = evaluate(form)
    if result is None:
        return render_score(form, None, errors, status=422)
    if nothing_entered(table_request(form)):
        return render_score(form, None, {"table": _(NOTHING_ENTERED)}, status=422)
    table_id = save_table(get_db(), table_request(form), result)
    session.pop("table", None)  # the planets added from scans are scored now
    return redirect(url_for("pages.table", table_id=table_id), code=303)


def _camera_busy():
    """A camera button's photo refused before its upload is parsed: the message in that player's
    card (the button's name says which), nothing else changed."""
    i = _camera_player()
    if i is None:
        return None
    return render_template("partials/scan_busy.html", slot=f"players-{i}", message=busy_message())


def _camera_player() -> int | None:
    """Whose camera button sent the photo (htmx names the input, ``photo-<i>``), if it says."""
    m = re.fullmatch(r"photo-([0-9])", request.headers.get("HX-Trigger-Name", ""))
    return int(m.group(1)) if m else None


@bp.post("/score/scan")
@when_scans_full(_camera_busy)
def score_scan():
    """A camera button on the score page (htmx): the photo read into that player's planet, and the
    player's card, the live score and every error slot sent back out of band."""
    data = normalise(request.form)
    i = _camera_player()
    i = count_players(data) if i is None else i
    data, error = scan_into(data, i) if i < count_players(data) else (data, _("Choose a player first."))
    form = ScoreForm(formdata=data)
    result, errors = evaluate(form)
    if error:
        errors[f"players-{i}"] = error
    return render_template("partials/player_swap.html", i=i, shown=[], live=True, slot_ids=error_slots(form),
                           **score_context(form, result, errors))


@bp.post("/score/live")
def score_live():
    """A tap in the tile picker (a square, a tile, a stack), for htmx: the planets being entered
    tile by tile come back out of band, and on the score page the live score and every error slot
    with them. The same taps post the whole form without JavaScript (``score_post``)."""
    data = normalise(request.form)
    action = find_action(request.form)
    if action is not None and action[0] in ("cell", "tile", "stack"):
        data = apply_action(data, action)
    form = ScoreForm(formdata=data)
    result, errors = evaluate(form)
    shown = sorted({int(m.group(1)) for k in data if (m := PLAYER_KEY.match(k))})
    slots = {slot_of(k): v for k, v in errors.items()}
    return render_template("partials/tiles_swap.html", form=form, result=result, errors=errors,
                           grids=editors(form, errors, likely_of_scan(request.form.get("scan", ""))),
                           shown=shown, live="live" in request.form,
                           slots=slots, slot_ids=error_slots(form))


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
        grid = player.get("planet")
        planets.append(planet(grid["cells"], label=_("Planet of %(name)s", name=player["name"]),
                              lit=chosen[1] if chosen else (), self_position=chosen[2] if chosen else None,
                              volcanoes=player.get("volcano_positions") or ())
                       if isinstance(grid, dict) and isinstance(grid.get("cells"), list) else None)
    return render_template("results.html", table_id=table_id, result=result, planets=planets,
                           lit={k: v[0] for k, v in lit.items()}, copy_text=copy_text(result),
                           link=absolute_url("pages.table", table_id=table_id))


def copy_text(result: dict) -> str:
    """The results as plain text for the group chat."""
    lines = [_("Make Me a Planet — results")]
    if len(result["players"]) == 1:  # a planet scored alone: no rank, no win, a penalty that may not apply
        p = result["players"][0]
        maybe = (" (" + _("%(total)s if this planet has the most volcanoes at the table", total=points(p["total"])) + ")"
                 if p["penalty"] else "")
        lines.append(f"{p['name']}: {points(p['subtotal'])}{maybe}")
        lines.extend(f"   {c['detail']}" for c in p["characters"])
        return "\n".join(lines)
    for p in sorted(result["players"], key=lambda p: p["rank"]):
        penalty = (" " + _("(%(subtotal)s − %(lost)s volcanoes)", subtotal=p["subtotal"], lost=-p["penalty"])
                   if p["penalty"] else "")
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
               ("Geographer", "Geo\u00adgrapher"), ("Astronomer", "Astro\u00adnomer"),
               # the French names (Chinese breaks between any two characters by itself)
               ("Géographe", "Géo\u00adgraphe"), ("Astronome", "Astro\u00adnome"), ("Allumeur", "Allu\u00admeur"),
               ("réverbères", "réver\u00adbères"), ("Jardinier", "Jardi\u00adnier"), ("Vaniteux", "Vani\u00adteux"),
               ("Chasseur", "Chas\u00adseur"))


bp.add_app_template_global(planet_title)


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
