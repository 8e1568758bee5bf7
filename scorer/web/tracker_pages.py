"""The tracker's pages: a new game, one phone passed round the table, or each player on their own.

A thin layer over the same core and store as the JSON API (``scorer.draft``,
``scorer.tracker_store``); every page renders from ``draft.view(state, seat)``, so a page can never
show more than that seat's JSON would.

- ``/games/new``: names in seat order (youngest first), hidden characters, one phone or own phones.
- ``/games/<id>``: the host's page (the browser that made the game keeps its host key in the
  session). One phone: the turn of whoever is to act, behind a "pass the phone" screen when there
  is private information. Own phones: a QR code and a link per seat, and the table as everyone sees it.
- ``/play/<id>/<token>``: a seat's own phone. ``…/live?v=N`` answers 204 while nothing changed, or
  the board again; "nothing changed" (and ``&wait=S`` long polling, and ``&stream=1``, the page's
  event stream where requests are held) is answered by ``live`` before these views run.
"""
from __future__ import annotations

import json

import segno
from flask import (
    Blueprint, Response, abort, current_app, flash, get_flashed_messages, get_template_attribute, redirect,
    render_template, request, session, url_for,
)
from flask_babel import get_locale
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf as csrf_token
from markupsafe import Markup, escape
from wtforms import BooleanField, StringField
from wtforms.validators import Length, Optional

from ..catalog import STACK_NAMES, STACKS, catalog, character_name
from ..planet import position_words
from ..draft import HIDDEN, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, Setup, Why, may_see, standings, undoable
from ..draft import legal as draft_legal
from ..draft import view as draft_view
from ..errors import GameNotFound, PlanetError, SetupError, StaleVersion
from ..i18n import N_, _
from .board_parts import event_words, planet_part, shared
from .games import claimed_game, get_games, read_game
from .live import ANSWERED
from .planet_view import PlanetView, drawn_cells
from .shared_boards import PUBLIC, Board, drawn_as, for_roles, last_mover, seat_classes, splice
from .tracker_words import words_for
from .security import absolute_url

bp = Blueprint("tracker_pages", __name__)

SESSION_HOSTS = "tracker_hosts"   # game id -> host token, for games this browser made
SESSION_LOOK = "tracker_look"     # game id -> the seat the one phone was handed to

STACK_SHORT = {"center": N_("Centers"), "uphill": N_("Uphill edges"), "downhill": N_("Downhill edges"),
               "character": N_("Characters")}

MODE_CHOICES = {"one": N_("One phone, passed round"), "own": N_("Everyone on their own phone")}
STACK_TINY = {"center": N_("Center"), "uphill": N_("Uphill"), "downhill": N_("Downhill"), "character": N_("Character")}


@bp.after_request
def private(response):
    """Never store a tracker page: on one phone passed round the table, Back or a restored tab
    must not bring up the previous player's private turn (their hidden characters, the tiles
    drawn). Every page is fetched afresh."""
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------------------------------
# forms


class NewGameForm(FlaskForm):
    p0 = StringField(N_("Youngest player (starts)"), validators=[Optional(), Length(max=MAX_NAME)])
    p1 = StringField(N_("Player 2"), validators=[Optional(), Length(max=MAX_NAME)])
    p2 = StringField(N_("Player 3"), validators=[Optional(), Length(max=MAX_NAME)])
    p3 = StringField(N_("Player 4"), validators=[Optional(), Length(max=MAX_NAME)])
    p4 = StringField(N_("Player 5"), validators=[Optional(), Length(max=MAX_NAME)])
    hidden = BooleanField(N_("Hidden characters"))
    # "mode" (one | own) is two plain radio buttons in the template, read in the view.

    def names(self):
        return [f.data.strip() for f in (self.p0, self.p1, self.p2, self.p3, self.p4) if (f.data or "").strip()]


class MoveForm(FlaskForm):
    """Only the CSRF check; the move's fields are read by hand so that nothing can be a 500."""

    class Meta:
        csrf = True


# ---------------------------------------------------------------------------------------------
# helpers


