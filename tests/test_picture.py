"""The results picture: its layout says what the table says (ranking, totals, notes, planets),
and the PNG drawn from it decodes, has the layout's size, is under 300 KB, and has ink where
each text line and each tile is laid out."""
from __future__ import annotations

import io
import re

import numpy as np
from PIL import Image, ImageDraw
from test_history import T1, T2, T4

from scorer.catalog import catalog
from scorer.contract import score_request
from scorer.db import save_table
from scorer.web.picture import COLOURS, MAX_BYTES, font, layout, render
from scorer.planet import POSITIONS_OF


def five_planets() -> dict:
    """Five players, each a full planet built from the catalog in take order."""
    stacks = {s: [t.id for t in catalog().stack(s)] for s in POSITIONS_OF}
    names = ["Ann", "Ben", "Cy", "Di", "Ed"]
    return {"players": [{"name": n, "tiles": [t for s in POSITIONS_OF for t in stacks[s][i * 4:(i + 1) * 4]]}
                        for i, n in enumerate(names)]}


def test_the_layout_says_what_the_table_says():
    result = score_request(T1)
    plan = layout(result, "2025-05-01")
    assert plan.lines() == [
        "Make Me a Planet · results", "Ann wins!", "2025-05-01",
        "1", "Ann ★", "27", "2 volcanoes", "Lamplighter 5 · Astronomer 4 · King 14 · Vain Man 4",
        "2", "Ben", "18", "22 − 4 for volcanoes", "Lamplighter 3 · Hunter 3 · King 7 · Drunkard 9",
        "Ben has the most volcanoes (4) and loses 4 points.", "Ann wins with 27 points."]
    assert plan.cells == ()                                      # counted by hand: no planet to draw
    # in ranking order, not the order entered: in T2 the second player (Cy, 25) won
    assert layout(score_request(T2)).lines()[2:6] == ["1", "Cy ★", "25", "1 volcano"]


def test_a_planet_alone_shows_its_score_before_the_penalty():
    plan = layout(score_request(T4))
    assert plan.lines()[:5] == ["Make Me a Planet · results", "Ann’s planet", "Ann", "56", "0 volcanoes"]


def test_every_planet_is_drawn_as_its_sixteen_tiles_in_ranking_order():
    req = five_planets()
    result = score_request(req)
    plan = layout(result)
    ranked = sorted(result["players"], key=lambda p: p["rank"])
    assert len(plan.cells) == 5 * 16
    for i, p in enumerate(ranked):
        flat = [v for row in p["planet"]["cells"] for v in row]
        assert [c.value for c in plan.cells[i * 16:(i + 1) * 16]] == flat
    totals = [t.text for t in plan.texts if t.size == 64 and t.colour == "gold" and t.anchor == "ra"]
    assert totals == [str(p["total"]) for p in ranked]


def ink(img: Image.Image, box, background: str) -> int:
    """How many pixels in ``box`` differ clearly from the background colour."""
    bg = np.array(Image.new("RGB", (1, 1), background).getpixel((0, 0)), dtype=int)
    region = np.asarray(img.crop(box).convert("RGB"), dtype=int)
    return int((np.abs(region - bg).sum(axis=2) > 60).sum())


def colours(img: Image.Image) -> int:
    return len(img.getcolors(maxcolors=1 << 20) or ())


def test_the_png_decodes_is_small_and_has_ink_where_the_layout_says():
    plan = layout(score_request(five_planets()), "2025-05-01")
    png = render(plan)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < MAX_BYTES
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.size == (plan.width, plan.height)
    rgb = img.convert("RGB")
    assert colours(rgb) > 50                                      # not blank
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    inside_card = {id(t) for t in plan.texts
                   for b in plan.boxes if b.y <= t.y <= b.y + b.h and b.x <= t.x <= b.x + b.w}
    for t in plan.texts:
        box = measure.textbbox((t.x, t.y), t.text, font=font(t.size, t.bold), anchor=t.anchor)
        background = COLOURS["card"] if id(t) in inside_card else COLOURS["bg"]
        assert ink(rgb, box, background) > 20, f"no ink for {t.text!r}"
    for c in plan.cells:
        cell = rgb.crop((c.x + 2, c.y + 2, c.x + c.size - 4, c.y + c.size - 4))
        assert colours(cell) > 4, f"tile {c.value} not drawn"


def test_the_picture_is_served_and_is_the_pages_preview(client, app):
    table_id = save_table(app.extensions["db"], T1, score_request(T1))
    r = client.get(f"/tables/{table_id}/picture.png")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data[:4] == b"\x89PNG"
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    # an address other phones can open (this machine's, never one taken from the request's Host)
    assert re.search(rf'<meta property="og:image" content="http://[^"/]+/tables/{table_id}/picture.png">', page)
    assert f'download="make-me-a-planet-{table_id}.png"' in page
    assert client.get("/tables/nope/picture.png").status_code == 404
    # shown in the page as a lossless WebP: the same pixels in fewer bytes
    shown = client.get(f"/tables/{table_id}/picture.webp")
    assert shown.status_code == 200 and shown.mimetype == "image/webp" and shown.data[8:12] == b"WEBP"
    assert len(shown.data) < 0.75 * len(r.data)
    as_png, as_webp = (Image.open(io.BytesIO(d)).convert("RGB") for d in (r.data, shown.data))
    assert as_png.size == as_webp.size and as_png.tobytes() == as_webp.tobytes()
    assert f'<img class="results-picture" src="/tables/{table_id}/picture.webp"' in page
