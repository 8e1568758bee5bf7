"""The tracker's engine (``scorer.draft``): one test per rule, and random legal games played to the end."""
from __future__ import annotations

import json
import random
from collections import Counter

import independent_rules as ref
import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorer.catalog import STACKS, catalog
from scorer.draft import (
    HIDDEN, Reason, Setup, State, Why, apply, can_undo, check_undo, events, legal, moves, parse_move,
    replay, seen_event, start, undoable, view,
)
from scorer.draft.events import Took
from scorer.errors import IllegalMove, NotYourTurn, PlanetError, SetupError, where_text
from scorer.planet import POSITIONS_OF, STACK_AT
from scorer.web.tracker_words import event_text, words_for

NAMES = ("Ann", "Ben", "Cy", "Di", "Ed")


def setup(n=3, seed=1, hidden=False):
    return Setup(NAMES[:n], seed, hidden)


def play(state: State, move: dict) -> State:
    """``state`` after ``move`` (JSON, as posted)."""
    return apply(state, parse_move(move))[0]


def play_random(state, rng, until=None):
    """Play random legal moves until the game ends (or ``until(state)`` is true)."""
    while not state.finished and not (until and until(state)):
        state = apply(state, rng.choice(legal(state, state.to_act)))[0]
    return state


def all_tiles(game):
    on_planets = [c.tile for p in game.planets for c in p.cells if c is not None]
    piles = [t for s in STACKS for t in game.piles[s]]
    removed = [t for s in STACKS for t in game.removed[s]]
    return on_planets + piles + removed + list(game.revealed) + list(game.discarded)


def event_list(state):
    return [e for _, e in events(state)]


def as_json(moves_):
    return [m.as_json() for m in moves_]


# -- setup ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, removed", [(2, 8), (3, 8), (4, 4), (5, 0)])
def test_setup_removes_unseen_tiles_by_player_count(n, removed):
    game = start(setup(n))
    for stack in STACKS:
        assert len(game.removed[stack]) == removed
        assert len(game.piles[stack]) == 20 - removed
        assert all(catalog()[t].stack == stack for t in game.piles[stack] + game.removed[stack])
    assert sorted(all_tiles(game)) == sorted(t.id for t in catalog())
    # the public sees how many tiles are left, never which
    public = view(game, None)
    assert public["stacks"] == dict.fromkeys(STACKS, 20 - removed)
    assert not any(t in json.dumps(public) for s in STACKS for t in game.piles[s])


def test_the_seed_fixes_the_shuffle():
    a, b, c = start(setup(seed=5)), start(setup(seed=5)), start(setup(seed=6))
    assert a.piles == b.piles and a.removed == b.removed
    assert a.piles != c.piles


@pytest.mark.parametrize("data, where", [
    ({"players": ["Ann"]}, "players"),
    ({"players": ["A", "B", "C", "D", "E", "F"]}, "players"),
    ({"players": ["Ann", "ann"]}, "players[1]"),
    ({"players": ["Ann", " "]}, "players[1]"),
    ({"players": ["Ann", 3]}, "players[1]"),
    ({"players": ["Ann", "B" * 41]}, "players[1]"),
    ({"players": ["Ann", "Ben"], "hidden_characters": "yes"}, "hidden_characters"),
    ({"players": ["Ann", "Ben"], "seed": -1}, "seed"),
    ({"players": ["Ann", "Ben"], "seed": "x"}, "seed"),
    ("Ann, Ben", "body"),
])
def test_bad_setups_are_refused_with_a_reason(data, where):
    with pytest.raises(SetupError) as exc:
        Setup.parse(data)
    assert where_text(exc.value.where) == where and exc.value.message


def test_setup_tidies_names_and_picks_a_seed():
    s = Setup.parse({"players": ["  Ann  ", "Ben  Bo"]})
    assert s.players == ("Ann", "Ben Bo") and isinstance(s.seed, int) and not s.hidden_characters


# -- 3 to 5 players ------------------------------------------------------------------------------

def test_youngest_starts_and_only_the_player_to_act_has_moves():
    game = start(setup(4))
    assert game.to_act == 0 and game.start == 0 and game.round == 1
    assert [m.stack for m in legal(game, 0)] == list(STACKS)
    assert legal(game, 1) == [] and legal(game, None) == []
    with pytest.raises(NotYourTurn):
        play(game, {"type": "choose", "seat": 2, "stack": "center"})


