"""The Rising to the Stars tally form: 2–6 pilots, each with star tokens, story tiles and a plane.

Field names mirror the JSON request (``pilots-1-story_tiles-0-stars`` is
``pilots[1].story_tiles[0].stars``), so every problem the core finds (``InputError`` problems,
``where`` tuples) lands beside its own field: ``slot_for`` turns a ``where`` into a field id.
WTForms carries the fields and the CSRF token; the rules and the number checks are the core's,
so a page and ``POST /api/stars/score`` refuse the same things with the same words.

Steppers, "add a pilot", "add a story tile" and "remove" are submit buttons, so the whole form
works without JavaScript: ``apply_action`` rewrites the posted data before the form is built.
"""
from __future__ import annotations

import re

from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import Form, StringField
from wtforms.fields import FieldList, FormField

from ..errors import Where
from ..i18n import _
from ..stars import MAX_PILOTS, MIN_PILOTS, STORIES

MAX_TILES = 12           # story tiles one pilot's card offers (the JSON takes any number)
MAX_VALUE = 999          # a stepper stops here; typing more is the core's to refuse or take
COUNTS = ("star_tokens", "plane")
NEW_TILE_STARS = "1"     # a new story tile starts at 1 star: one tap fewer for most tiles


class StoryTileForm(Form):
    stars = StringField(default=NEW_TILE_STARS)
    story = StringField(default="")  # "", or one of STORIES


class PilotForm(Form):
    name = StringField()
    star_tokens = StringField(default="0")
    plane = StringField(default="0")
    story_tiles = FieldList(FormField(StoryTileForm), min_entries=0, max_entries=MAX_TILES)


class StarsForm(FlaskForm):
    pilots = FieldList(FormField(PilotForm), min_entries=MIN_PILOTS, max_entries=MAX_PILOTS)


def blank(pilots: int = MIN_PILOTS) -> MultiDict:
    pilots = pilots if MIN_PILOTS <= pilots <= MAX_PILOTS else MIN_PILOTS
    return MultiDict({f"pilots-{i}-name": "" for i in range(pilots)})


# ---------------------------------------------------------------------------------------------
# posted data → clean data, and the buttons

_PILOT = re.compile(r"pilots-([0-9]{1,3})-(?:story_tiles-([0-9]{1,3})-)?([a-z_]+)\Z", re.ASCII)
_ACTION = re.compile(r"(inc|dec)-(pilots-[0-9]{1,3}-(?:star_tokens|plane|story_tiles-[0-9]{1,3}-stars))\Z"
                     r"|remove-([0-9]{1,3})\Z|add-tile-([0-9]{1,3})\Z|remove-tile-([0-9]{1,3})-([0-9]{1,3})\Z"
                     r"|add-pilot\Z", re.ASCII)


def normalise(formdata) -> MultiDict:
    """Posted data with pilots (at most 6) and their story tiles (at most 12) numbered from 0,
    values cut to 200 characters, and stray keys dropped."""
    out = MultiDict({k: v[:200] for k, v in formdata.items() if k == "csrf_token" and isinstance(v, str)})
    fields: dict[int, dict[int | None, list[tuple[str, str]]]] = {}
    for key, value in formdata.items(multi=True):
        m = _PILOT.match(key)
        if m and isinstance(value, str):
            tile = int(m.group(2)) if m.group(2) is not None else None
            fields.setdefault(int(m.group(1)), {}).setdefault(tile, []).append((m.group(3), value[:200]))
    for i, old in enumerate(sorted(fields)[:MAX_PILOTS]):
        own = fields[old]
        for name, value in own.get(None, []):
            out.add(f"pilots-{i}-{name}", value)
        out.setdefault(f"pilots-{i}-name", "")
        tiles = sorted(k for k in own if k is not None)[:MAX_TILES]
        for k, old_tile in enumerate(tiles):
            for name, value in own[old_tile]:
                out.add(f"pilots-{i}-story_tiles-{k}-{name}", value)
    return out


def find_action(formdata) -> tuple[str, tuple] | None:
    """The button pressed: ("inc"/"dec", field name), ("remove", i), ("add-tile", i),
    ("remove-tile", i, k) or ("add-pilot",)."""
    for key in formdata:
        m = _ACTION.match(key)
        if not m:
            continue
        if m.group(1):
            return m.group(1), (m.group(2),)
        if m.group(3) is not None:
            return "remove", (int(m.group(3)),)
        if m.group(4) is not None:
            return "add-tile", (int(m.group(4)),)
        if m.group(5) is not None:
            return "remove-tile", (int(m.group(5)), int(m.group(6)))
        return "add-pilot", ()
    return None