def _hosts() -> dict:
    return session.get(SESSION_HOSTS, {})


def _remember_host(loaded) -> None:
    hosts = dict(_hosts())
    hosts[loaded.id] = loaded.host_token
    if len(hosts) > 20:  # keep the cookie small
        hosts = dict(list(hosts.items())[-20:])
    session[SESSION_HOSTS] = hosts
    session.permanent = True  # a phone's browser restarting mid-game keeps the game (31 days)


def _is_host(loaded) -> bool:
    return loaded.is_host(_hosts().get(loaded.id))


STALE = N_("Someone moved first — nothing was changed. Here is the game now.")


def _remember_look(game_id: str, seat: int, version: int) -> None:
    """On one phone: ``seat`` has been shown the game at ``version`` (past the pass-the-phone screen)."""
    looks = dict(session.get(SESSION_LOOK, {}))
    looks[game_id] = [seat, version]
    session[SESSION_LOOK] = looks


def _load(game_id: str):
    try:
        return get_games().load(game_id)
    except GameNotFound:
        abort(404)


def _seat_or_404(loaded, token: str) -> int:
    seat = loaded.seat_of(token)
    if seat is None:
        abort(404)
    return seat


_art_urls: dict[tuple[str, str], str] = {}


def _art_url(name: str) -> str:
    """A tile's picture address, built once per tile (a board draws up to 80: building each with
    ``url_for`` was a third of a board's cost under load)."""
    key = (request.script_root, name)
    url = _art_urls.get(key)
    if url is None:
        url = _art_urls[key] = url_for("art.tile_art", name=name)
    return url


def tile_info(value) -> dict:
    """A tile as the pages draw it: art, words, and what kind it is."""
    if value is None:
        return {"value": None, "kind": "empty", "text": "", "label": "", "art": None}
    if value == HIDDEN:
        return {"value": HIDDEN, "kind": "hidden", "text": _("Hidden tile"), "label": "", "art": None}
    if value == "back":
        return {"value": "back", "kind": "back", "text": _("Face down (baobab)"), "label": _("face down"),
                "art": _art_url("back")}
    tile = catalog()[value]
    return {"value": value, "kind": tile.stack, "text": tile.describe(), "label": value,
            "art": _art_url(value),
            "character": character_name(tile.character) if tile.character else None}


def qr_svg(url: str) -> Markup:
    return Markup(segno.make(url, error="m").svg_inline(scale=5, dark="#0d1530", light="#ffffff",
                                                       title=_("QR code of the link below")))


PLAYER_COLOURS = 5  # one colour per seat (static/css/tracker.css .pc0 … .pc4), with the initial beside it


def player_marks(players) -> list[dict]:
    """Each player's colour class and initial, by seat: the same on every page of the game."""
    return [{"seat": s, "name": name, "initial": name[:1].upper(), "colour": f"pc{s % PLAYER_COLOURS}"}
            for s, name in enumerate(players)]


def _undo_offer(state, view, undo_as, undo_url) -> dict | None:
    """The take-back line: the move it would take back (as this page may word it), or why it
    cannot be (None: nothing to say — no move yet, or the game is over)."""
    if not undo_url or state.last_move is None or state.finished:
        return None
    first = state.event_count - len(state.news)
    what = " ".join(e["text"] for e in view["events"] if e["n"] >= first and e["kind"] != "round")
    reason = undoable(state, undo_as)
    if reason is not None and reason.why is Why.NOT_YOURS:
        return None  # another player's move: theirs to take back, nothing to say on this phone
    if reason is None:
        return {"url": undo_url, "what": what, "reason": None}
    return {"url": None, "what": what, "reason": reason.message(state.setup.players)}


def _take_places(legal) -> dict | None:
    """Where a take goes: the first free place of the round's kind, and the others it may go."""
    if not legal or legal[0]["type"] != "take":
        return None
    positions = []
    for m in legal:
        if m["position"] not in positions:
            positions.append(m["position"])
    return {"first": positions[0], "others": [{"position": p, "where": position_words(p)} for p in positions],
            "where": position_words(positions[0])}


