"""The scoring form: 2–5 players, each entered by hand counts or tile by tile.

WTForms checks the shape of what was typed (a number is a number, a name fits); the rules
themselves (at most 2 face-up baobabs, face-down tiles in threes, …) are the core's: the form turns
into a scoring request (``table_request``) and an ``InputError`` from the core is shown beside the
field its ``where`` names (``field_for_where``).

Steppers, "add a player" and "remove" are submit buttons, so the whole form works without
JavaScript: ``apply_action`` rewrites the posted data before the form is built, keeping whatever
else was typed.
"""
from __future__ import annotations

import re


from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import Form, StringField
from wtforms.fields import FieldList, FormField, IntegerField
from wtforms.validators import Length

from flask_babel.speaklater import LazyString

from ..catalog import ITEMS
from ..i18n import N_, _
from ..errors import Where
from ..limits import MAX_NAME, MAX_PLAYERS
from ..planet import POSITIONS_OF

MIN_PLAYERS = 2
FACE_DOWN_STEP = 3
COUNT_FIELDS = ITEMS + ("face_down",)
STEP = {"face_down": FACE_DOWN_STEP}
MODES = (("counts", N_("Count items")), ("grid", N_("Tile by tile")))


class CountField(IntegerField):
    """A whole number; an empty box counts as 0. Anything else is kept as typed and explained."""

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        raw = (valuelist[0] or "").strip()
        if raw == "":
            self.data = 0
            return
        if re.fullmatch(r"[+-]?[0-9]{1,6}", raw):
            self.data = int(raw)
            return
        self.data = None
        raise ValueError(_("Type a whole number, like 2 (or use − and +)."))

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "0" if self.data is None else str(self.data)


class PlayerForm(Form):
    name = StringField("Name", validators=[Length(max=MAX_NAME, message=LazyString(lambda: _("A name fits in %(most)d characters.", most=MAX_NAME)))])
    mode = StringField("Enter this planet by", default="counts")  # one of MODES; else counts
    # One of CHARACTERS or "" (the page draws each as a picker of radio cards; the core names
    # anything else).
    characters = FieldList(StringField("Character", default=""), min_entries=4, max_entries=4)
    cells = FieldList(StringField("Tile"), min_entries=16, max_entries=16)
    at = StringField("The square being chosen", default="")  # tile by tile: 0..15 or ""
    doubtful = StringField("Squares a photo left in doubt", default="")  # "3 7 12"


for _item in COUNT_FIELDS:
    setattr(PlayerForm, _item, CountField(_item, default=0))


class ScoreForm(FlaskForm):
    players = FieldList(FormField(PlayerForm), min_entries=MIN_PLAYERS, max_entries=MAX_PLAYERS)


# ---------------------------------------------------------------------------------------------
# posted data → clean data, and the stepper buttons

_KEY = PLAYER_KEY = re.compile(r"players-([0-9]{1,3})-(.+)\Z", re.ASCII)
_ACTION = re.compile(r"(inc|dec)-([0-9]{1,3})-([a-z_]+)\Z|remove-([0-9]{1,3})\Z|add-player\Z|update\Z"
                     r"|(cell|tile|stack|scan)-([0-9]{1,3})\Z", re.ASCII)


def normalise(formdata) -> MultiDict:
    """Posted data with the players numbered 0..n-1 (at most 5) and stray keys dropped."""
    out = MultiDict()
    players: dict[int, list[tuple[str, str]]] = {}
    for key, value in formdata.items(multi=True):
        if not isinstance(value, str):
            continue
        m = _KEY.match(key)
        if m:
            players.setdefault(int(m.group(1)), []).append((m.group(2), value[:200]))
        elif not key.startswith("players"):
            out.add(key, value[:200])
    for new, old in enumerate(sorted(players)[:MAX_PLAYERS]):
        for rest, value in players[old]:
            out.add(f"players-{new}-{rest}", value)
    return out


def count_players(data: MultiDict) -> int:
    seen = {int(m.group(1)) for k in data if (m := _KEY.match(k))}
    return max(MIN_PLAYERS, len(seen))


def find_action(formdata) -> tuple[str, tuple] | None:
    """The button pressed: ("inc"/"dec", player, item), ("remove", player), ("add",)."""
    for key in formdata:
        m = _ACTION.match(key)
        if not m:
            continue
        if m.group(5):  # the tile picker: a square tapped, a tile chosen, a stack chosen
            return m.group(5), (int(m.group(6)), str(formdata.get(key) or "")[:8])
        if m.group(1):
            if m.group(3) in COUNT_FIELDS:
                return m.group(1), (int(m.group(2)), m.group(3))
        elif m.group(4) is not None:
            return "remove", (int(m.group(4)),)
        elif key == "update":
            return "update", ()
        else:
            return "add", ()
    return None


