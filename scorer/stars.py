"""The sister game, *The Little Prince: Rising to the Stars*: the end-of-game tally (SPEC §3).

Pure: no Flask, no database. A request's JSON is read into typed ``Pilot`` values (every problem
found at once, each an ``InputError`` problem with its ``where``), tallied into ``PilotResult``
lines, and written back as the SPEC's response. ``POST /api/stars/score``, ``python -m scorer
stars`` and the tally page all go through ``score_stars``.

The rules: a pilot's total is their star tokens, plus the stars on each story tile they hold,
plus 6 when they hold both the fox story and the Little Prince story, plus the stars on the
paper plane they took on arrival (none for a pilot who did not arrive, or the sixth to arrive:
the box has 5 planes). Most stars wins; a tie goes to more stars on the paper plane; still tied,
the victory is shared.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Literal

from .errors import InputError, Problem, Where
from .i18n import _, list_words, ngettext
from .jsonin import load_json
from .names import clean_name, name_key

Story = Literal["fox", "little_prince"]
STORIES: tuple[Story, ...] = ("fox", "little_prince")
PAIR_BONUS = 6          # fox + Little Prince: 8 stars instead of the 2 they show
PLANES = 5              # paper planes in the box: a sixth pilot to arrive gets none
MIN_PILOTS, MAX_PILOTS = 2, 6
MAX_PROBLEMS = 20       # a request with thousands of mistakes is answered with the first 20

PILOT_KEYS = frozenset({"name", "star_tokens", "story_tiles", "plane"})
TILE_KEYS = frozenset({"stars", "story"})


def story_name(story: Story) -> str:
    return _("fox story") if story == "fox" else _("Little Prince story")


@dataclass(frozen=True)
class StoryTile:
    stars: int
    story: Story | None = None


@dataclass(frozen=True)
class Pilot:
    name: str
    star_tokens: int = 0
    story_tiles: tuple[StoryTile, ...] = ()
    plane: int = 0  # the stars on the paper plane taken; 0 for none

    @property
    def story_stars(self) -> int:
        return sum(tile.stars for tile in self.story_tiles)

    @property
    def bonus(self) -> int:
        held = {tile.story for tile in self.story_tiles}
        return PAIR_BONUS if held.issuperset(STORIES) else 0

    @property
    def total(self) -> int:
        return self.star_tokens + self.story_stars + self.bonus + self.plane


@dataclass(frozen=True)
class PilotResult:
    """One line of the response, in the SPEC's keys and order."""

    name: str
    star_tokens: int
    story_stars: int
    bonus: int
    plane: int
    total: int
    rank: int
    winner: bool


@dataclass(frozen=True)
class Tally:
    pilots: tuple[PilotResult, ...]

    @property
    def winners(self) -> list[str]:
        return [p.name for p in self.pilots if p.winner]

    def as_json(self) -> dict:
        winners = self.winners
        return {"pilots": [asdict(p) for p in self.pilots], "winners": winners,
                "shared_victory": len(winners) > 1}

    @classmethod
    def from_json(cls, data: dict) -> Tally:
        """A stored response back into a tally (to show it again, in the reader's language)."""
        return cls(tuple(PilotResult(**p) for p in data["pilots"]))


# ---------------------------------------------------------------------------------------------
# the rules


def standing(pilot: Pilot | PilotResult) -> tuple[int, int]:
    """What ranks a pilot: most stars, then most stars on the paper plane."""
    return (pilot.total, pilot.plane)


def tally(pilots: Sequence[Pilot]) -> Tally:
    """Rank the pilots (1, 2, 2, 4: pilots tied on stars and plane share a rank)."""
    keys = [standing(p) for p in pilots]
    lines = []
    for pilot, key in zip(pilots, keys):
        rank = 1 + sum(1 for other in keys if other > key)
        lines.append(PilotResult(pilot.name, pilot.star_tokens, pilot.story_stars, pilot.bonus,
                                 pilot.plane, pilot.total, rank, rank == 1))
    return Tally(tuple(lines))


