"""Secrets audit: every page, fragment and JSON view, fetched as each seat and as the public after
every move of whole hidden-character games, holds no tile that viewer may not know (SPEC §1
"Draft (tracker)": a taken character is its owner's alone until the end; in 2 players the
face-down tile is the start player's alone until it is taken or discarded face up; tiles not yet
drawn, and the removed ones, are nobody's)."""
from __future__ import annotations

import random
import re

import pytest

from conftest import mentions

from scorer.catalog import CHARACTER_NAMES, catalog
from scorer.planet import POSITIONS_OF
from scorer.draft import legal
from scorer.web.shared_boards import seat_classes

CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


def start(client, names, mode, hidden=True):
    page = client.get("/games/new").text
    data = {"csrf_token": CSRF.search(page).group(1), "mode": mode, "hidden": "y" if hidden else ""}
    data.update({f"p{i}": n for i, n in enumerate(names)})
    r = client.post("/games/new", data=data)
    assert r.status_code == 302, r.text
    return r.location.rsplit("/", 1)[-1]


def forbidden(g, viewer):
    """The tile ids ``viewer`` (a seat, or None for the public) must not be sent now."""
    if g.finished:
        return set()
    out = {t for pile in g.piles.values() for t in pile} | {t for pile in g.removed.values() for t in pile}
    if g.setup.hidden_characters:
        for owner, planet in enumerate(g.planets):
            if owner != viewer:
                out |= {planet.cells[p].tile for p in POSITIONS_OF["character"] if planet.cells[p]}
        if not g.two_player and g.round_stack == "character" and not (g.phase == "take" and viewer == g.to_act):
            out |= set(g.revealed)
    if g.two_player and viewer != g.start:
        if g.phase == "hide":
            out |= set(g.revealed)
        if g.face_down in g.revealed:
            out.add(g.face_down)
    return out


def names_only_of(bad, g):
    """Character names that would give a forbidden tile away (no allowed tile shares them)."""
    cat = catalog()
    allowed = {c.tile for p in g.planets for c in p.cells if c} | set(g.revealed) | set(g.discarded)
    allowed -= bad
    name = lambda ts: {CHARACTER_NAMES[cat[t].character] for t in ts if cat[t].character}
    return name(bad) - name(allowed)


def leaks_in(text, bad, g):
    hits = [t for t in bad if mentions(text, t)]
    hits += [n for n in names_only_of(bad, g) if re.search(r"(?<!Turkish )" + re.escape(n), text)]
    return hits


@pytest.mark.parametrize("names,mode,seed", [
    (["Ann", "Ben"], "own", 1),
    (["Ann", "Ben", "Cy"], "own", 2),
    (["Ann", "Ben", "Cy", "Di"], "one", 3),
])
def test_no_page_fragment_or_view_carries_a_tile_its_viewer_may_not_know(client, app, names, mode, seed):
    gid = start(client, names, mode=mode, hidden=True)
    public = app.test_client()
    seats = [app.test_client() for _ in names]
    games = app.extensions["games"]
    rng = random.Random(seed)
    checked = 0
    while True:
        with app.app_context():
            loaded = games.load(gid)
        g = loaded.state
        # every move in 2 players; with more, the character rounds and each round's first move
        if g.two_player or g.round_stack in ("character", None) or g.finished:
            fetched = [(None, public.get(f"/games/{gid}").text),
                       (None, public.get(f"/games/{gid}/live").text),
                       (None, public.get(f"/api/games/{gid}").text)]
            host = client.get(f"/games/{gid}").text
            fetched.append((None if mode == "own" or 'id="gate"' in host else g.to_act, host))
            for s, token in enumerate(loaded.tokens):
                fetched += [(s, seats[s].get(f"/play/{gid}/{token}").text),
                            (s, seats[s].get(f"/play/{gid}/{token}/live").text),
                            (s, seats[s].get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).text)]
            for viewer, text in fetched:
                bad = forbidden(g, viewer)
                assert not leaks_in(text, bad, g), (g.round, g.phase, viewer, leaks_in(text, bad, g))
            checked += 1
        if g.finished:
            break
        with app.app_context():
            games.play(gid, loaded.version, rng.choice(legal(g, g.to_act)).as_json())
    assert checked > 20


