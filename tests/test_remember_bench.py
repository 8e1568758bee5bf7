"""``python -m vision.remember_bench``: what remembering does on a second-box set, totals only."""
from pathlib import Path

import pytest

from vision import tuning
from vision.remember_bench import main, run

HARD = Path(__file__).resolve().parent.parent / "sample_photos" / "box2-heldout8"   # a box read poorly


def test_totals_on_a_box_read_poorly():
    t = run(HARD, most=2)
    assert (t.photos, t.cells, t.planets) == (2, 32, 2)
    assert t.own_same == t.planets and t.own_same >= t.own_agree     # the player's own planets are remembered
    assert t.others == 8 and t.others_same == 0                       # the other photo's planet, each turn: never
    assert t.wrong == 32 - t.right_taught > 0
    assert t.remembered > 0 and t.refused == 0
    # the review's first row holds every tappable one of the first 4 likely tiles, and all 8 hold it
    assert t.first4_free <= t.first4 and t.first4_free <= t.row <= t.kept <= t.wrong
    # read again with their own tiles remembered, the photos read better than with the box as taught
    # (box2-heldout8's first two: 23 -> 27 of 32), and still not perfectly: the comparison's ceiling
    assert t.right_taught < t.right_self < t.cells


def test_an_unknown_set_is_refused(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["--set=no-such-set"])
    assert "no such set" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--folder", str(tmp_path)])                              # no teach/ and test/ in it
    assert "not a set" in capsys.readouterr().err


def test_remembering_alone_on_a_folder_with_the_rule_off(capsys):
    main(["--folder", str(HARD), "--most", "2", "--remembering-only", "--keep-sharper", "off"])
    out = capsys.readouterr().out
    assert out.startswith(f"{HARD}: 2 photos\n") and "own planet" not in out
    assert "correcting and remembering every scan: cells right" in out
    assert " 0 kept as the box had them" in out                       # the rule off: every correction taken
    assert tuning.REMEMBER_SHARPER is True                             # switched back after the run
