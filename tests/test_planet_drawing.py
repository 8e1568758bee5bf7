"""The tracker draws its planets from kept cell drawings (``planet_view.drawn_cells``): every
planet it draws must be, byte for byte, the planet the shared macro draws from the same cells
(``partials/planet.html``, as the score and results pages draw it), in every language and under
any script root, whatever was drawn and kept before."""
from __future__ import annotations

from flask import get_template_attribute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.catalog import catalog
from scorer.draft.standing import Standing
from scorer.web.planet_view import PlanetView, drawn_cells
from scorer.web.planet_view import planet as planet_view
from scorer.web.tracker_pages import _draw_planet

VALUES = st.one_of(st.sampled_from(sorted(catalog().tiles)), st.sampled_from(["back", "hidden", "", None, " C10 "]),
                   st.from_regex(r"[A-Z][0-9]{2}|x<y&\"", fullmatch=True))
LANGUAGES = st.sampled_from(["en", "fr", "zh-TW"])
ROOTS = st.sampled_from(["", "/planet"])


def macro_planet(cells, label: str, small: bool = True) -> str:
    draw = get_template_attribute("partials/planet.html", "planet")
    return str(draw(planet_view(cells, label=label), "view", small=small))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(VALUES, min_size=16, max_size=16), lang=LANGUAGES, root=ROOTS, small=st.booleans())
def test_a_planet_from_kept_cells_is_the_planet_the_shared_macro_draws(app, cells, lang, root, small):
    with app.test_request_context("/", headers={"Accept-Language": lang}, base_url="http://x" + root):
        draw = get_template_attribute("partials/planet.html", "planet")
        fast = str(draw(PlanetView(cells=(), label="Ann's planet"), "view", small=small,
                        drawn=drawn_cells(cells, small=small)))
        assert fast == macro_planet(cells, "Ann's planet", small)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(VALUES, min_size=16, max_size=16), lang=LANGUAGES, finished=st.booleans(),
       points=st.integers(-9, 60), penalty=st.integers(0, 9), hidden=st.integers(0, 4))
def test_a_tracker_planet_box_draws_its_cells_as_the_shared_macro_and_its_points(app, cells, lang, finished,
                                                                                points, penalty, hidden):
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        box = {"cells": cells, "label": "Ben's planet", "tiles": sum(1 for v in cells if v),
               "standing": Standing(seat=1, points=points, volcanoes=penalty, penalty=penalty, hidden=hidden,
                                    leader=penalty > 0)}
        drawn = str(_draw_planet(box, finished))
        assert drawn.startswith(macro_planet(cells, "Ben's planet"))
        assert f'data-points="{points}"' in drawn and drawn.count('class="cell ') == 16


def test_cells_no_tile_shows_are_drawn_as_typed_and_never_kept(app):
    """A posted planet may hold anything: its drawing is made for it, and only real tiles, the
    back, hidden and empty are kept, so no flood of made-up values grows the table."""
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        for n in range(50):
            first = drawn_cells([f"X{n}", "C10"] + [None] * 14)[0]
            assert f"X{n}" in first
        kept = app.extensions["planet_cell_drawings"]
        values = [part for key in kept for part in key if isinstance(part, str)]
        assert not any(v.startswith("X") for v in values) and "C10" in values