def ann_takes_a_character(client, app):
    """A 3-player hidden-characters game on own phones where Ann has just taken a character."""
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    games = app.extensions["games"]
    with app.app_context():
        g = games.load(gid).state
        games.play(gid, 0, {"type": "choose", "seat": 0, "stack": "character"})
        g = games.load(gid).state
        games.play(gid, 1, {"type": "take", "seat": 0, "tile": g.revealed[0], "position": 0})
        return gid, games.load(gid)


def test_the_audit_would_see_a_leak(client, app):
    # the checker itself: another seat's hidden character on a page is found
    gid, loaded = ann_takes_a_character(client, app)
    ann = client.get(f"/play/{gid}/{loaded.tokens[0]}").text
    assert leaks_in(ann, forbidden(loaded.state, 1), loaded.state)
    assert not leaks_in(ann, forbidden(loaded.state, 0), loaded.state)


@pytest.mark.parametrize("names,seed", [(["Ann", "Ben"], 4), (["Ann", "Ben", "Cy", "Di", "Eve"], 5)])
def test_one_phone_answers_in_place_hold_only_what_the_holder_may_know(client, app, names, seed):
    """Played through the one phone's own forms as htmx posts them: every answer (a fragment) and
    the page between holds nothing beyond what the player holding the phone may know — the
    public's, or the player to act once the phone was passed to them (or they just moved)."""
    gid = start(client, names, mode="one", hidden=True)
    games = app.extensions["games"]
    hx = {"HX-Request": "true"}
    rng = random.Random(seed)
    holder = None   # whose eyes the phone has been confirmed for (None: anybody's)
    checked = 0
    while True:
        with app.app_context():
            loaded = games.load(gid)
        g = loaded.state
        page = client.get(f"/games/{gid}").text
        token = CSRF.search(page).group(1)
        viewer = holder if holder == g.to_act else None
        assert not leaks_in(page, forbidden(g, viewer), g), (g.round, g.phase, viewer)
        if g.finished:
            break
        if 'id="gate"' in page:
            answer = client.post(f"/games/{gid}/look", data={"csrf_token": token, "seat": g.to_act}, headers=hx).text
            assert 'id="gate"' not in answer and 'id="play"' in answer
            holder = g.to_act
            assert not leaks_in(answer, forbidden(g, holder), g)
            continue
        move = rng.choice(legal(g, g.to_act)).as_json()
        data = {"csrf_token": token, "version": loaded.version, **{k: v for k, v in move.items() if k != "seat"}}
        answer = client.post(f"/games/{gid}/move", data=data, headers=hx)
        assert answer.status_code == 200 and 'id="play"' in answer.text and "<html" not in answer.text
        with app.app_context():
            after = games.load(gid).state
        assert after.version == loaded.version + 1
        holder = g.to_act if after.to_act == g.to_act else None
        assert not leaks_in(answer.text, forbidden(after, holder), after), (after.round, after.phase, holder)
        checked += 1
    assert checked == (64 if len(names) == 2 else 16 * 9)


def test_planet_drawings_are_shared_only_between_viewers_who_see_the_same(client, app):
    # Planet drawings are drawn once and shared between phones (scorer.web.board_parts): the
    # owner's drawing, made first, must never be another seat's; the owner must not get the
    # others' drawing either; and two seats that see the same planet do share its drawing.
    gid, loaded = ann_takes_a_character(client, app)
    parts = app.extensions["board_parts"]
    state, phones = loaded.state, [app.test_client() for _ in loaded.tokens]
    board = lambda s: phones[s].get(f"/play/{gid}/{loaded.tokens[s]}/live").text
    ann = board(0)  # the public's drawing of every planet, then Ann's own planet as she sees it
    misses = parts.misses
    ben = board(1)
    assert parts.misses == misses  # Ben's planets are drawn as for Ann's board: no planet drawn again
    assert leaks_in(ann, forbidden(state, 1), state)  # Ann sees her own character ...
    assert not leaks_in(ben, forbidden(state, 1), state)  # ... drawn before Ben's board, never in it
    assert not leaks_in(app.test_client().get(f"/games/{gid}/live").text, forbidden(state, None), state)
    drawings = app.extensions["boards"].drawings()
    cy = board(2)
    # Cy sees Ann's and Ben's planets as Ben does: Ben's whole board is Cy's (scorer.web.shared_boards)
    assert app.extensions["boards"].drawings() == drawings and "kept hidden" in cy
    assert not leaks_in(cy, forbidden(state, 2), state)
    assert leaks_in(board(0), forbidden(state, 1), state)  # and Ann still gets her own, not the public one