def _planet_boxes(view, me, marks, standing) -> list[dict]:
    """The planets, the one of the phone's player (``me``) first, each with its points so far."""
    order = list(range(len(view["planets"])))
    if me is not None:
        order = [me] + [s for s in order if s != me]
    return [_planet_box(view, s, me, marks, standing) for s in order]


def _planet_box(view, s, me, marks, standing) -> dict:
    p = view["planets"][s]
    label = _("%(name)s's planet, %(tiles)d of 16 tiles", name=p["name"], tiles=p["tiles"])
    box = {"seat": s, "name": p["name"], "cells": p["cells"], "label": label, "tiles": p["tiles"],
           "mine": s == me, "to_act": s == view["to_act"], "start": s == view["start_player"],
           "mark": marks[s], "standing": standing[s]}
    box["body"] = planet_part(box, view["finished"], lambda: _draw_planet(box, view["finished"]))
    return box


def _draw_planet(box: dict, finished: bool) -> Markup:
    """A planet box's drawing and points, drawn by the ``planet_body`` macro (shared by the
    phones that see the same planet: ``board_parts``)."""
    body = get_template_attribute("tracker/_macros.html", "planet_body")
    view = PlanetView(cells=(), label=box["label"])  # its cells come drawn
    return Markup(body(dict(box, view=view, drawn=drawn_cells(box["cells"], small=True)), finished))


def board_context(loaded, seat, *, mode: str, live_url: str | None, move_url: str | None,
                  undo_url: str | None, rematch_url: str | None = None, actor=...,
                  undo_as=...) -> dict:
    """What ``tracker/_board.html`` needs, all of it from ``draft.view(state, seat)``.

    ``seat`` is whose eyes the page is for (None: anyone's); ``actor`` the seat whose moves it
    offers (on one phone: the player to act, even when the page shows only what all may see —
    their moves then name only tiles everyone sees); ``undo_as`` who takes back (None: the host).
    """
    state = loaded.state
    actor = seat if actor is ... else actor
    undo_as = seat if undo_as is ... else undo_as
    view = draft_view(state, seat, recent=8, words=event_words(words_for(state), state.setup.players))
    if actor != seat:
        view["legal"] = [m.as_json() for m in draft_legal(state, actor)] if actor is not None else []
    marks = player_marks(view["players"])
    standing = standings(state, seat)
    # own phones: the seat's own planet first and "(you)" are its page's CSS (``shared_boards``)
    planets = _planet_boxes(view, None if mode == "own" else seat if seat is not None else actor, marks, standing)
    legal = view["legal"]
    take_tiles = list(dict.fromkeys(m["tile"] for m in legal if m["type"] == "take"))
    last_moves = [e for e in view["events"] if e["kind"] in ("take", "flip")]
    recent_flip = last_moves[-1] if last_moves and last_moves[-1]["kind"] == "flip" else None
    leaders = [marks[x.seat] for x in standing if x.leader]
    return {
        "game_id": loaded.id, "view": view, "seat": seat, "actor": actor, "mode": mode,
        "you": view["players"][seat] if seat is not None else None,
        "your_turn": mode == "own" and seat is not None and view["to_act"] == seat,
        "rematch_url": rematch_url, "marks": marks, "leaders": leaders,
        "most_volcanoes": max((x.volcanoes for x in standing), default=0),
        "ranking": ranking(view["result"], marks) if view["finished"] else None,
        "planets": planets, "legal": legal, "take_tiles": [tile_info(t) for t in take_tiles],
        "place": _take_places(legal), "recent_flip": recent_flip,
        "revealed": [tile_info(t) for t in view["revealed"]],
        "face_down": view["face_down"],
        "discarded": [tile_info(t) for t in view["discarded"][-2:]],
        "stacks": [{"id": s, "name": _(STACK_SHORT[s]), "short": _(STACK_TINY[s]), "left": view["stacks"][s],
                    "chosen": view["chosen"][s]}
                   for s in STACKS],
        "stack_names": STACK_NAMES, "live_url": live_url, "move_url": move_url,
        "undo": _undo_offer(state, view, undo_as, undo_url),
        "table_url": f"/tables/{loaded.table_id}" if loaded.table_id else None,
        "messages": get_flashed_messages(with_categories=True),
    }


