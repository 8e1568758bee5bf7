"""No input makes the scoring contract fail: random JSON, and near-miss tables, answer 200 or a
400 with an error for a person, through the HTTP API."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from scorer.catalog import CHARACTERS, ITEMS, catalog

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
tile_ids = st.sampled_from(sorted(catalog().tiles) + ["back", None, "", "C00", 7])
counts = st.dictionaries(st.sampled_from(list(ITEMS) + ["face_down", "characters", "wings"]),
                         st.integers(-3, 30) | st.lists(st.sampled_from(list(CHARACTERS) + ["pilot"]), max_size=6) | json_values,
                         max_size=8)
player = st.fixed_dictionaries({"name": st.text(min_size=0, max_size=12) | json_values}, optional={
    "planet": st.fixed_dictionaries({"cells": st.lists(st.lists(tile_ids, min_size=3, max_size=5), min_size=3, max_size=5)}) | json_values,
    "tiles": st.lists(tile_ids, max_size=18) | json_values,
    "counts": counts | json_values,
})
tables = st.fixed_dictionaries({"players": st.lists(player, min_size=0, max_size=6) | json_values})


def check(client, body: bytes):
    r = client.post("/api/score", data=body, content_type="application/json")
    assert r.status_code in (200, 400), r.status_code
    data = r.json
    if r.status_code == 400:
        assert data["error"] and isinstance(data["where"], str)
        assert set(data) in ({"error", "where"}, {"error", "where", "errors"})
        if "errors" in data:  # several problems: all of them, the headline first
            assert len(data["errors"]) >= 2 and data["errors"][0] == {"error": data["error"], "where": data["where"]}
    else:
        assert len(data["players"]) >= 1


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(tables)
def test_near_miss_tables_never_fail(client, table):
    check(client, json.dumps(table).encode())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(json_values | st.binary(max_size=64).map(lambda b: b.decode("latin-1")))
def test_any_json_or_bytes_never_fail(client, value):
    body = value.encode("latin-1", "replace") if isinstance(value, str) else json.dumps(value).encode()
    check(client, body)