def tie_break_words(result: Tally) -> str:
    """How the winner was found, for a person: the stars alone, the plane, or a shared victory."""
    winners = [p for p in result.pilots if p.winner]
    if not winners:
        return ""
    best = winners[0]
    level = [p for p in result.pilots if p.total == best.total]
    if len(level) == 1:
        return ngettext("%(winner)s wins with %(num)d star.", "%(winner)s wins with %(num)d stars.",
                        best.total, winner=best.name)
    names = list_words([p.name for p in level])
    if len(level) == 2:
        tied = ngettext("%(names)s both have %(num)d star", "%(names)s both have %(num)d stars",
                        best.total, names=names)
    else:
        tied = ngettext("%(names)s all have %(num)d star", "%(names)s all have %(num)d stars",
                        best.total, names=names)
    if len(winners) == len(level):
        if not best.plane:
            return _("%(tied)s and no paper plane: a shared victory.", tied=tied)
        return _("%(tied)s and %(plane)d on the paper plane: a shared victory.", tied=tied, plane=best.plane)
    if len(winners) > 1:
        return _("%(tied)s; %(names)s have the most on the paper plane (%(plane)d): a shared victory.",
                 tied=tied, names=list_words([p.name for p in winners]), plane=best.plane)
    runner = max(p.plane for p in level if p is not best)
    return _("%(tied)s; %(winner)s wins with more stars on the paper plane (%(plane)d against "
             "%(other)d).", tied=tied, winner=best.name, plane=best.plane, other=runner)