def ranking(result, marks) -> list[dict]:
    """The final ranking, best first, each line saying why it stands where it does: a shared rank,
    or a tie on points broken by fewer volcanoes."""
    players = sorted(enumerate(result["players"]), key=lambda ip: (ip[1]["rank"], ip[0]))
    out = []
    for seat, p in players:
        same_total = [q for q in result["players"] if q is not p and q["total"] == p["total"]]
        shared = [q["name"] for q in same_total if q["rank"] == p["rank"]]
        if shared:
            why = _("shares the rank with %(names)s: same points and volcanoes", names=", ".join(shared))
        elif any(q["rank"] > p["rank"] for q in same_total):
            why = _("ahead on the tie: fewer volcanoes (%(n)d)", n=p["volcanoes"])
        elif same_total:
            why = _("behind on the tie: more volcanoes (%(n)d)", n=p["volcanoes"])
        else:
            why = ""
        out.append({"rank": p["rank"], "name": p["name"], "total": p["total"], "why": why, "mark": marks[seat],
                    "penalty": p["penalty"], "characters": p["characters"]})
    return out


# ---------------------------------------------------------------------------------------------
# new game


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    form = NewGameForm()
    error = None
    mode = request.form.get("mode", "one")
    if request.method == "GET":
        rematch = request.args.get("players")
        if rematch:
            for field, name in zip((form.p0, form.p1, form.p2, form.p3, form.p4), rematch.split(",")[:MAX_PLAYERS]):
                field.data = name
    if form.validate_on_submit() and mode not in MODE_CHOICES:
        error = _("Choose one phone or everyone on their own phone.")
    elif form.validate_on_submit():
        names = form.names()
        try:
            setup = Setup.parse({"players": names, "hidden_characters": bool(form.hidden.data)})
        except SetupError as exc:
            error = exc.message
            if len(names) < MIN_PLAYERS:
                error = _("Write at least %(least)d names: the game is for %(least)d to %(most)d players.",
                          least=MIN_PLAYERS, most=MAX_PLAYERS)
        else:
            loaded = get_games().create(setup, mode)
            _remember_host(loaded)
            return redirect(url_for(".host", game_id=loaded.id))
    elif request.method == "POST":
        problems = "; ".join(f"{_(getattr(form, k).label.text)}: {' '.join(v)}" for k, v in form.errors.items())
        error = _("Please check the form: %(problems)s", problems=problems)
    return render_template("tracker/new.html", form=form, error=error, mode=mode,
                           modes={k: _(v) for k, v in MODE_CHOICES.items()}), (400 if error else 200)


# ---------------------------------------------------------------------------------------------
# the host's page: one phone, or the invitations and the table


@bp.get("/games/<game_id>")
def host(game_id: str):
    loaded = _load(game_id)
    is_host = _is_host(loaded)
    if loaded.state.finished:
        get_games().ensure_result_saved(loaded)
    if loaded.mode == "one" and is_host:
        return _one_phone(loaded)
    ctx = board_context(loaded, None, mode="table",
                        live_url=_polled(url_for(".table_live", game_id=loaded.id)), move_url=None, undo_url=None,
                        rematch_url=url_for(".host_rematch", game_id=loaded.id) if is_host else None)
    seats = _invites(loaded) if is_host and loaded.mode == "own" else []
    stream_url = url_for(".table_live", game_id=loaded.id, v=loaded.version, stream=1) if _streamed() else None
    return render_template("tracker/table.html", seats=seats, is_host=is_host, stream_url=stream_url, **ctx)


def _streamed() -> bool:
    """Do boards come to the pages by one event stream each (``live``: where requests are held)?"""
    return bool(current_app.extensions.get("live_stream"))