@pytest.mark.parametrize("n", [3, 4, 5])
def test_choosing_reveals_one_tile_per_player(n):
    game = start(setup(n))
    top = game.piles["uphill"][:n]
    game = play(game, {"type": "choose", "seat": 0, "stack": "uphill"})
    assert game.revealed == top and view(game, None)["revealed"] == list(top)
    assert game.phase == "take" and game.to_act == 0
    assert {m.position for m in legal(game, 0)} == set(POSITIONS_OF["uphill"])


def test_start_player_takes_then_appoints_someone_who_has_not_taken():
    game = play(start(setup(4)), {"type": "choose", "seat": 0, "stack": "center"})
    tile = game.revealed[1]
    game = play(game, {"type": "take", "seat": 0, "tile": tile, "position": 6})
    assert game.planets[0].cells[6].tile == tile and tile not in game.revealed
    assert game.phase == "appoint" and game.to_act == 0
    assert [m.to for m in legal(game, 0)] == [1, 2, 3]
    with pytest.raises(IllegalMove, match="already taken"):
        play(game, {"type": "appoint", "seat": 0, "to": 0})
    game = play(game, {"type": "appoint", "seat": 0, "to": 2})
    assert game.to_act == 2 and game.phase == "take"
    game = play(game, {"type": "take", "seat": 2, "tile": game.revealed[0], "position": 5})
    with pytest.raises(IllegalMove, match="Ann has already taken"):
        play(game, {"type": "appoint", "seat": 2, "to": 0})


def test_the_last_player_takes_the_last_tile_and_starts_the_next_round():
    game = play(start(setup(3)), {"type": "choose", "seat": 0, "stack": "character"})
    game = play(game, {"type": "take", "seat": 0, "tile": game.revealed[0], "position": 0})
    game = play(game, {"type": "appoint", "seat": 0, "to": 2})
    game = play(game, {"type": "take", "seat": 2, "tile": game.revealed[0], "position": 3})
    # only Ben is left: he is appointed without a move and must take the last tile
    assert game.to_act == 1 and game.phase == "take"
    assert [m.tile for m in legal(game, 1)] == [game.revealed[0]] * 4
    game = play(game, {"type": "take", "seat": 1, "tile": game.revealed[0], "position": 15})
    assert game.round == 2 and game.start == 1 and game.to_act == 1 and game.phase == "choose"
    assert view(game, None)["start_player"] == 1


def test_a_tile_goes_to_a_free_place_of_its_kind():
    game = play(start(setup(3)), {"type": "choose", "seat": 0, "stack": "center"})
    tile = game.revealed[0]
    with pytest.raises(IllegalMove, match="cannot go at row 1, column 1"):
        play(game, {"type": "take", "seat": 0, "tile": tile, "position": 0})
    with pytest.raises(PlanetError, match="position"):
        play(game, {"type": "take", "seat": 0, "tile": tile, "position": 16})
    with pytest.raises(IllegalMove, match="not one of the tiles"):
        play(game, {"type": "take", "seat": 0, "tile": "C99", "position": 5})
    game = play(game, {"type": "take", "seat": 0, "tile": tile, "position": 5})
    game = play(game, {"type": "appoint", "seat": 0, "to": 1})
    game = play(game, {"type": "take", "seat": 1, "tile": game.revealed[0], "position": 5})
    game = play(game, {"type": "take", "seat": 2, "tile": game.revealed[0], "position": 10})
    game = play(game, {"type": "choose", "seat": 2, "stack": "center"})
    game = play(game, {"type": "take", "seat": 2, "tile": game.revealed[0], "position": 9})
    game = play(game, {"type": "appoint", "seat": 2, "to": 1})
    with pytest.raises(IllegalMove, match="already taken"):
        play(game, {"type": "take", "seat": 1, "tile": game.revealed[0], "position": 5})


@pytest.mark.parametrize("move, where", [
    ("take", "move"), ({"type": "jump", "seat": 0}, "move.type"), ({"type": "choose"}, "move.seat"),
    ({"type": "choose", "seat": 0, "stack": "moon"}, "move.stack"),
    ({"type": "take", "seat": 0, "tile": "C01", "position": 5}, "move.type"),
])
def test_malformed_moves_are_refused_with_a_reason(move, where):
    game = start(setup(3))
    with pytest.raises(PlanetError) as exc:
        play(game, move)
    assert where_text(exc.value.where) == where
    assert moves(game) == [] and game.phase == "choose"


