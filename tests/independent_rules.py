"""A second, independent reading of the rules, written straight from the rulebook and SPEC §1
without importing the project's scoring code. Property tests check the two agree."""
import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_CSV = ROOT.parent / "shared" / "reference" / "tile-catalog.csv"
# A copy of the shared reference kept with the tests, for a checkout without shared/ beside it
# (test_catalog checks the copy is the shared file, where both are there). Never the project's
# own catalog: that is what is being checked.
REFERENCE_CSV = SHARED_CSV if SHARED_CSV.exists() else ROOT / "tests" / "data" / "tile-catalog.csv"
ITEMS = ["baobab", "volcano", "sunset", "rose", "lamppost", "box", "star", "fox", "elephant", "snake",
         "sheep_white", "sheep_grey", "sheep_brown"]


def load_tiles():
    """id -> dict(stack, character, items...), from the reference CSV."""
    with REFERENCE_CSV.open(newline="") as fh:
        return {row["id"]: {"stack": row["stack"], "character": row["character"] or None,
                            **{i: int(row[i]) for i in ITEMS}} for row in csv.DictReader(fh)}


TILES = load_tiles()


def play_out(take_order):
    """Apply baobab flips in take order; return (face-up ids, face-down count)."""
    face_up, face_down, pending = [], 0, []
    for tid in take_order:
        face_up.append(tid)
        if TILES[tid]["baobab"]:
            pending.append(tid)
            if len(pending) == 3:
                for p in pending:
                    face_up.remove(p)
                face_down += 3
                pending = []
    return face_up, face_down


def planet_points(face_up, face_down):
    total = lambda item: sum(TILES[t][item] for t in face_up)
    chars = [TILES[t]["character"] for t in face_up if TILES[t]["character"]]
    volcano_tiles = sum(1 for t in face_up if TILES[t]["volcano"] and not TILES[t]["character"])
    non_char_face_up = sum(1 for t in face_up if not TILES[t]["character"])
    geography = non_char_face_up - volcano_tiles + face_down
    sheep = [total("sheep_white"), total("sheep_grey"), total("sheep_brown")]
    out = []
    for ch in chars:
        if ch == "vain_man": p = 4 * total("snake")
        elif ch == "geographer": p = geography
        elif ch == "astronomer": p = 2 * total("sunset")
        elif ch == "king": p = 14 if total("rose") == 1 else 7 if total("rose") == 2 else 0
        elif ch == "lamplighter": p = total("lamppost")
        elif ch == "hunter": p = 3 * sum(1 for n in (total("fox"), total("elephant"), total("snake"), sum(sheep)) if n > 0)
        elif ch == "drunkard": p = 3 * face_down
        elif ch == "businessman_white": p = 2 * sheep[0]
        elif ch == "businessman_grey": p = 3 * sheep[1]
        elif ch == "businessman_brown": p = 5 * sheep[2]
        elif ch == "gardener": p = 7 * total("baobab")
        elif ch == "turkish_astronomer": p = total("star")
        elif ch == "little_prince": p = 3 * sum(1 for n in sheep if n > 0) + total("box")
        else: raise ValueError(ch)
        out.append((ch, p))
    return out, total("volcano")


def table(players):
    """players: list of (name, take_order). Returns list of dicts in the same order."""
    rows = []
    for name, order in players:
        face_up, face_down = play_out(order)
        chars, volcanoes = planet_points(face_up, face_down)
        rows.append({"name": name, "points": [p for _, p in chars], "subtotal": sum(p for _, p in chars),
                     "volcanoes": volcanoes})
    top = max(r["volcanoes"] for r in rows)
    for r in rows:
        r["penalty"] = -r["volcanoes"] if top and r["volcanoes"] == top else 0
        r["total"] = r["subtotal"] + r["penalty"]
    for r in rows:
        better = [o for o in rows if o["total"] > r["total"] or (o["total"] == r["total"] and o["volcanoes"] < r["volcanoes"])]
        r["rank"] = len(better) + 1
        r["winner"] = r["rank"] == 1
    return rows
