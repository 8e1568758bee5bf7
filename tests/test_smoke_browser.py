import pytest

pytestmark = pytest.mark.browser


def test_home_opens_on_a_phone(live_server, page, shot):
    page.goto(live_server.url + "/")
    assert "Make Me a Planet" in page.title()
    assert page.viewport_size == {"width": 390, "height": 844}
    shot(page, "home")
