"""The learned box in the database: kept across app instances on one database (as gunicorn's
workers, or a restart, see it), compare-and-set on its version, forgotten on request; each
worker's cache reloads it when another worker changed it."""
import cv2
import numpy as np
import pytest

from scorer.box_store import StaleBox, box_stamp, forget_box, load_box_bytes, save_box_bytes
from scorer.web import create_app
from tests.conftest import close_database, database_url
from vision.box import Box, Sample, box_from_bytes


def tile_png(shade: int) -> bytes:
    img = np.full((128, 128, 3), shade, np.uint8)
    cv2.circle(img, (64, 64), 30, (255 - shade, 40, 200), -1)
    return cv2.imencode(".png", img)[1].tobytes()


def small_box(*names) -> Box:
    return Box().add(Sample(n, 5, tile_png(20 * i)) for i, n in enumerate(names))


@pytest.fixture
def two_workers(tmp_path):
    """Two apps on one database, as two gunicorn workers (or the app before and after a restart)."""
    url = database_url(tmp_path, "shared.sqlite3")
    first = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "a", "DATABASE_URL": url})
    second = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "b", "DATABASE_URL": url})
    yield first, second
    close_database(first, second)


def test_a_box_saved_by_one_worker_is_read_by_another(two_workers):
    first, second = two_workers
    data = small_box("C01", "C02").to_bytes()
    stamp = save_box_bytes(first.extensions["db"], data, None)
    found = load_box_bytes(second.extensions["db"])
    assert found is not None
    assert found[0].id == stamp.id and found[0].version == 1
    assert found[1] == data
    assert sorted(box_from_bytes(found[1]).tiles()) == ["C01", "C02"]


def test_a_change_on_a_stale_version_is_refused_and_writes_nothing(two_workers):
    first, second = two_workers
    db1, db2 = first.extensions["db"], second.extensions["db"]
    v1 = save_box_bytes(db1, small_box("C01").to_bytes(), None)
    v2 = save_box_bytes(db2, small_box("C01", "C02").to_bytes(), v1)   # worker 2 learns first
    assert v2.version == 2 and v2.id == v1.id
    with pytest.raises(StaleBox):
        save_box_bytes(db1, small_box("C01", "C03").to_bytes(), v1)      # worker 1 still holds v1
    assert box_from_bytes(load_box_bytes(db1)[1]).tiles() == ["C01", "C02"]
    with pytest.raises(StaleBox):   # a second "first box" while one exists
        save_box_bytes(db2, small_box("K01").to_bytes(), None)
    assert box_stamp(db1).version == 2


def test_forget_drops_the_box_for_every_worker(two_workers):
    first, second = two_workers
    save_box_bytes(first.extensions["db"], small_box("C01").to_bytes(), None)
    assert forget_box(second.extensions["db"]) is True
    assert load_box_bytes(first.extensions["db"]) is None and box_stamp(first.extensions["db"]) is None
    assert forget_box(second.extensions["db"]) is False


def test_each_worker_reloads_its_cached_box_when_another_changed_it(two_workers):
    from scorer.web.learned import box_in_use, scan_reference
    first, second = two_workers
    v1 = save_box_bytes(first.extensions["db"], small_box("C01").to_bytes(), None)
    with second.test_request_context():
        used = box_in_use()
        assert used.box.tiles() == ["C01"] and (used.folder / "box.json").exists()
        assert box_in_use() is used                      # cached: not decoded again
        assert scan_reference() == str(used.folder)
    save_box_bytes(first.extensions["db"], small_box("C01", "C02").to_bytes(), v1)
    with second.test_request_context():
        again = box_in_use()
        assert again is not used and again.box.tiles() == ["C01", "C02"]
        assert again.stamp.version == 2
    forget_box(first.extensions["db"])
    with second.test_request_context():
        assert box_in_use() is None and scan_reference() is None


def test_a_damaged_box_in_the_database_reads_as_no_box(two_workers):
    from scorer.web.learned import box_in_use
    first, second = two_workers
    save_box_bytes(first.extensions["db"], b"not a zip", None)
    with second.test_request_context():
        assert box_in_use() is None