def test_the_live_refresh_hands_a_drawn_board_only_to_the_seats_of_its_class(client, app):
    # A seat's board is drawn once per visibility class and handed out in front of Flask to every
    # phone of the class (scorer.web.shared_boards, scorer.web.live): Ann's own board, with her
    # hidden character, drawn first, must never be the bytes Ben or Cy get; and only a phone that
    # holds its seat's claim is answered there.
    gid, loaded = ann_takes_a_character(client, app)
    state, tokens = loaded.state, loaded.tokens
    phones = [app.test_client() for _ in tokens]
    boards = app.extensions["boards"]
    assert phones[0].get(f"/play/{gid}/{tokens[0]}").status_code == 200  # Ann's class drawn first
    assert phones[1].get(f"/play/{gid}/{tokens[1]}").status_code == 200  # ... then the public's
    assert phones[2].get(f"/play/{gid}/{tokens[2]}").status_code == 200
    drawings, served = boards.drawings(), boards.served
    live = lambda s, phone=None: (phone or phones[s]).get(f"/play/{gid}/{tokens[s]}/live?v=0",
                                                          headers={"Accept-Encoding": "identity"})
    ann, ben, cy = live(0), live(1), live(2)
    assert boards.served - served == 3 and boards.drawings() == drawings  # all three answered in front of Flask
    assert [r.status_code for r in (ann, ben, cy)] == [200, 200, 200]
    assert leaks_in(ann.text, forbidden(state, 1), state)  # Ann sees her own character ...
    assert not leaks_in(ben.text, forbidden(state, 1), state) and not leaks_in(cy.text, forbidden(state, 2), state)
    assert ben.data == cy.data and ann.data != ben.data
    assert 'data-version="2"' in ben.text and tokens[1] not in ben.text and tokens[0] not in ann.text
    # the seat to act (Ann appoints) gets the move form; the others the turn line only
    assert 'id="act"' in ann.text and 'id="act"' not in ben.text and "Your turn, Ann" not in ben.text
    stranger = live(0, app.test_client())  # Ann's link without Ann's claim: the view refuses it
    assert stranger.status_code == 403 and not leaks_in(stranger.text, forbidden(state, 1), state)
    assert boards.served - served == 3


def test_board_sections_are_shared_only_between_viewers_who_see_the_same(client, app):
    # The turn line, the stacks, the volcano leaders and "What happened" are drawn once per key
    # of what they show (scorer.web.board_parts.shared): Ann's own words for her hidden
    # character, drawn first, must never be Ben's; Ben and Cy, who see the same, share them.
    gid, loaded = ann_takes_a_character(client, app)
    state, phones = loaded.state, [app.test_client() for _ in loaded.tokens]
    board = lambda s: phones[s].get(f"/play/{gid}/{loaded.tokens[s]}/live").text
    events = lambda text: re.search(r'<ol class="tevents".*?</ol>', text, re.S).group(0)
    ann, ben = board(0), board(1)
    assert "took a character tile (kept hidden)" in events(ben)
    assert "kept hidden" not in events(ann) and leaks_in(events(ann), forbidden(state, 1), state)
    assert not leaks_in(ben, forbidden(state, 1), state)
    parts = app.extensions["board_parts"]
    sections = parts.count("section")
    cy = board(2)
    assert events(cy) == events(ben) and parts.count("section") == sections  # Ben's sections, reused
    assert not leaks_in(cy, forbidden(state, 2), state)
    assert events(board(0)) == events(ann)