def apply_action(data: MultiDict, action) -> MultiDict:
    """Do what a stepper / add / remove button asks, on the posted data."""
    kind, args = action
    data = MultiDict(data)
    n = count_players(data)
    if kind in ("inc", "dec"):
        i, item = args
        if i < n:
            key = f"players-{i}-{item}"
            raw = (data.get(key) or "0").strip() or "0"
            if re.fullmatch(r"[+-]?[0-9]{1,6}", raw):
                step = STEP.get(item, 1) * (1 if kind == "inc" else -1)
                data[key] = str(max(0, int(raw) + step))
            data[f"players-{i}-mode"] = "counts"
    elif kind in ("cell", "tile", "stack"):
        if args[0] < n:
            pick(data, kind, *args)
    elif kind == "add" and n < MAX_PLAYERS:
        data[f"players-{n}-name"] = ""
        if n < MIN_PLAYERS:  # an untouched form: make sure the ones before exist too
            for j in range(n):
                data.setdefault(f"players-{j}-name", "")
    elif kind == "remove" and n > MIN_PLAYERS:
        (i,) = args
        kept = MultiDict()
        for key, value in data.items(multi=True):
            m = _KEY.match(key)
            if not m:
                kept.add(key, value)
            elif int(m.group(1)) != i:
                kept.add(key, value)
        data = normalise(kept)
    return data


def active_square(data: MultiDict, i: int) -> int | None:
    """The square of player ``i`` the tile picker is choosing for: the one tapped last, else the
    first empty square, else none (the planet is full)."""
    raw = (data.get(f"players-{i}-at") or "").strip()
    if raw.isdigit() and int(raw) < 16:
        return int(raw)
    return next((p for p in range(16) if not (data.get(f"players-{i}-cells-{p}") or "").strip()), None)


def doubtful_squares(data: MultiDict, i: int) -> list[int]:
    raw = (data.get(f"players-{i}-doubtful") or "").split()
    return sorted({int(p) for p in raw if p.isdigit() and int(p) < 16})


def put_reading(data: MultiDict, i: int, reading) -> MultiDict:
    """A photo's reading as player ``i``'s planet, tile by tile, its doubtful squares marked."""
    data = MultiDict(data)
    data[f"players-{i}-mode"] = "grid"
    for p in range(16):
        data[f"players-{i}-cells-{p}"] = reading.cells[p] or ""
    doubtful = [p for p in range(16) if reading.doubtful[p]]
    data[f"players-{i}-doubtful"] = " ".join(map(str, doubtful))
    data[f"players-{i}-at"] = str(doubtful[0]) if doubtful else ""
    return data


def pick(data: MultiDict, kind: str, i: int, value: str) -> None:
    """The tile picker: a square tapped (``cell``), a tile put in the active square (``tile``:
    then on to the next empty square), a stack chosen (``stack``: its first empty square)."""
    data[f"players-{i}-mode"] = "grid"
    cells = [(data.get(f"players-{i}-cells-{p}") or "").strip() for p in range(16)]
    at: int | None = None
    if kind == "cell" and value.isdigit() and int(value) < 16:
        at = int(value)
    elif kind == "stack" and value in POSITIONS_OF:
        places = POSITIONS_OF[value]
        at = next((p for p in places if not cells[p]), places[0])
    elif kind == "tile":
        at = active_square(data, i)
        if at is not None:
            cells[at] = value
            data[f"players-{i}-cells-{at}"] = value
            checked = [p for p in doubtful_squares(data, i) if p != at]  # looked at: no longer in doubt
            data[f"players-{i}-doubtful"] = " ".join(map(str, checked))
            later = [p for p in list(range(at + 1, 16)) + list(range(at)) if not cells[p]]
            at = later[0] if later else None
    data[f"players-{i}-at"] = "" if at is None else str(at)


# ---------------------------------------------------------------------------------------------
# form → scoring request, and the core's complaints → fields


def player_request(entry: PlayerForm, index: int) -> dict:
    name = (entry.form.name.data or "").strip() or _("Player %(n)d", n=index + 1)
    if entry.form.mode.data == "grid":
        cells = [(c.data or "").strip() or None for c in entry.form.cells]
        cells = [c.upper() if c and c.lower() != "back" else (c.lower() if c else None) for c in cells]
        return {"name": name, "planet": {"cells": [cells[r * 4:(r + 1) * 4] for r in range(4)]}}
    counts: dict = {"characters": [c.data for c in entry.form.characters if c.data]}
    for item in COUNT_FIELDS:
        value = getattr(entry.form, item).data or 0
        if value:
            counts[item] = value
    return {"name": name, "counts": counts}


def table_request(form: ScoreForm) -> dict:
    return {"players": [player_request(e, i) for i, e in enumerate(form.players)]}


def field_for_where(form: ScoreForm, where: Where):
    """The form field an ``InputError``'s ``where`` points at (``("players", 1, "counts",
    "baobab")``), or the player's sub-form, or None for the table as a whole."""
    if len(where) < 2 or where[0] != "players" or not isinstance(where[1], int) or where[1] >= len(form.players):
        return None
    player = form.players[where[1]].form
    part, rest = (where[2], where[3:]) if len(where) > 2 else (None, ())
    if part == "name":
        return player.name
    if part == "counts":
        key = rest[0] if rest else None
        if key == "characters":
            index = rest[1] if len(rest) > 1 else None
            return player.characters[index] if isinstance(index, int) and index < 4 else player.characters
        return getattr(player, key) if key in COUNT_FIELDS else player
    if part == "planet":
        if len(rest) == 3 and rest[0] == "cells" and all(isinstance(k, int) and k < 4 for k in rest[1:]):
            return player.cells[int(rest[1]) * 4 + int(rest[2])]
        return player.cells
    return player