def _polled(url: str) -> str | None:
    """The board's own "anything new?" address, or None where the page's event stream brings it."""
    return None if _streamed() else url


def _invites(loaded) -> list[dict]:
    seats = []
    for s, (name, token) in enumerate(zip(loaded.setup.players, loaded.tokens, strict=True)):
        link = absolute_url("tracker_pages.seat", game_id=loaded.id, token=token)
        seats.append({"seat": s, "name": name, "link": link, "qr": qr_svg(link)})
    return seats


@bp.get("/games/<game_id>/live")
def table_live(game_id: str):
    loaded = _load(game_id)
    if request.args.get("v") == str(loaded.version):
        return Response(status=204)
    ctx = board_context(loaded, None, mode="table", live_url=_polled(url_for(".table_live", game_id=loaded.id)),
                        move_url=None, undo_url=None)
    board = render_template("tracker/_board.html", **ctx)
    if request.args.get("v") == "0" and loaded.mode == "own" and _is_host(loaded):
        # the first move since the codes were shown: fold them away on the open page too
        board += render_template("tracker/_invite.html", seats=_invites(loaded), oob=True, **ctx)
    return _versioned(board, loaded.version)


def _versioned(body: str, version: int) -> Response:
    """A live answer tagged with its version: ``If-None-Match`` then gets 304 while nothing moved."""
    response = Response(body, mimetype="text/html")
    response.set_etag(str(version))
    return response


def needs_private(state, seat) -> bool:
    """Must ``seat`` see something that not everyone may, to make their move now? (A tile on the
    table that is theirs alone: the 2-player draw and face-down tile, a hidden-characters round's
    characters.) Only then does one phone ask to be passed; otherwise the turn shows the table
    as everyone sees it, and the player's own hidden characters stay covered until they ask."""
    if seat is None:
        return False
    return any(may_see(state, seat, t) and not may_see(state, None, t) for t in state.revealed)


def _look(game_id: str):
    return session.get(SESSION_LOOK, {}).get(game_id)


def _holder_sees(loaded) -> bool:
    """Has the phone been handed to the player to act (confirmed) since the last move?"""
    return loaded.state.to_act is not None and _look(loaded.id) == [loaded.state.to_act, loaded.version]


def _one_phone(loaded, fragment: bool = False):
    game = loaded.state
    to_act = game.to_act
    looked = _holder_sees(loaded)
    gate = None
    if needs_private(game, to_act) and not looked:
        gate = {"seat": to_act, "name": game.name(to_act)}
    peek = (to_act is not None and not looked and not gate and loaded.setup.hidden_characters)
    ctx = board_context(loaded, to_act if looked else None, mode="one", live_url=None,
                        move_url=url_for(".host_move", game_id=loaded.id),
                        undo_url=url_for(".host_undo", game_id=loaded.id),
                        rematch_url=url_for(".host_rematch", game_id=loaded.id),
                        actor=None if gate else to_act, undo_as=None)
    ctx["look_url"] = url_for(".host_look", game_id=loaded.id)
    ctx["peek"] = {"seat": to_act, "name": game.name(to_act)} if peek else None
    return render_template("tracker/_one_play.html" if fragment else "tracker/one.html", gate=gate,
                           fragment=fragment, **ctx)


def _wants_fragment() -> bool:
    return request.headers.get("HX-Request") == "true"


def _host_answer(game_id: str):
    """After a post on one phone: the game again, in place (htmx) or by a redirect (no JS)."""
    if _wants_fragment():
        return _one_phone(_load(game_id), fragment=True)
    return redirect(url_for(".host", game_id=game_id))


@bp.post("/games/<game_id>/look")
def host_look(game_id: str):
    loaded = _load(game_id)
    if not _is_host(loaded) or not MoveForm().validate_on_submit():
        abort(403)
    to_act = loaded.state.to_act
    try:
        seat = int(request.form.get("seat", ""))
    except ValueError:
        seat = None
    if to_act is not None and seat == to_act:
        _remember_look(loaded.id, to_act, loaded.version)
    else:
        flash(_("The turn has moved on; here is the game now."), "warn")
    return _host_answer(loaded.id)