def test_each_stack_is_chosen_four_times_and_an_empty_stack_cannot_be_chosen():
    game = start(setup(3))
    rng = random.Random(3)
    for _ in range(4):  # four center rounds empty the center stack
        game = play(game, {"type": "choose", "seat": game.to_act, "stack": "center"})
        game = play_random(game, rng, until=lambda g: g.phase == "choose")
    assert game.piles["center"] == () and game.chosen["center"] == 4
    assert "center" not in [m.stack for m in legal(game, game.to_act)]
    with pytest.raises(IllegalMove, match="center stack is empty"):
        play(game, {"type": "choose", "seat": game.to_act, "stack": "center"})


# -- 2 players -------------------------------------------------------------------------------

def test_two_players_a_draws_three_alone_hides_one_b_takes_a_takes_one_is_discarded():
    game = start(setup(2, seed=9))
    drawn = game.piles["downhill"][:3]
    game = play(game, {"type": "choose", "seat": 0, "stack": "downhill"})
    assert game.phase == "hide" and game.to_act == 0
    assert view(game, 0)["revealed"] == list(drawn)
    assert view(game, 1)["revealed"] == [HIDDEN] * 3 and view(game, None)["revealed"] == [HIDDEN] * 3
    for t in drawn:
        assert t not in json.dumps(view(game, 1)) and t not in json.dumps(view(game, None))
    game = play(game, {"type": "hide", "seat": 0, "tile": drawn[1]})
    assert game.to_act == 1
    b_view = view(game, 1)
    assert b_view["revealed"] == [drawn[0], HIDDEN, drawn[2]] and b_view["face_down"] == HIDDEN
    assert drawn[1] not in json.dumps(b_view) and drawn[1] not in json.dumps(view(game, None))
    assert view(game, 0)["face_down"] == drawn[1]
    assert {m["tile"] for m in b_view["legal"]} == {drawn[0], HIDDEN, drawn[2]}
    with pytest.raises(IllegalMove):  # B cannot name the face-down tile he has not seen
        play(game, {"type": "take", "seat": 1, "tile": drawn[1], "position": 2})
    game = play(game, {"type": "take", "seat": 1, "tile": HIDDEN, "position": 2})
    assert game.planets[1].cells[2].tile == drawn[1] and game.to_act == 0
    assert {m.tile for m in legal(game, 0)} == {drawn[0], drawn[2]}
    game = play(game, {"type": "take", "seat": 0, "tile": drawn[2], "position": 4})
    assert game.discarded == (drawn[0],)
    # roles swap: B is player A of round 2
    assert game.round == 2 and game.start == 1 and game.to_act == 1 and game.phase == "choose"


def test_two_player_roles_alternate_every_round():
    game = start(setup(2, seed=4))
    rng = random.Random(4)
    starts = []
    while not game.finished:
        starts.append(game.start)
        game = play_random(game, rng, until=lambda g, r=game.round: g.round != r)
    assert starts == [0, 1] * 8


# -- baobabs -----------------------------------------------------------------------------------