def test_event_sentences_are_shared_only_within_a_game_of_the_same_names(client, app):
    # An event's sentence is kept per language, player names and event: the same move in two
    # games with the same deal but other players is worded with each game's own names.
    phones = app.test_client()
    boards = []
    for names in (["Ann", "Ben", "Cy"], ["Xavier", "Yvonne", "Zoe"]):
        made = phones.post("/api/games", json={"players": names, "seed": 5}).get_json()
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        phones.post(f"/api/games/{gid}/moves", headers=auth, json={"version": 0, "move": {"type": "choose", "stack": "center"}})
        boards.append(app.test_client().get(f"/play/{gid}/{tokens[1]}/live").text)
    events = [re.search(r'<ol class="tevents".*?</ol>', b, re.S).group(0) for b in boards]
    assert "Ann chose" in events[0] and "Xavier chose" in events[1] and "Ann" not in events[1]


def test_points_so_far_scored_first_for_a_planets_owner_are_never_another_seats(client, app):
    """Each look of a planet is scored once and reused (``draft.standing``): the owner's points,
    with their hidden characters in, scored first, must not be another seat's nor the public's."""
    from scorer.draft import standings
    from scorer.draft.standing import _points
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    games, rng = app.extensions["games"], random.Random(3)
    owner = None
    with app.app_context():
        while owner is None:
            state = games.load(gid).state
            assert not state.finished, "no hidden character ever changed a planet's points"
            games.play(gid, state.version, rng.choice(legal(state, state.to_act)).as_json())
            state = games.load(gid).state
            owner = next((o for o in range(3) if standings(state, o)[o].points != standings(state, None)[o].points), None)
        tokens = games.load(gid).tokens
    points = lambda page, seat: int(re.search(rf'data-seat="{seat}">.*?data-points="(-?\d+)"', page, re.S).group(1))
    _points.cache_clear()
    seen = {owner: app.test_client().get(f"/play/{gid}/{tokens[owner]}/live").text}   # the owner's first
    for seat in range(3):
        seen.setdefault(seat, app.test_client().get(f"/play/{gid}/{tokens[seat]}/live").text)
    seen[None] = app.test_client().get(f"/games/{gid}/live").text
    _points.cache_clear()
    for viewer, page in seen.items():
        assert points(page, owner) == standings(state, viewer)[owner].points, viewer
    assert points(seen[owner], owner) != points(seen[(owner + 1) % 3], owner)


def test_a_seat_whose_only_secrets_are_on_its_planet_gets_the_public_drawing_with_its_own_slots(client, app):
    # With hidden characters, a seat that may know nothing beyond the public but its own planet's
    # characters gets the public's drawing with its planet, "What happened" and take-back line
    # drawn for it (scorer.web.shared_boards.splice): byte for byte the board drawn for it alone.
    from dataclasses import replace

    from flask import render_template

    from scorer.web import tracker_pages as pages
    from scorer.web.board_parts import Parts
    from scorer.web.shared_boards import OWN, PUBLIC, Board, for_roles, last_mover, seat_classes
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    games, rng = app.extensions["games"], random.Random(8)
    spliced = public = 0
    with app.test_request_context():
        while True:
            state = games.load(gid).state
            if state.finished:
                break
            games.play(gid, state.version, rng.choice(legal(state, state.to_act)).as_json())
            loaded = games.load(gid)
            board = Board(seat_classes(loaded.state), loaded.state.to_act, last_mover(loaded.state))
            for s, kind in enumerate(board.classes):
                if kind == PUBLIC:
                    public += 1
                if kind != (OWN, s):
                    continue
                alone = replace(board, classes=tuple(s if k == s else c for k, c in enumerate(board.classes)))
                whole = render_template("tracker/_board.html", fragment=True, **pages._own_context(loaded, alone, s))
                app.extensions["board_parts"] = Parts()  # drawn afresh: not the pieces ``whole`` just kept
                made = pages._drawing(loaded, board, kind, keep=None)
                assert for_roles(made, board.roles(s)) == for_roles(whole, board.roles(s)), (loaded.version, s)
                assert leaks_in(made, forbidden(loaded.state, s), loaded.state) == []
                spliced += 1
    assert spliced > 40 and public > 0