def _move_from_form(seat):
    form = request.form
    move = {"type": form.get("type", ""), "seat": seat}
    for key in ("stack", "tile"):
        if key in form:
            move[key] = form[key]
    for key in ("position", "to"):
        if key in form:
            try:
                move[key] = int(form[key])
            except ValueError:
                move[key] = form[key]
    try:
        version = int(form.get("version", ""))
    except ValueError:
        version = -1
    return version, move


def _do(loaded, seat, *, acting_for_host: bool):
    """Play the posted move for ``seat``: the game after it, or None when refused (the refusal
    is flashed and nothing changed)."""
    if not MoveForm().validate_on_submit():
        flash(_("This page had expired. Here is the game now; try again."), "warn")
        return None
    version, move = _move_from_form(seat)
    if move["type"] == "take" and not move.get("tile"):
        flash(_("Tap the tile you take."), "warn")
        return None
    try:
        after = get_games().play(loaded.id, version, move, seat=None if acting_for_host else seat,
                                 read=read_game(loaded.id))
    except StaleVersion:
        flash(_(STALE), "stale")
        return None
    except PlanetError as exc:
        flash(exc.message, "warn")
        return None
    if acting_for_host and after.state.to_act == seat:
        # the same player goes on (appoints after taking, takes after choosing): the phone is
        # still in their hands, so it stays open for them
        _remember_look(loaded.id, seat, after.version)
    return after


@bp.post("/games/<game_id>/move")
def host_move(game_id: str):
    loaded = _load(game_id)
    if not _is_host(loaded):
        abort(403)
    seat = loaded.state.to_act
    if seat is None:
        flash(_("The game is over."), "warn")
    elif needs_private(loaded.state, seat) and not _holder_sees(loaded):
        flash(_(STALE), "stale")
    else:
        _do(loaded, seat, acting_for_host=True)
    return _host_answer(loaded.id)


@bp.post("/games/<game_id>/undo")
def host_undo(game_id: str):
    loaded = _load(game_id)
    if not _is_host(loaded):
        abort(403)
    held = _holder_sees(loaded)
    after = _undo(loaded, None)
    if after is not None and held and after.state.to_act == loaded.state.to_act:
        _remember_look(loaded.id, after.state.to_act, after.version)  # still in the same hands
    return _host_answer(loaded.id)


def _undo(loaded, seat):
    """Take back the last move as ``seat`` (None: the host); refusals are flashed."""
    if not MoveForm().validate_on_submit():
        flash(_("This page had expired. Here is the game now; try again."), "warn")
        return None
    try:
        version = int(request.form.get("version", ""))
    except ValueError:
        version = -1
    try:
        after = get_games().undo(loaded.id, version, seat=seat, read=read_game(loaded.id))
    except StaleVersion:
        flash(_(STALE), "stale")
        return None
    except PlanetError as exc:
        flash(exc.message, "warn")
        return None
    flash(_("Taken back."), "ok")
    return after


@bp.post("/games/<game_id>/rematch")
def host_rematch(game_id: str):
    loaded = _load(game_id)
    if not (_is_host(loaded) and MoveForm().validate_on_submit()):
        abort(403)
    return _rematch(loaded)


def _rematch(loaded, seat=None):
    if not loaded.state.finished:
        # only a finished game offers a rematch; a stray post must not start one mid-game (every
        # phone would then be sent to it at the end, whatever the players chose)
        flash(_("The game is not over yet; a rematch can start once it is."), "warn")
        if seat is None:
            return redirect(url_for(".host", game_id=loaded.id))
        return redirect(url_for(".seat", game_id=loaded.id, token=loaded.tokens[seat]))
    existing = get_games().find_rematch(loaded.id)  # two phones tapping "rematch" make one game
    if existing is None:
        setup = Setup.parse({"players": list(loaded.setup.players),
                             "hidden_characters": loaded.setup.hidden_characters})
        new = get_games().create(setup, loaded.mode, rematch_of=loaded.id)
        current_app.extensions["boards"].forget(loaded.id)  # its boards now offer to join the rematch
    else:
        new = _load(existing)
    if seat is None:
        _remember_host(new)  # the host of a game hosts its rematch
    else:
        return redirect(url_for(".seat", game_id=new.id, token=new.tokens[seat]))
    return redirect(url_for(".host", game_id=new.id))


