"""Plays after the game, as plain records: who played, what each scored, and what follows from it
(a player's stats, the chart of their scores, the BG Stats import link, the CSV rows).

Pure: no Flask, no database. ``scorer.history_store`` keeps the records; the web layer shows them.
A play is one scored table (by hand, scanned, or the end of a tracked game) and its result JSON
(SPEC §2 scoring response) is the only source of its figures.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from .catalog import CHARACTER_NAMES
from .i18n import _
from .limits import MAX_NAME
from .names import name_key as same_player_key

GAME_NAME = "The Little Prince: Make Me a Planet"
SOURCE_NAME = "Make Me a Planet companion"
SOURCE_GAME_ID = "make-me-a-planet"
# BoardGameGeek's id for the game could not be confirmed from any source reachable here (the one
# page that offered one, 127398, is Legends of Andor's). BG Stats matches a game by its name when
# no id is given, so none is sent rather than a wrong one; set it here once checked on BGG.
BGG_ID: int | None = None
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html"

KINDS = ("table", "game", "planet")  # scored by hand or scanned · a tracked game · a planet alone


class RecordError(ValueError):
    """A result (or an imported play) that is not a scoring response: names what is wrong."""


def name_key(name: str) -> str:
    """A player's name as compared for stats: the team's one rule for "the same player" (case and
    Unicode form do not count, ``scorer.names``), with runs of spaces taken as one space (a name
    typed into the merge box or a link)."""
    return same_player_key(" ".join(str(name).split()))


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    name: str
    score: int          # the final total (the subtotal for a planet scored alone)
    subtotal: int
    penalty: int        # 0 or negative
    volcanoes: int
    rank: int | None    # None for a planet scored alone
    winner: bool
    start_player: bool = False
    characters: tuple[tuple[str, int], ...] = ()  # (character id, points), as on the planet

    @property
    def key(self) -> str:
        return name_key(self.name)


@dataclass(frozen=True)
class PlayRecord:
    id: str
    table_id: str
    created: datetime
    kind: str
    players: tuple[PlayerRecord, ...]
    game_id: str | None = None
    rematch_of: str | None = None
    duration_min: int | None = None

    @property
    def counted(self) -> bool:
        """Counts for players' stats and BG Stats: a table of two or more."""
        return len(self.players) >= 2


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(_("%(where)s is not a whole number.", where=where))
    return value


def _player(data: object, seat: int, alone: bool) -> PlayerRecord:
    where = f"players[{seat}]"
    if not isinstance(data, dict):
        raise RecordError(_("%(where)s is not a player's result.", where=where))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise RecordError(_("%(where)s.name is missing or longer than %(most)d characters.", where=where,
                            most=MAX_NAME))
    characters = []
    for i, c in enumerate(data.get("characters") or []):
        if not isinstance(c, dict) or c.get("character") not in CHARACTER_NAMES:
            raise RecordError(_("%(where)s.characters[%(i)d] is not a character of the game.", where=where, i=i))
        characters.append((c["character"], _int(c.get("points"), f"{where}.characters[{i}].points")))
    subtotal = _int(data.get("subtotal"), f"{where}.subtotal")
    rank = data.get("rank")
    return PlayerRecord(
        seat=seat, name=name.strip(), subtotal=subtotal,
        score=subtotal if alone else _int(data.get("total"), f"{where}.total"),
        penalty=_int(data.get("penalty", 0), f"{where}.penalty"),
        volcanoes=_int(data.get("volcanoes", 0), f"{where}.volcanoes"),
        rank=None if alone or rank is None else _int(rank, f"{where}.rank"),
        winner=bool(data.get("winner")) and not alone, characters=tuple(characters))


def players_of(result: object, start_seat: int | None = None) -> tuple[PlayerRecord, ...]:
    """The players of a scoring response, in its order; ``start_seat`` started the game."""
    if not isinstance(result, dict) or not isinstance(result.get("players"), list) or not result["players"]:
        raise RecordError(_("The result has no players."))
    if len(result["players"]) > 5:
        raise RecordError(_("The result has more than 5 players."))
    alone = len(result["players"]) == 1
    players = [_player(p, i, alone) for i, p in enumerate(result["players"])]
    if start_seat is not None and 0 <= start_seat < len(players):
        players[start_seat] = replace(players[start_seat], start_player=True)
    return tuple(players)


def kind_of(players: tuple[PlayerRecord, ...], game_id: str | None) -> str:
    if game_id:
        return "game"
    return "planet" if len(players) == 1 else "table"


def utc(moment: datetime) -> datetime:
    """Stored times come back naive from SQLite: they are UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def minutes_between(started: datetime | None, ended: datetime | None) -> int | None:
    """A tracked game's length in whole minutes (at least 1), or None when a time is missing."""
    if started is None or ended is None:
        return None
    return max(1, round((utc(ended) - utc(started)).total_seconds() / 60))


def players_of_game(result: object) -> tuple[PlayerRecord, ...]:
    """The players of a tracked game's result: seat 0 started it (SPEC: the youngest, start
    player of round 1). Raises ``RecordError`` as ``players_of``."""
    return players_of(result, start_seat=0)


def play_of_game(play_id: str, table_id: str, created: datetime, players: tuple[PlayerRecord, ...], *,
                 game_id: str, started: datetime | None, rematch_of: str | None) -> PlayRecord:
    """Play ``play_id``: tracked game ``game_id`` of ``players`` (``players_of_game``), whose
    result was saved as table ``table_id`` at ``created``; it lasted from ``started`` (the
    game's creation) until then."""
    return PlayRecord(id=play_id, table_id=table_id, created=created, kind="game", players=players,
                      game_id=game_id, rematch_of=rematch_of, duration_min=minutes_between(started, created))


