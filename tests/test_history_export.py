"""Export → import into a fresh database loses nothing and importing twice adds nothing; a bad
file is refused whole with a message; the commands do the same as the pages."""
from __future__ import annotations

import csv
import io
import json
import re

from test_history import T1, T2, T3, T4, csrf_of, play_tracked_game, store_tables

from scorer.__main__ import main
from scorer.db import load_table
from scorer.history_store import play_for_table
from scorer.web import create_app


def without_stamp(text: str) -> dict:
    data = json.loads(text)
    data.pop("exported")
    return data


def page_text(client, url: str) -> str:
    """A page without its per-session CSRF tokens."""
    return re.sub(r'(csrf_token" type="hidden" value="|X-CSRFToken": ")[^"]+', "", client.get(url).get_data(as_text=True))


def fresh_app(tmp_path, name):
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / f"{name}-instance",
                       "DATABASE_URL": f"sqlite:///{tmp_path / name}.sqlite3"})


def test_export_then_import_into_a_fresh_database_loses_nothing(client, app, tmp_path):
    db = app.extensions["db"]
    ids = store_tables(db, [T1, T2, T3, T4])
    play_tracked_game(client)
    exported = client.get("/history/export.json").get_data(as_text=True)
    other = fresh_app(tmp_path, "other")
    other_client = other.test_client()
    upload_page = other_client.get("/history/import").get_data(as_text=True)
    r = other_client.post("/history/import", data={"csrf_token": csrf_of(upload_page),
                                                    "file": (io.BytesIO(exported.encode()), "plays.json")})
    assert r.status_code == 200 and "5 plays added." in r.get_data(as_text=True)
    assert without_stamp(other_client.get("/history/export.json").get_data(as_text=True)) == without_stamp(exported)
    odb = other.extensions["db"]
    for table_id in ids:  # every table reopens with the same request and result, under the same id
        mine, theirs = load_table(db, table_id), load_table(odb, table_id)
        assert (theirs.request, theirs.result, theirs.created) == (mine.request, mine.result, mine.created)
        assert play_for_table(odb, table_id) == play_for_table(db, table_id)
    assert page_text(other_client, "/players/ann") == page_text(client, "/players/ann")
    again = other_client.post("/history/import", data={"csrf_token": csrf_of(upload_page),
                                                        "file": (io.BytesIO(exported.encode()), "plays.json")})
    assert "0 plays added. 5 were already here." in again.get_data(as_text=True)
    other.extensions["db"].dispose()


def test_a_bad_file_is_refused_whole_and_changes_nothing(client, app, tmp_path):
    store_tables(app.extensions["db"], [T1, T2])
    data = json.loads(client.get("/history/export.json").get_data(as_text=True))
    data["plays"][1]["result"]["players"][0]["total"] = "lots"
    other = fresh_app(tmp_path, "bad")
    oc = other.test_client()
    token = csrf_of(oc.get("/history/import").get_data(as_text=True))
    for body, why in ((json.dumps(data), "plays[1].result: players[0].total is not a whole number."),
                      ("{not json", "That file is not JSON."),
                      (json.dumps({"format": "x"}), "This is not an export of plays")):
        r = oc.post("/history/import", data={"csrf_token": token, "file": (io.BytesIO(body.encode()), "p.json")})
        assert r.status_code == 422 and why in r.get_data(as_text=True)
    assert json.loads(oc.get("/history/export.json").get_data(as_text=True))["plays"] == []
    other.extensions["db"].dispose()


def test_the_csv_has_one_row_per_player(client, app):
    store_tables(app.extensions["db"], [T1, T3])
    rows = list(csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data(as_text=True))))
    assert [(r["player"], r["score"], r["rank"], r["winner"], r["volcano_penalty"]) for r in rows] == [
        ("Ann", "27", "1", "1", "0"), ("Ben", "18", "2", "0", "-4"),
        ("ANN", "35", "1", "1", "-3"), ("Ben", "19", "2", "0", "-3"), ("Cy", "8", "3", "0", "0")]
    assert rows[0]["characters"] == "Lamplighter 5; Astronomer 4; King 14; Vain Man 4"


def test_the_commands_export_and_import(tmp_path, capsys):
    source, target = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    app = create_app({"DATABASE_URL": source, "INSTANCE_PATH": tmp_path / "ia"})
    store_tables(app.extensions["db"], [T1, T2])
    app.extensions["db"].dispose()
    out = tmp_path / "plays.json"
    assert main(["export", "--database", source, str(out)]) == 0
    assert main(["import", "--database", target, str(out)]) == 0
    assert main(["import", "--database", target, str(out)]) == 0
    printed = capsys.readouterr().out
    assert "2 plays added." in printed and "0 plays added. 2 were already here." in printed
    assert main(["export", "--database", target, "--format", "csv"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 1 + 4
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert main(["import", "--database", target, str(tmp_path / "bad.json")]) == 2
    assert re.search(r"Nothing was imported", capsys.readouterr().out)
    assert main(["import", "--database", target, str(tmp_path / "missing.json")]) == 2