# ---------------------------------------------------------------------------------------------
# a seat's own phone


@bp.get("/play/<game_id>/<token>")
def seat(game_id: str, token: str):
    loaded = claimed_game(game_id) or _load(game_id)
    s = _seat_or_404(loaded, token)
    if loaded.state.finished:
        get_games().ensure_result_saved(loaded)
    state = loaded.state
    # the board as every phone of the seat's class gets it, with this page's CSRF token in its
    # forms (the fragments that replace it later carry none: htmx sends the page's header)
    board = _own_board(loaded, s).replace(NO_TOKEN, f'name="csrf_token" value="{escape(csrf_token())}"')
    board = board[board.index("</title>") + len("</title>"):].lstrip() if board.startswith("<title>") else board
    ctx = {"board": Markup(board), "me": s, "you": state.name(s), "base_href": url_for(".seat", game_id=loaded.id, token=token) + "/",
           "view": {"round": state.round, "finished": state.finished, "version": loaded.version,
                    "hidden_characters": loaded.setup.hidden_characters}, "game_id": loaded.id,
           "your_turn": state.to_act == s and not state.finished,
           "stream_url": f"live?v={loaded.version}&stream=1" if _streamed() else None}
    if loaded.mode == "own" and _is_host(loaded):
        ctx["seats"] = _invites(loaded)  # the host plays here and keeps the join codes at hand
    return render_template("tracker/seat.html", **ctx)


NO_TOKEN = 'name="csrf_token" value=""'


def _own_board(loaded, s: int, everyone: bool = False) -> str:
    """Seat ``s``'s board (``tracker/_board.html``, own phones): drawn once per game, version,
    language and visibility class, kept for the live refresh to hand out (``shared_boards``; and
    shared with the server's other workers), and cut to the seat's roles. One with a message for
    this phone is drawn afresh and not kept. A finished game's is kept too (every phone of a
    table asks for it within moments: drawn for each, the last moves of many tables ending
    together cost five times a move); once its rematch starts it is forgotten (``_rematch``),
    and a phone still handed the old drawing by another worker offers "Rematch", which joins
    that same rematch.

    ``everyone`` (a seat's move or undo, answered with its board): the other classes' drawings
    are kept too, from the game already in hand, so every other phone's held poll is answered
    in front of Flask. Else each seat of its own class (hidden characters) had its poll go
    through Flask, which loaded and folded the game again to draw the same board."""
    state = loaded.state
    messages = get_flashed_messages(with_categories=True)
    boards, locale = current_app.extensions["boards"], str(get_locale())
    board = boards.board((loaded.id, loaded.version, locale),
                         lambda: Board(seat_classes(state), state.to_act, last_mover(state)))
    keep = (loaded.id, locale) if not messages else None
    html = _drawing(loaded, board, board.classes[s], keep)
    if everyone and keep is not None:
        for kind in dict.fromkeys(board.classes):
            _drawing(loaded, board, kind, keep)
    return for_roles(html, board.roles(s))


def _drawing(loaded, board: Board, kind, keep: tuple[str, str] | None) -> str:
    """The drawing of a visibility class (kept when ``keep``, the game and language: in this
    worker and on the shelf the others read): drawn from its view, or, for a seat whose secrets
    are only its own hidden characters, the public drawing with its slots."""
    def draw() -> str:
        if drawn_as(kind) != kind:
            return _own_slots(loaded, board, kind[1], _drawing(loaded, board, drawn_as(kind), keep))
        return render_template("tracker/_board.html", fragment=True, **_own_context(loaded, board, kind))
    if keep is None:
        return draw()
    return current_app.extensions["boards"].kept_drawing(keep[0], keep[1], board, kind, draw)