# ---------------------------------------------------------------------------------------------
# a player's stats


@dataclass(frozen=True)
class Totals:
    """One player's plays, added up (by the store, over every counted play under their names)."""
    plays: int
    wins: int
    score_sum: int
    best: int | None
    penalties: int       # plays in which they lost points for volcanoes
    penalty_points: int  # the points lost (0 or negative)


@dataclass(frozen=True)
class CharacterTotals:
    character: str
    plays: int
    points: int
    best: int


@dataclass(frozen=True)
class CharacterLine:
    character: str
    name: str
    plays: int
    average: float


@dataclass(frozen=True)
class PlayerStats:
    plays: int
    wins: int
    average: float | None
    best: int | None
    penalties: int
    penalty_points: int
    most_played: tuple[CharacterLine, ...] = field(default_factory=tuple)
    best_scoring: tuple[CharacterLine, ...] = field(default_factory=tuple)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.plays if self.plays else None


def player_stats(totals: Totals, characters: list[CharacterTotals], top: int = 3) -> PlayerStats:
    """Stats from the totals: the characters played most often (ties: more points on average
    first), and those that scored most on average (ties: played more often first)."""
    lines = [CharacterLine(c.character, _(CHARACTER_NAMES.get(c.character, c.character)), c.plays,
                           c.points / c.plays) for c in characters if c.plays > 0]
    most = sorted(lines, key=lambda c: (-c.plays, -c.average, c.name))[:top]
    best = sorted(lines, key=lambda c: (-c.average, -c.plays, c.name))[:top]
    return PlayerStats(
        plays=totals.plays, wins=totals.wins,
        average=totals.score_sum / totals.plays if totals.plays else None,
        best=totals.best, penalties=totals.penalties, penalty_points=totals.penalty_points,
        most_played=tuple(most), best_scoring=tuple(best))


@dataclass(frozen=True)
class Chart:
    """A line of scores over time, laid out for a small SVG (``viewBox="0 0 width height"``)."""
    width: int
    height: int
    points: tuple[tuple[float, float, int, str], ...]  # x, y, score, label
    top: int
    bottom: int
    top_y: float
    bottom_y: float

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _s, _l in self.points)


def score_chart(scores: list[tuple[datetime, int]], width: int = 320, height: int = 140,
                pad: int = 24) -> Chart | None:
    """``scores`` oldest first. Evenly spaced in play order (a play a step, not by date, so a busy
    evening does not bunch up); the y axis runs from the lowest to the highest score shown."""
    if not scores:
        return None
    low = min(0, min(s for _d, s in scores))
    high = max(s for _d, s in scores)
    span = max(high - low, 1)
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    step = inner_w / (len(scores) - 1) if len(scores) > 1 else 0
    points = []
    for i, (moment, score) in enumerate(scores):
        x = pad + (i * step if len(scores) > 1 else inner_w / 2)
        y = pad + inner_h * (high - score) / span
        points.append((x, y, score, utc(moment).strftime("%Y-%m-%d")))
    return Chart(width, height, tuple(points), high, low, float(pad), float(pad + inner_h))


# ---------------------------------------------------------------------------------------------
# BG Stats (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/)


def bgstats_payload(play: PlayRecord) -> dict[str, Any]:
    """The play in BG Stats' import format. ``sourcePlayId`` is the play's own id, so the same
    play sent twice is recognised; ``sourcePlayerId`` is the player's compared name."""
    game: dict[str, Any] = {"name": GAME_NAME, "sourceGameId": SOURCE_GAME_ID, "highestWins": True, "noPoints": False}
    if BGG_ID is not None:
        game["bggId"] = BGG_ID
    payload: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.id,
        "playDate": utc(play.created).strftime("%Y-%m-%d %H:%M:%S"),
        "game": game,
        "players": [{
            "name": p.name, "sourcePlayerId": p.key, "score": p.score, "rank": p.rank,
            "winner": p.winner, "startPlayer": p.start_player,
        } for p in play.players],
    }
    if play.duration_min:
        payload["durationMin"] = play.duration_min
    return payload


def bgstats_link(play: PlayRecord) -> str | None:
    """The "Send to BG Stats" link, or None for a planet scored alone (not a play of the game)."""
    if not play.counted:
        return None
    data = json.dumps(bgstats_payload(play), ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_URL}?data={quote(data, safe='')}"


# ---------------------------------------------------------------------------------------------
# export


CSV_FIELDS = ("play_id", "date_utc", "kind", "table_id", "game_id", "duration_min", "seat", "player",
              "score", "characters_points", "volcano_penalty", "volcanoes", "rank", "winner",
              "start_player", "characters")


def _cell(text: str) -> str:
    """A spreadsheet must not take a name for a formula (=, +, -, @ at the start)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_rows(play: PlayRecord) -> Iterator[dict[str, object]]:
    """One row per player of the play (``CSV_FIELDS``)."""
    for p in play.players:
        yield {
            "play_id": play.id, "date_utc": utc(play.created).strftime("%Y-%m-%d %H:%M:%S"),
            "kind": play.kind, "table_id": play.table_id, "game_id": play.game_id or "",
            "duration_min": play.duration_min if play.duration_min is not None else "",
            "seat": p.seat + 1, "player": _cell(p.name), "score": p.score,
            "characters_points": p.subtotal, "volcano_penalty": p.penalty, "volcanoes": p.volcanoes,
            "rank": p.rank if p.rank is not None else "", "winner": int(p.winner),
            "start_player": int(p.start_player),
            "characters": "; ".join(f"{CHARACTER_NAMES.get(c, c)} {pts}" for c, pts in p.characters),
        }
