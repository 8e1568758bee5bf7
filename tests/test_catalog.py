"""The catalog: the project's own file, validated at load, matching the shared reference."""
import csv
from collections import Counter
from pathlib import Path

import pytest

from scorer.catalog import (
    CHARACTERS, DEFAULT_PATH, ITEMS, STACKS, CatalogError, catalog, load_catalog, parse_catalog,
)

from independent_rules import REFERENCE_CSV, SHARED_CSV


def test_catalog_has_80_tiles_20_per_stack():
    cat = catalog()
    assert len(cat) == 80
    assert Counter(t.stack for t in cat) == {s: 20 for s in STACKS}


def test_characters_only_on_character_tiles_and_all_13_present():
    cat = catalog()
    for t in cat:
        assert (t.character is not None) == (t.stack == "character"), t.id
        if t.character:
            assert set(t.items) <= {"star"}
    assert {t.character for t in cat.stack("character")} == set(CHARACTERS)


def test_at_most_one_baobab_and_one_volcano_per_tile():
    for t in catalog():
        assert t.count("baobab") <= 1 and t.count("volcano") <= 1


def test_catalog_matches_the_shared_reference_file():
    cat = catalog()
    with REFERENCE_CSV.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 80
    for row in rows:
        tile = cat[row["id"]]
        assert tile.stack == row["stack"], row["id"]
        assert (tile.character or "") == row["character"], row["id"]
        for item in ITEMS:
            assert tile.count(item) == int(row[item]), (row["id"], item)


def _broken(replace_from: str, replace_to: str) -> str:
    text = DEFAULT_PATH.read_text()
    assert replace_from in text
    return text.replace(replace_from, replace_to, 1)


@pytest.mark.parametrize("old,new,message", [
    ('C04 = { stack = "center", volcano = 1', 'C04 = { stack = "center", volcano = 2', "one volcano"),
    ('C01 = { stack = "center", baobab = 1', 'C01 = { stack = "centre", baobab = 1', "stack must be"),
    ('C05 = { stack = "center",', 'C05 = { stack = "center", character = "king",', "only character tiles"),
    ('K20 = { stack = "character", character = "little_prince"', 'K20 = { stack = "character", character = "prince"', "known character"),
    ('C06 = { stack = "center", volcano = 1', 'C06 = { stack = "center", dragon = 1, volcano = 1', "unknown item"),
    ('C07 = { stack = "center", volcano = 1', 'C07 = { stack = "center", volcano = -1', "whole number"),
    ('K05 = { stack = "character", character = "astronomer"', 'K05 = { stack = "character", character = "astronomer", rose = 1', "only Large Stars"),
])
def test_a_broken_line_is_named(old, new, message):
    text = _broken(old, new)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith(new.split(" =")[0] + " ="))
    with pytest.raises(CatalogError) as info:
        parse_catalog(text, "tiles.toml")
    assert f"tiles.toml:{line}:" in str(info.value)
    assert message in str(info.value)


def test_a_missing_tile_or_unreadable_file_fails_at_load(tmp_path):
    text = "\n".join(l for l in DEFAULT_PATH.read_text().splitlines() if not l.startswith("U20 ="))
    with pytest.raises(CatalogError, match="has 79"):
        parse_catalog(text, "x")
    bad = tmp_path / "tiles.toml"
    bad.write_text("[tiles]\nC01 = { stack = ")
    with pytest.raises(CatalogError, match="not a readable catalog"):
        load_catalog(bad)
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog(tmp_path / "missing.toml")


def test_serve_refuses_to_start_on_a_broken_catalog(tmp_path):
    import os
    import subprocess
    import sys
    bad = tmp_path / "tiles.toml"
    bad.write_text(_broken('C04 = { stack = "center", volcano = 1', 'C04 = { stack = "center", volcano = 2'))
    proc = subprocess.run([sys.executable, "-m", "scorer", "serve", "--port", "1"],
                          env={**os.environ, "PLANET_CATALOG": str(bad)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "C04" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(not SHARED_CSV.exists(), reason="only where shared/ is beside the checkout (it is in CI)")
def test_the_tests_copy_of_the_reference_is_the_shared_file():
    copy = Path(__file__).resolve().parent / "data" / "tile-catalog.csv"
    assert copy.read_bytes() == SHARED_CSV.read_bytes()