def _own_slots(loaded, board: Board, s: int, public: str) -> str:
    """``public`` with seat ``s``'s planet, "What happened" and take-back line as ``s`` sees them."""
    state = loaded.state
    view = draft_view(state, s, recent=8, words=event_words(words_for(state), state.setup.players))
    box = _planet_box(view, s, None, player_marks(view["players"]), standings(state, s))
    # "What happened" as the board's template draws it (its ``shared('events', view.events)``): one
    # drawing for the phones whose events read the same, most often the public's already drawn
    def card() -> str:
        return get_template_attribute("tracker/_macros.html", "events_card")(view["events"])
    events = shared("events", view["events"], caller=card) if view["events"] else ""
    offer = _undo_offer(state, view, board.mover, "undo")
    return splice(public, s, str(box["body"]), str(events), str(escape(offer["what"] if offer else "")))


def _own_context(loaded, board: Board, kind) -> dict:
    """The board's context for a visibility class: the class's view; the move form of the seat to
    act when it is of the class; the take-back offer as its last mover would see it (the form is
    that seat's role block; a reason why not is everyone's)."""
    to_act, mover = board.to_act, board.mover
    ctx = board_context(loaded, None if kind == PUBLIC else kind, mode="own", live_url=_polled("live"), move_url="move",
                        undo_url="undo", rematch_url="rematch",
                        actor=to_act if to_act is not None and drawn_as(board.classes[to_act]) == kind else None,
                        undo_as=mover)
    if loaded.state.finished and get_games().find_rematch(loaded.id):
        ctx["rematch_link"] = "next"
        ctx["rematch_url"] = None
    return ctx


@bp.get("/play/<game_id>/<token>/live")
def seat_live(game_id: str, token: str):
    loaded = claimed_game(game_id) or _load(game_id)
    s = _seat_or_404(loaded, token)
    if request.args.get("v") == str(loaded.version):
        return Response(status=204)
    if loaded.state.finished:
        get_games().ensure_result_saved(loaded)
    return _versioned(_own_board(loaded, s), loaded.version)


@bp.post("/play/<game_id>/<token>/move")
def seat_move(game_id: str, token: str):
    loaded = claimed_game(game_id) or _load(game_id)  # the move itself checks the version afresh
    s = _seat_or_404(loaded, token)
    return _seat_answer(loaded.id, s, token, _do(loaded, s, acting_for_host=False))


@bp.post("/play/<game_id>/<token>/undo")
def seat_undo(game_id: str, token: str):
    loaded = claimed_game(game_id) or _load(game_id)  # the undo itself checks the version afresh
    s = _seat_or_404(loaded, token)
    return _seat_answer(loaded.id, s, token, _undo(loaded, s))


def _seat_answer(game_id: str, s: int, token: str, after=None):
    """After a post from a seat's phone: its board again, in place (htmx) or by a redirect.
    ``after``: the game as the post left it (else, after a refusal, it is read again)."""
    if _wants_fragment():
        loaded = after or _load(game_id)
        request.environ[ANSWERED] = loaded.version  # this phone has this version's board: see ``live``
        return _own_board(loaded, s, everyone=True)
    return redirect(url_for(".seat", game_id=game_id, token=token))


@bp.get("/play/<game_id>/<token>/next")
def seat_next(game_id: str, token: str):
    """This seat's link in the rematch of this game (the old link is the key)."""
    loaded = _load(game_id)
    s = _seat_or_404(loaded, token)
    new_id = get_games().find_rematch(loaded.id)
    if new_id is None:
        abort(404)
    new = _load(new_id)
    if s >= len(new.tokens):
        abort(404)
    return redirect(url_for(".seat", game_id=new.id, token=new.tokens[s]))


@bp.post("/play/<game_id>/<token>/rematch")
def seat_rematch(game_id: str, token: str):
    loaded = _load(game_id)
    s = _seat_or_404(loaded, token)
    if not MoveForm().validate_on_submit():
        abort(400)
    return _rematch(loaded, seat=s)


def json_dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))