def pilot_count(data: MultiDict) -> int:
    return len({m.group(1) for k in data if (m := _PILOT.match(k))})


def tile_count(data: MultiDict, i: int) -> int:
    return len({m.group(2) for k in data if (m := _PILOT.match(k)) and int(m.group(1)) == i and m.group(2)})


def without(data: MultiDict, prefix: str) -> MultiDict:
    return normalise(MultiDict([(k, v) for k, v in data.items(multi=True) if not k.startswith(prefix)]))


def step(data: MultiDict, field: str, by: int) -> None:
    raw = (data.get(field) or "0").strip() or "0"
    if re.fullmatch(r"[0-9]{1,6}", raw):
        data[field] = str(min(MAX_VALUE, max(0, int(raw) + by)))


def apply_action(data: MultiDict, action) -> MultiDict:
    """Do what a stepper, add or remove button asks, on the (normalised) posted data."""
    kind, args = action
    data = MultiDict(data)
    n = pilot_count(data)
    if kind in ("inc", "dec"):
        field = args[0]
        if int(field.split("-")[1]) < n and (field in data or field.endswith(COUNTS)):
            step(data, field, 1 if kind == "inc" else -1)
    elif kind == "add-pilot" and n < MAX_PILOTS:
        data[f"pilots-{n}-name"] = ""
    elif kind == "remove" and n > MIN_PILOTS:
        data = without(data, f"pilots-{args[0]}-")
    elif kind == "add-tile" and args[0] < n and tile_count(data, args[0]) < MAX_TILES:
        k = tile_count(data, args[0])
        data[f"pilots-{args[0]}-story_tiles-{k}-stars"] = NEW_TILE_STARS
        data[f"pilots-{args[0]}-story_tiles-{k}-story"] = ""
    elif kind == "remove-tile":
        data = without(data, f"pilots-{args[0]}-story_tiles-{args[1]}-")
    return data


# ---------------------------------------------------------------------------------------------
# form → the JSON request, and the core's problems → fields


def number(raw: str | None) -> int | str:
    """A typed box as the request has it: an empty box is 0, a whole number is a number, and
    anything else goes to the core as typed, to be refused beside its field."""
    text = (raw or "").strip()
    if text == "":
        return 0
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,9}", text) else text


def pilot_request(entry: PilotForm, i: int) -> dict:
    tiles = []
    for tile in entry.story_tiles:
        one: dict = {"stars": number(tile.form.stars.data)}
        story = (tile.form.story.data or "").strip()
        if story:
            one["story"] = story
        tiles.append(one)
    return {"name": (entry.name.data or "").strip() or _("Pilot %(n)d", n=i + 1),
            "star_tokens": number(entry.star_tokens.data), "story_tiles": tiles,
            "plane": number(entry.plane.data)}


def tally_request(form: StarsForm) -> dict:
    return {"pilots": [pilot_request(e.form, i) for i, e in enumerate(form.pilots)]}


def slot_for(where: Where, slots: set[str]) -> str:
    """The id of the field (or the pilot's card, or the table) a problem's ``where`` points at."""
    parts = [str(k) for k in where]
    while parts:
        slot = "-".join(parts)
        if slot in slots:
            return slot
        parts.pop()
    return "pilots"


def slots_of(form: StarsForm) -> set[str]:
    out = {"pilots"}
    for i, entry in enumerate(form.pilots):
        out |= {f"pilots-{i}", f"pilots-{i}-name", f"pilots-{i}-star_tokens", f"pilots-{i}-plane",
                f"pilots-{i}-story_tiles"}
        for k, _tile in enumerate(entry.form.story_tiles):
            out |= {f"pilots-{i}-story_tiles-{k}-stars", f"pilots-{i}-story_tiles-{k}-story"}
    return out


def request_to_formdata(req: dict) -> MultiDict:
    """A stored request back into the form's fields (to correct a stored tally)."""
    data = MultiDict()
    for i, pilot in enumerate(req.get("pilots", [])[:MAX_PILOTS]):
        data[f"pilots-{i}-name"] = str(pilot.get("name", ""))
        for key in COUNTS:
            data[f"pilots-{i}-{key}"] = str(pilot.get(key) or 0)
        for k, tile in enumerate(pilot.get("story_tiles", [])[:MAX_TILES]):
            data[f"pilots-{i}-story_tiles-{k}-stars"] = str(tile.get("stars", 0))
            data[f"pilots-{i}-story_tiles-{k}-story"] = tile.get("story") if tile.get("story") in STORIES else ""
    return data