def test_a_third_baobab_turns_three_tiles_face_down_at_once_and_says_so():
    for seed in range(200):
        game = play_random(start(setup(3, seed=seed)), random.Random(seed))
        flips = [(n, e) for n, e in events(game) if e.kind == "flip"]
        if flips:
            break
    else:
        pytest.fail("no game had a flip")
    n, flip = flips[0]
    assert len(flip.positions) == 3
    assert all(catalog()[t].has_baobab for t in flip.tiles)
    planet = game.planets[flip.seat]
    assert all(planet.cells[p].face_down for p in flip.positions)
    text = event_text(seen_event(game, None, flip), game.setup.players, game.cat)
    assert "Third baobab" in text and "face down" in text
    # the flip came right after the take that caused it
    take = event_list(game)[n - 1]
    assert take.kind == "take" and take.seat == flip.seat and take.tile in flip.tiles
    cells = view(game, None)["planets"][flip.seat]["cells"]
    assert all(cells[p // 4][p % 4] == "back" for p in flip.positions)


# -- hidden characters -----------------------------------------------------------------------

def test_hidden_characters_are_known_to_their_owner_alone_until_the_end():
    game = play(start(setup(3, seed=2, hidden=True)), {"type": "choose", "seat": 0, "stack": "character"})
    drawn = list(game.revealed)
    # the tiles go round face down: only the player about to take sees them
    assert view(game, 0)["revealed"] == drawn
    assert view(game, 1)["revealed"] == [HIDDEN] * 3 and view(game, None)["revealed"] == [HIDDEN] * 3
    game = play(game, {"type": "take", "seat": 0, "tile": drawn[0], "position": 12})
    assert view(game, 0)["revealed"] == [HIDDEN] * 2  # appointing, not taking
    game = play(game, {"type": "appoint", "seat": 0, "to": 1})
    assert view(game, 1)["revealed"] == drawn[1:]
    mine = view(game, 0)["planets"][0]["cells"]
    assert mine[3][0] == drawn[0]
    for viewer in (1, 2, None):
        seen = view(game, viewer)
        assert seen["planets"][0]["cells"][3][0] == HIDDEN
        assert drawn[0] not in json.dumps(seen)
    game = play_random(game, random.Random(2))
    assert view(game, 1)["planets"][0]["cells"][3][0] == drawn[0]  # shown at the final scoring


# -- the end ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_end_is_scored_from_the_planets(n):
    game = play_random(start(setup(n, seed=n)), random.Random(n))
    assert game.round == 16 and game.to_act is None and legal(game, 0) == []
    # an independent reading of the rules (tests/independent_rules.py) scores each player's
    # tiles in the order taken, flipping baobabs on its own
    orders = [[e.tile for e in event_list(game) if isinstance(e, Took) and e.seat == seat]
              for seat in range(n)]
    for order, planet in zip(orders, game.planets, strict=True):
        assert sorted(order) == sorted(planet.tile_ids()) and len(order) == 16
    expected = ref.table(list(zip(NAMES[:n], orders, strict=True)))
    for got, want in zip(game.result["players"], expected, strict=True):
        assert got["name"] == want["name"]
        assert sorted(c["points"] for c in got["characters"]) == sorted(want["points"])
        for key in ("subtotal", "volcanoes", "penalty", "total", "rank", "winner"):
            assert got[key] == want[key], (key, got, want)
    assert game.result["winners"] == [w["name"] for w in expected if w["winner"]]
    assert view(game, None)["result"] == game.result
    with pytest.raises(IllegalMove, match="over"):
        play(game, {"type": "choose", "seat": 0, "stack": "center"})


def test_a_dealt_seed_is_too_big_to_search_for():
    # 31 bits could be searched in minutes for the seed that deals the tiles seen so far,
    # which would give away every face-down tile and every stack's order.
    seeds = [Setup.parse({"players": ["Ann", "Ben"]}).seed for _ in range(20)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**40 and len(set(seeds)) == 20


# -- undo and replay ---------------------------------------------------------------------------

def test_undo_takes_back_a_take_but_not_a_reveal():
    s = setup(3, seed=8)
    log = [{"type": "choose", "seat": 0, "stack": "center"}]
    game = replay(s, log)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        check_undo(game, 0)
    tile = game.revealed[0]
    log.append({"type": "take", "seat": 0, "tile": tile, "position": 5})
    game = replay(s, log)
    with pytest.raises(NotYourTurn):
        check_undo(game, 1)
    check_undo(game, 0)
    game = replay(s, log + [{"type": "undo"}])
    assert game.revealed[0] == tile and game.planets[0].tile_count == 0 and game.phase == "take"


def _two_player_round(seed=8, hidden=False):
    s = setup(2, seed=seed, hidden=hidden)
    log = [{"type": "choose", "seat": 0, "stack": "center"}]
    game = replay(s, log)
    face_down = game.revealed[0]
    log.append({"type": "hide", "seat": 0, "tile": face_down})
    return s, log, face_down


def test_a_blind_take_cannot_be_taken_back_the_taker_has_seen_the_tile():
    # Otherwise B takes the face-down tile, sees it on their planet, undoes and takes another.
    s, log, face_down = _two_player_round()
    log.append({"type": "take", "seat": 1, "tile": HIDDEN, "position": 5})
    game = replay(s, log)
    assert game.planets[1].cells[5].tile == face_down
    assert not can_undo(game) and not view(game, 1)["can_undo"]
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        check_undo(game, 1)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        check_undo(game, None)  # not by the host either


def test_a_take_that_discards_the_face_down_tile_face_up_cannot_be_taken_back():
    s, log, face_down = _two_player_round()
    game = replay(s, log)
    shown = [t for t in game.revealed if t != face_down]
    log.append({"type": "take", "seat": 1, "tile": shown[0], "position": 5})
    assert can_undo(replay(s, log))  # B took a face-up tile: nothing new was shown
    log.append({"type": "take", "seat": 0, "tile": shown[1], "position": 5})
    game = replay(s, log)
    assert face_down in game.discarded and not can_undo(game)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        check_undo(game, 0)


def test_a_two_player_take_that_discards_a_seen_tile_can_be_taken_back():
    s, log, face_down = _two_player_round()
    game = replay(s, log)
    shown = [t for t in game.revealed if t != face_down]
    log.append({"type": "take", "seat": 1, "tile": shown[0], "position": 5})
    log.append({"type": "take", "seat": 0, "tile": face_down, "position": 5})
    game = replay(s, log)
    assert shown[1] in game.discarded and can_undo(game)
    check_undo(game, 0)


def _hidden_character_round(n=3):
    s = setup(n, seed=4, hidden=True)
    log = [{"type": "choose", "seat": 0, "stack": "character"}]
    game = replay(s, log)
    log.append({"type": "take", "seat": 0, "tile": game.revealed[0], "position": 0})
    return s, log


def test_hidden_characters_handing_the_tiles_on_cannot_be_taken_back():
    # The appointed player saw which characters were left; an undo would let the first taker
    # appoint someone else, and the one who peeked would learn exactly what that player took.
    s, log = _hidden_character_round(3)
    assert can_undo(replay(s, log))  # took, not yet appointed: nobody else has seen anything
    log.append({"type": "appoint", "seat": 0, "to": 1})
    game = replay(s, log)
    assert not can_undo(game)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        check_undo(game, 0)
    game = play(game, {"type": "take", "seat": 1, "tile": game.revealed[0], "position": 0})
    assert game.to_act == 2 and not can_undo(game)  # the last player was appointed at once
    game = play(game, {"type": "take", "seat": 2, "tile": game.revealed[0], "position": 0})
    assert game.phase == "choose" and can_undo(game)  # the round is over: nothing left to see


def test_undoable_says_why_not_for_each_seat():
    # what the pages (and #11's shared phone) ask: may this seat take the last move back, and if not, why
    s = setup(3, seed=8)
    game = replay(s, [{"type": "choose", "seat": 0, "stack": "center"}])
    assert undoable(start(s), None) == Reason(Why.NOTHING)
    assert undoable(game, 0) == Reason(Why.SHOWN)
    game = play(game, {"type": "take", "seat": 0, "tile": game.revealed[0], "position": 5})
    assert undoable(game, 0) is None and undoable(game, None) is None
    assert undoable(game, 2) == Reason(Why.NOT_YOURS, 0)
    assert undoable(game, 2).message(s.players) == "Only Ann can take back their own move."
    hidden = setup(3, seed=8, hidden=True)
    game = replay(hidden, [{"type": "choose", "seat": 0, "stack": "character"}])
    game = play(game, {"type": "take", "seat": 0, "tile": game.revealed[0], "position": 0})
    game = play(game, {"type": "appoint", "seat": 0, "to": 2})
    assert undoable(game, 0) == Reason(Why.HANDED_ON, 2)
    assert "Cy has seen the character tiles left" in undoable(game, 0).message(hidden.players)
    assert undoable(play_random(game, random.Random(1)), None) == Reason(Why.FINISHED)


def test_without_hidden_characters_an_appoint_can_be_taken_back():
    s = setup(3, seed=4)
    log = [{"type": "choose", "seat": 0, "stack": "character"}]
    game = replay(s, log)
    log += [{"type": "take", "seat": 0, "tile": game.revealed[0], "position": 0},
            {"type": "appoint", "seat": 0, "to": 1}]
    assert can_undo(replay(s, log))


def test_replay_rebuilds_the_same_state():
    game = play_random(start(setup(4, seed=12)), random.Random(12))
    log = as_json(moves(game))
    again = replay(game.setup, log)
    assert view(again, 2) == view(game, 2)
    assert json.loads(json.dumps(log)) == log


# -- random games ------------------------------------------------------------------------------

class RandomGames(RuleBasedStateMachine):
    """Random legal games for 2–5 players, with and without hidden characters, to the end."""

    @initialize(n=st.integers(2, 5), hidden=st.booleans(), seed=st.integers(0, 2**31))
    def start(self, n, hidden, seed):
        self.game = start(Setup(NAMES[:n], seed, hidden))
        self.log = []
        self.starts = {1: 0}
        self.last_taker = {}

    def _play(self, move):
        before_round = self.game.round
        self.game = play(self.game, move)
        self.log.append(move)
        game = self.game
        takes = [e for e in event_list(game) if e.kind == "take" and e.round == before_round]
        if takes:
            self.last_taker[before_round] = takes[-1].seat
        if game.round != before_round:
            self.starts[game.round] = game.start

    @precondition(lambda self: not self.game.finished)
    @rule(pick=st.integers(0, 10**6))
    def move(self, pick):
        moves_now = legal(self.game, self.game.to_act)
        assert moves_now
        self._play(moves_now[pick % len(moves_now)].as_json())

    @precondition(lambda self: not self.game.finished)
    @rule(pick=st.integers(0, 10**6))
    def a_round(self, pick):
        rng = random.Random(pick)
        r = self.game.round
        while not self.game.finished and self.game.round == r:
            self._play(rng.choice(legal(self.game, self.game.to_act)).as_json())

    @precondition(lambda self: can_undo(self.game))
    @rule()
    def undo(self):
        self.log.append({"type": "undo"})
        self.game = replay(self.game.setup, self.log)
        # rebuild the round bookkeeping from the replayed events
        self.starts = {1: 0}
        self.last_taker = {}
        for e in event_list(self.game):
            if e.kind == "take":
                self.last_taker[e.round] = e.seat
            if e.kind == "round":
                self.starts[e.round] = e.seat

    @precondition(lambda self: self.game.finished)
    @rule()
    def the_end_shows_everything(self):
        seen = view(self.game, None, recent=self.game.event_count, words=words_for(self.game))
        assert seen["finished"] and seen["result"] and seen["legal"] == []
        assert '"hidden"' not in json.dumps(seen)

    @invariant()
    def tiles_are_conserved(self):
        tiles = all_tiles(self.game)
        assert len(tiles) == 80 and len(set(tiles)) == 80

    @invariant()
    def only_the_player_to_act_has_moves(self):
        g = self.game
        for seat in range(g.n):
            if seat != g.to_act:
                assert legal(g, seat) == []

    @invariant()
    def no_view_leaks_hidden_information(self):
        g = self.game
        if g.finished:
            return
        secrets_of = {}  # seat -> ids that seat must not see
        for owner, planet in enumerate(g.planets):
            if g.setup.hidden_characters:
                for p in POSITIONS_OF["character"]:
                    cell = planet.cells[p]
                    if cell is not None:
                        for viewer in [None, *range(g.n)]:
                            if viewer != owner:
                                secrets_of.setdefault(viewer, set()).add(cell.tile)
        if g.two_player and (g.phase == "hide" or g.face_down in g.revealed):
            private = g.revealed if g.phase == "hide" else [g.face_down]
            for viewer in (None, 1 - g.start):
                secrets_of.setdefault(viewer, set()).update(private)
        for viewer, secret in secrets_of.items():
            text = json.dumps(view(g, viewer, recent=g.event_count, words=words_for(g)))
            for tile in secret:
                assert f'"{tile}"' not in text and f"{tile} " not in text, (viewer, tile)

    @invariant()
    def last_taker_starts_the_next_round_and_two_player_roles_alternate(self):
        g = self.game
        for r, start_seat in self.starts.items():
            if r == 1:
                assert start_seat == 0
            elif g.two_player:
                assert start_seat == (r - 1) % 2
            else:
                assert start_seat == self.last_taker[r - 1]

    def teardown(self):
        rng = random.Random(len(self.log))
        while not self.game.finished:
            self._play(rng.choice(legal(self.game, self.game.to_act)).as_json())
            self.last_taker_starts_the_next_round_and_two_player_roles_alternate()
        g = self.game
        self.tiles_are_conserved()
        assert dict(g.chosen) == dict.fromkeys(STACKS, 4)
        assert all(g.piles[s] == () for s in STACKS)
        for planet in g.planets:
            assert planet.complete
            for p, cell in enumerate(planet.cells):
                assert catalog()[cell.tile].stack == STACK_AT[p]
            kinds = Counter(catalog()[c.tile].stack for c in planet.cells)
            assert kinds == dict.fromkeys(STACKS, 4)
        assert len(g.discarded) == (16 if g.two_player else 0)
        assert g.result is not None and len(g.result["players"]) == g.n
        assert view(replay(g.setup, self.log), None) == view(g, None)


RandomGames.TestCase.settings = settings(
    max_examples=40, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_random_games = RandomGames.TestCase