def test_only_a_games_newest_board_is_kept_and_asked_for():
    # One game's boards do not pile up (scorer.web.shared_boards.Boards): a newer version replaces
    # the board kept, an older one is drawn but not kept, and each version answers only its own.
    from scorer.web.shared_boards import PUBLIC, Board, Boards
    boards = Boards(size=2)
    made = lambda: Board((PUBLIC, PUBLIC), 0, None)  # noqa: E731
    two = boards.board(("g", 2, "en"), made)
    two.drawn[PUBLIC] = "<div>two</div>"
    one = boards.board(("g", 1, "en"), made)
    one.drawn[PUBLIC] = "<div>one</div>"
    assert boards.board(("g", 2, "en"), made) is two and boards.drawings() == 1
    assert boards.answer("g", 2, "en", 1, "") == b"<div>two</div>" and boards.answer("g", 1, "en", 1, "") is None
    assert boards.answer("g", 2, "fr", 1, "") is None
    three = boards.board(("g", 3, "en"), made)
    assert boards.answer("g", 2, "en", 1, "") is None and three.version == 3
    boards.board(("h", 1, "en"), made), boards.board(("k", 1, "en"), made)
    assert boards.board(("g", 3, "en"), made) is not three  # the least recently used game went first


def test_after_each_move_from_a_phone_every_other_phone_is_answered_in_front_of_flask_with_its_own_board(client, app):
    """A seat's move, posted from its page, also draws every other visibility class's board from
    the game in hand (``tracker_pages._own_board(everyone=True)``): each other phone's held poll is
    then answered in front of Flask, hidden characters included, with nothing it may not know."""
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    games, boards, rng = app.extensions["games"], app.extensions["boards"], random.Random(11)
    with app.app_context():
        tokens = games.load(gid).tokens
    phones = [app.test_client() for _ in tokens]
    csrf = [re.search(r'"X-CSRFToken": "([^"]+)"', p.get(f"/play/{gid}/{t}").text).group(1)
            for p, t in zip(phones, tokens, strict=True)]
    plain = {"Accept-Encoding": "identity"}
    own_classes = 0
    while True:
        with app.app_context():
            before = games.load(gid)
        g, s = before.state, before.state.to_act
        move = rng.choice(legal(g, s)).as_json()
        data = {"version": before.version, **{k: v for k, v in move.items() if k != "seat"}}
        answer = phones[s].post(f"/play/{gid}/{tokens[s]}/move", data=data,
                                headers={**plain, "HX-Request": "true", "X-CSRFToken": csrf[s]})
        assert answer.status_code == 200 and f'data-version="{before.version + 1}"' in answer.text
        with app.app_context():
            after = games.load(gid).state
        served = boards.served
        for other in (k for k in range(len(tokens)) if k != s):
            board = phones[other].get(f"/play/{gid}/{tokens[other]}/live?v={before.version}", headers=plain)
            assert board.status_code == 200 and f'data-version="{after.version}"' in board.text
            assert not leaks_in(board.text, forbidden(after, other), after), (after.version, other)
            own_classes += isinstance(seat_classes(after)[other], tuple)
        assert boards.served - served == len(tokens) - 1, after.version  # none went through Flask
        if after.finished:  # the last move's boards too: the ranking, every hidden character shown
            assert "Rematch with the same players" in board.text and "The hidden characters" in board.text
            break
    assert own_classes > 20   # seats with hidden characters of their own were among them
    # a rematch started from one phone: every other phone's page now offers to join it
    rematch = phones[0].post(f"/play/{gid}/{tokens[0]}/rematch", headers={**plain, "X-CSRFToken": csrf[0]},
                             data={"csrf_token": csrf[0]})
    assert rematch.status_code == 302 and f"/play/{gid}/" not in rematch.headers["Location"]
    for other in range(1, len(tokens)):
        page = phones[other].get(f"/play/{gid}/{tokens[other]}", headers=plain).text
        assert "Join the rematch" in page and "Rematch with the same players" not in page