# ---------------------------------------------------------------------------------------------
# reading a request: every problem at once


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Reader:
    """Collects the problems of one request while it is read."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def refuse(self, message: str, *where) -> None:
        self.problems.append(Problem(message, tuple(where)))

    def count(self, value: object, what: str, where: Where) -> int:
        """A whole number ≥ 0, or a problem (and 0)."""
        if not is_whole(value):
            self.refuse(_("%(what)s must be a whole number, like 3, not %(value)s.", what=what,
                          value=json.dumps(value, ensure_ascii=False)[:40]), *where)
            return 0
        if value < 0:
            self.refuse(_("%(what)s cannot be negative (%(value)d).", what=what, value=value), *where)
            return 0
        return value

    def unknown_keys(self, given: dict, known: Iterable[str], who: str, *where) -> None:
        for key in given:
            if key not in known:
                self.refuse(_("%(who)s: %(key)s is not something a tally knows (use %(known)s).",
                              who=who, key=json.dumps(key, ensure_ascii=False)[:40],
                              known=", ".join(sorted(known))), *where, key)


def read_name(reader: Reader, value: object, i: int, seen: set[str]) -> str:
    """The team's name rules (``scorer.names``): non-empty, at most ``limits.MAX_NAME`` characters, no
    invisible characters, and distinct at the table whatever the case or Unicode form."""
    label = _("Pilot %(n)d", n=i + 1)
    try:
        name = clean_name(value, label, ("pilots", i, "name"))
    except InputError as exc:
        reader.problems.extend(exc.problems)
        return label
    if name_key(name) in seen:
        reader.refuse(_("Two pilots are called %(name)s; give each a different name.", name=name),
                      "pilots", i, "name")
    seen.add(name_key(name))
    return name


def read_tile(reader: Reader, raw: object, who: str, where: Where) -> StoryTile:
    if not isinstance(raw, dict):
        reader.refuse(_("%(who)s: a story tile is {\"stars\": 2} or {\"stars\": 1, \"story\": \"fox\"}.",
                        who=who), *where)
        return StoryTile(0)
    reader.unknown_keys(raw, TILE_KEYS, who, *where)
    if "stars" not in raw:
        reader.refuse(_("%(who)s: how many stars does this story tile show?", who=who), *where, "stars")
    stars = reader.count(raw.get("stars", 0), _("%(who)s: a story tile's stars", who=who), (*where, "stars"))
    story = raw.get("story")
    if story is not None and story not in STORIES:
        reader.refuse(_("%(who)s: a story is \"fox\" or \"little_prince\" (or left out), not %(value)s.",
                        who=who, value=json.dumps(story, ensure_ascii=False)[:40]), *where, "story")
        story = None
    return StoryTile(stars, story)


def read_pilot(reader: Reader, raw: object, i: int, seen: set[str]) -> Pilot:
    where = ("pilots", i)
    if not isinstance(raw, dict):
        reader.refuse(_("Pilot %(n)d must be an object with a name and their stars.", n=i + 1), *where)
        return Pilot(_("Pilot %(n)d", n=i + 1))
    name = read_name(reader, raw.get("name"), i, seen)
    reader.unknown_keys(raw, PILOT_KEYS, name, *where)
    tokens = reader.count(raw.get("star_tokens", 0), _("%(who)s: star tokens", who=name), (*where, "star_tokens"))
    plane = raw.get("plane", 0)
    plane = reader.count(0 if plane is None else plane, _("%(who)s: the stars on the paper plane", who=name),
                         (*where, "plane"))
    raw_tiles = raw.get("story_tiles", [])
    if not isinstance(raw_tiles, list):
        reader.refuse(_("%(who)s: story_tiles is a list, like [{\"stars\": 2}].", who=name), *where, "story_tiles")
        raw_tiles = []
    tiles = tuple(read_tile(reader, t, name, (*where, "story_tiles", k)) for k, t in enumerate(raw_tiles))
    return Pilot(name, tokens, tiles, plane)


def check_table(reader: Reader, pilots: Sequence[Pilot]) -> None:
    """What only the whole table can show: one fox story, one Little Prince story, 5 planes."""
    for story in STORIES:
        holders = [(i, k) for i, p in enumerate(pilots) for k, t in enumerate(p.story_tiles) if t.story == story]
        for i, k in holders[1:]:
            owners = list(dict.fromkeys(pilots[j].name for j, _k in holders))
            reader.refuse(_("The box has one %(story)s tile, but it is entered %(n)d times (%(names)s).",
                            story=story_name(story), n=len(holders), names=list_words(owners)),
                          "pilots", i, "story_tiles", k, "story")
    with_plane = [i for i, p in enumerate(pilots) if p.plane]
    if len(with_plane) > PLANES:
        reader.refuse(_("The box has %(planes)d paper planes, but %(n)d pilots have one: the sixth to "
                        "arrive gets none (plane 0).", planes=PLANES, n=len(with_plane)),
                      "pilots", with_plane[-1], "plane")


def read_request(request: object) -> list[Pilot]:
    """The SPEC's request, checked; raises ``InputError`` listing every problem found."""
    reader = Reader()
    if not isinstance(request, dict) or not isinstance(request.get("pilots"), list):
        raise InputError(_("The request is {\"pilots\": [{\"name\": \"Ann\", \"star_tokens\": 7, "
                           "\"story_tiles\": [{\"stars\": 3}], \"plane\": 6}, …]}."), ("pilots",))
    reader.unknown_keys(request, {"pilots"}, _("The request"))
    raw = request["pilots"]
    if not MIN_PILOTS <= len(raw) <= MAX_PILOTS:
        raise InputError(_("A game has %(min)d to %(max)d pilots, not %(n)d.", min=MIN_PILOTS,
                           max=MAX_PILOTS, n=len(raw)), ("pilots",))
    seen: set[str] = set()
    pilots = [read_pilot(reader, p, i, seen) for i, p in enumerate(raw)]
    check_table(reader, pilots)
    if reader.problems:
        raise InputError.of(reader.problems[:MAX_PROBLEMS])
    return pilots


def read_json(raw: bytes | str) -> object:
    """JSON text to a value, with the edge's limits (``scorer.jsonin``)."""
    return load_json(raw)


def score_stars(request: object) -> dict:
    """The whole contract: a parsed request to the SPEC's response."""
    return tally(read_request(request)).as_json()
