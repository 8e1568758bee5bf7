"""Languages: every message of the code translated in every shipped catalog with the same
placeholders, the compiled catalogs up to date, the language chosen (Accept-Language, the
remembered switch), and the JSON contracts keeping their keys and ids in English."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorer.i18n import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([diouxXeEfFgGcrsa])")


def _placeholders(text: str) -> set[tuple[str, str]]:
    """``{("who", "s"), ("n", "d")}``: a ``%(n)d`` and a ``%(n)s`` are not the same placeholder."""
    return set(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def extracted() -> dict[tuple[str | None, str | tuple[str, str]], str]:
    """Every message in the code, extracted now (Babel's API, babel.cfg's mapping) into memory:
    (context, id) -> where it is."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map):
        if not isinstance(message, str) and (len(message) != 2 or not all(message)):
            raise AssertionError(f"{filename}:{lineno}: Babel cannot read this message as written (a "
                                 f"translating call inside another's arguments?): {message!r}")
        key = (context, message if isinstance(message, str) else tuple(message))
        found.setdefault(key, f"{filename}:{lineno}")
    return found


def _catalog(code: str):
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh, locale=code)


def test_the_shipped_languages_are_found_in_the_folder():
    assert SHIPPED == ["fr", "zh_Hant_TW"]
    assert LANGUAGES[0] == "en"


def test_the_code_has_messages_and_templates_are_read(extracted):
    ids = {mid for _ctx, mid in extracted}
    assert "Vain Man" in ids  # scorer/catalog.py, N_()
    assert ("%(num)d volcano", "%(num)d volcanoes") in ids  # ngettext
    assert "Language" in ids  # templates/base.html
    assert len(extracted) > 300


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated_with_the_same_placeholders(code, extracted):
    """Fails when a message of the code has no translation in a shipped language, or a
    translation drops, adds or changes a placeholder (each plural form too)."""
    cat = _catalog(code)
    untranslated, wrong = [], []
    for (context, mid), where in sorted(extracted.items(), key=lambda kv: kv[1]):
        msg = cat.get(mid[0] if isinstance(mid, tuple) else mid, context=context)
        if msg is not None and (tuple(msg.id) if isinstance(msg.id, (list, tuple)) else msg.id) != mid:
            msg = None  # the same singular with another plural (or none): not this message's translation
        forms = (msg.string if isinstance(msg.string, tuple) else (msg.string,)) if msg else ()
        if msg is None or msg.fuzzy or not forms or not all(forms):
            untranslated.append(f"{where}: {mid!r}")
            continue
        if isinstance(mid, tuple):
            one, many = _placeholders(mid[0]), _placeholders(mid[1])
            if len(forms) != cat.num_plurals:
                wrong.append(f"{where}: {len(forms)} forms, the language has {cat.num_plurals}")
            for form in forms:  # a form may say "one" where English has %(num)d, never more or other
                if not (one & many) <= _placeholders(form) <= (one | many):
                    wrong.append(f"{where}: {form!r} against {mid!r}")
            if cat.num_plurals > 1 and _placeholders(forms[-1]) != many:  # "many" says all the plural says
                wrong.append(f"{where}: {forms[-1]!r} against {mid[1]!r}")
        elif _placeholders(forms[0]) != _placeholders(mid):
            wrong.append(f"{where}: {forms[0]!r} against {mid!r}")
    assert not untranslated, f"{code}: {len(untranslated)} untranslated:\n" + "\n".join(untranslated[:40])
    assert not wrong, f"{code}: placeholders differ:\n" + "\n".join(wrong[:40])


@pytest.mark.parametrize("code", SHIPPED)
def test_the_compiled_catalogs_match_their_sources(code):
    """The committed .mo is what `make i18n-compile` makes of the committed .po."""
    po = _catalog(code)
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo", "rb") as fh:
        mo = read_mo(fh)

    def table(cat):
        out = {}
        for m in cat:
            key = tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id
            forms = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
            if key and not m.fuzzy and all(forms):
                out[(m.context, key)] = forms
        return out
    assert table(mo) == table(po)
    assert mo.num_plurals == po.num_plurals


def test_plural_rules_are_the_languages():
    assert (_catalog("fr").num_plurals, _catalog("fr").plural_expr) == (2, "(n > 1)")
    assert _catalog("zh_Hant_TW").num_plurals == 1


# -- in a request ----------------------------------------------------------------------------


def _in(app, accept: str = "", cookie: str = ""):
    headers = {"Accept-Language": accept} if accept else {}
    if cookie:
        headers["Cookie"] = f"lang={cookie}"
    return app.test_request_context("/", headers=headers)


@pytest.mark.parametrize("n, fr, zh", [(0, "0 volcan", "0 座火山"), (1, "1 volcan", "1 座火山"),
                                       (2, "2 volcans", "2 座火山")])
def test_plurals_come_from_the_catalog(app, n, fr, zh):
    from scorer.catalog import item_words
    with _in(app, "fr"):
        assert item_words("volcano", n) == fr
    with _in(app, "zh-TW"):
        assert item_words("volcano", n) == zh
    with _in(app, "en"):
        assert item_words("volcano", n) == f"{n} volcano{'' if n == 1 else 'es'}"


def test_the_reasons_of_the_rules_speak_the_language(app):
    from scorer.rules import Contents, score_character
    hunter = Contents(("hunter",), {"fox": 1, "elephant": 1, "snake": 1, "sheep_white": 2}, 0, 12)
    with _in(app, "fr-FR,fr;q=0.9"):
        assert score_character("hunter", hunter)[1] == (
            "Le Chasseur — renard, éléphant, serpent et mouton : 4 espèces × 3 = 12")
        assert score_character("geographer", hunter)[1] == (
            "Le Géographe — 12 tuiles de planète sans volcan × 1 = 12")
    with _in(app, "zh-Hant-TW"):
        assert score_character("hunter", hunter)[1] == "獵人 — 狐狸、大象、蛇和羊：4 種動物 × 3 = 12"
        assert score_character("businessman_white", hunter)[1] == "商人（白羊） — 2 隻白羊 × 2 = 4"
    assert score_character("hunter", hunter)[1] == "Hunter — fox, elephant, snake and sheep: 4 species × 3 = 12"


@pytest.mark.parametrize("accept, cookie, want", [
    ("fr-CA,fr;q=0.9,en;q=0.5", "", "fr"), ("zh-TW", "", "zh_Hant_TW"), ("zh-HK,zh;q=0.8", "", "zh_Hant_TW"),
    ("zh-Hant", "", "zh_Hant_TW"), ("de-DE,de", "", "en"), ("", "", "en"), ("fr", "zh_Hant_TW", "zh_Hant_TW"),
    ("fr", "xx", "fr"), ("de, en;q=0.1, fr;q=0.5", "", "fr"),
])
def test_the_language_is_the_switch_then_the_browser(app, accept, cookie, want):
    from scorer.web.extensions import select_locale
    with _in(app, accept, cookie):
        assert select_locale() == want


@pytest.mark.parametrize("accept, lang, word", [("en", "en", "History"), ("fr", "fr", "Historique"),
                                                 ("zh-TW", "zh-Hant-TW", "紀錄")])
def test_pages_say_their_language_and_offer_the_switch(client, accept, lang, word):
    for path in ("/", "/score", "/stars", "/history", "/no-such-page"):
        html = client.get(path, headers={"Accept-Language": accept}).get_data(as_text=True)
        assert f'<html lang="{lang}">' in html, path
        assert word in html, path
        switch = re.search(r'<footer class="langs"[^>]*>(.*?)</footer>', html, re.S).group(1)
        assert re.findall(r'hreflang="([^"]+)"', switch) == ["en", "fr", "zh-Hant-TW"], path
        assert "Français" in switch and "中文" in switch and "English" in switch


def test_the_switch_is_remembered_for_a_year_and_goes_back(client):
    response = client.get("/lang/fr?next=/stars%3Fx%3D1")
    assert response.status_code == 303 and response.headers["Location"] == "/stars?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=fr;") and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    client.get("/lang/zh_Hant_TW?next=/")
    assert '<html lang="zh-Hant-TW">' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)",
                                    "", "/%0d%0aSet-Cookie:x", "\t//evil.example"])
def test_the_switch_goes_back_only_to_this_site(client, target):
    response = client.get("/lang/fr", query_string={"next": target})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location == "/" or (location.startswith("/") and not location.startswith("//")), location
    assert "evil" not in location or location.startswith("/%")


def test_an_unknown_language_changes_nothing(client):
    response = client.get("/lang/xx?next=/")
    assert response.status_code == 404
    assert not any(c.startswith("lang=") for c in response.headers.getlist("Set-Cookie"))


# -- the JSON contracts ----------------------------------------------------------------------

RULEBOOK = {"players": [
    {"name": "Bruno", "counts": {"characters": ["hunter", "gardener", "businessman_white", "king"], "fox": 1,
                                 "elephant": 1, "snake": 1, "sheep_white": 6, "baobab": 2, "rose": 2, "volcano": 6}},
    {"name": "Antoine", "counts": {"characters": ["geographer", "drunkard", "little_prince", "businessman_brown"],
                                   "face_down": 3, "volcano": 3, "sheep_white": 1, "sheep_grey": 1,
                                   "sheep_brown": 2, "box": 4}},
]}


def _shape(value):
    """The keys and ids of a response (every dict's keys, every id-like value), not its words."""
    if isinstance(value, dict):
        return {k: _shape(v) if k not in ("name", "detail", "error") else type(v).__name__ for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value if not isinstance(value, str) or re.fullmatch(r"[a-z_]+|[A-Z]\d\d|[\w\[\].]+", value) else "text"


def test_api_score_keeps_keys_and_ids_in_english_and_speaks_the_language(client):
    answers = {lang: client.post("/api/score", json=RULEBOOK, headers={"Accept-Language": lang}).get_json()
               for lang in ("en", "fr", "zh-TW")}
    assert _shape(answers["fr"]) == _shape(answers["en"]) == _shape(answers["zh-TW"])
    assert [p["total"] for p in answers["fr"]["players"]] == [39, 41]
    assert answers["fr"]["winners"] == ["Antoine"]
    fr_chars = answers["fr"]["players"][0]["characters"]
    assert [c["character"] for c in fr_chars] == ["hunter", "gardener", "businessman_white", "king"]
    assert fr_chars[3]["name"] == "Le Roi" and fr_chars[3]["detail"] == "Le Roi — exactement 2 roses = 7"
    assert answers["zh-TW"]["players"][0]["characters"][3]["detail"] == "國王 — 剛好 2 朵玫瑰 = 7"
    assert answers["en"]["tie_break_explained"] == "Antoine wins with 41 points."
    assert answers["fr"]["tie_break_explained"] == "Antoine gagne avec 41 points."
    assert answers["zh-TW"]["tie_break_explained"] == "Antoine 以 41 分獲勝。"


def test_api_score_errors_in_the_language_with_the_same_keys(client):
    bad = {"players": [{"name": "Ann", "counts": {"characters": ["king", "wizard"], "rose": -1}}]}
    en = client.post("/api/score", json=bad).get_json()
    fr = client.post("/api/score", json=bad, headers={"Accept-Language": "fr"}).get_json()
    zh = client.post("/api/score", json=bad, headers={"Accept-Language": "zh-TW"}).get_json()
    assert set(fr) == set(en) == set(zh) == {"error", "where", "errors"}
    assert [e["where"] for e in fr["errors"]] == [e["where"] for e in en["errors"]] == [e["where"] for e in zh["errors"]]
    assert fr["error"] == "Ann : 'wizard' n’est pas un personnage du jeu (ce sont " + ", ".join(
        __import__("scorer.catalog", fromlist=["CHARACTERS"]).CHARACTERS) + ")."
    assert fr["errors"][1]["error"] == "Ann : -1 roses ? Un nombre ne peut pas être négatif."
    assert zh["errors"][1]["error"] == "Ann：-1 個玫瑰？數量不能是負數。"
    assert en["errors"][1]["error"] == "Ann: -1 roses? Counts cannot be negative."
    not_json = client.post("/api/score", data="{", content_type="application/json",
                           headers={"Accept-Language": "fr"}).get_json()
    assert set(not_json) == {"error", "where"} and not_json["error"].startswith("Ce n’est pas du JSON valide")


def test_commands_stay_english(app):
    """Outside a request (the commands) the core speaks the source language."""
    from scorer.contract import score_request
    out = score_request(RULEBOOK)
    assert out["tie_break_explained"] == "Antoine wins with 41 points."
    assert out["players"][0]["characters"][0]["name"] == "Hunter"


# -- templates: no words left outside the catalog -------------------------------------------

TEMPLATES = ROOT / "templates"
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
WORDS = re.compile(r"[A-Za-z]{2,}")
BRAND = "Make Me a Planet"  # the app's (and the game's) name, like a trademark: not translated
READ_ATTRS = ("aria-label", "placeholder", "title", "alt", "aria-description", "data-confirm")


def untranslated_in(source: str) -> list[str]:
    """Text a person reads in a template that is not inside a Jinja expression or tag (so not
    given to ``_()``/``{% trans %}``): text nodes and the attributes read aloud or shown."""
    from html.parser import HTMLParser
    trans_blocks = re.compile(r"\{%-?\s*trans\b.*?%\}.*?\{%-?\s*endtrans\s*-?%\}", re.S)
    tag_names = re.compile(r"(</?)\{\{.*?\}\}")  # <{{ 'details' if x else 'section' }} ...>
    bare = JINJA.sub(" ", tag_names.sub(r"\1x", trans_blocks.sub(" ", source))).replace(BRAND, " ")
    found: list[str] = []

    class Reader(HTMLParser):
        skip = 0

        def handle_starttag(self, tag, attrs):
            if tag in ("script", "style"):
                self.skip += 1
            for name, value in attrs:
                if name in READ_ATTRS and value and WORDS.search(value):
                    found.append(f"{name}={value.strip()!r}")

        def handle_endtag(self, tag):
            if tag in ("script", "style"):
                self.skip -= 1

        def handle_data(self, data):
            data = re.sub(r'[\w-]+="[^"]*"', " ", data)  # a macro that gives attributes (hx-post="…")
            if not self.skip and WORDS.search(data):
                found.append(data.strip())
    Reader().feed(bare)
    return found


def test_the_scanner_sees_bare_words_and_not_translated_ones():
    assert untranslated_in("<p>Score a table</p>") == ["Score a table"]
    assert untranslated_in('<a aria-label="Close">×</a>') == ["aria-label='Close'"]
    assert untranslated_in("<p>{{ _('Score a table') }} {{ n }}</p>") == []
    assert untranslated_in("<p>{% trans n=n %}{{ n }} players{% endtrans %}</p>") == []
    assert untranslated_in("<script>var x = 'hello';</script>") == []


def test_every_template_word_goes_through_the_catalog():
    bare = {str(p.relative_to(TEMPLATES)): untranslated_in(p.read_text(encoding="utf-8"))
            for p in sorted(TEMPLATES.rglob("*.html"))}
    bare = {k: v for k, v in bare.items() if v}
    assert not bare, "\n".join(f"{k}: {v}" for k, v in bare.items())


def test_the_results_picture_speaks_the_language_with_a_font_that_has_it(app):
    from scorer.contract import score_request
    from scorer.web.picture import font_for, layout
    with _in(app, "zh-TW"):
        lines = layout(score_request(RULEBOOK)).lines()
    assert "Antoine 獲勝！" in lines and "3 座火山" in lines
    assert any(line.startswith("地理學家 ") for line in lines), lines
    assert "DejaVu" not in font_for("地理學家 9", 22).getname()[0]  # a font that has the characters
    assert "DejaVu" in font_for("Geographer 9", 22).getname()[0]
    with _in(app, "fr"):
        lines = layout(score_request(RULEBOOK)).lines()
    assert "Antoine gagne !" in lines and "3 volcans" in lines and "1 volcan" not in lines


def test_the_tracker_api_keeps_keys_and_ids_in_english_and_speaks_the_language(client):
    """The same game seen in three languages: the same keys, ids, versions and moves; the event
    sentences and the refusals in the language asked for."""
    def game(lang):
        made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "seed": 42},
                           headers={"Accept-Language": lang}).get_json()
        gid, token = made["id"], made["seats"][0]["token"]
        headers = {"Accept-Language": lang, "Authorization": f"Bearer {token}"}
        bad = client.post(f"/api/games/{gid}/moves", headers=headers,
                          json={"version": 0, "move": {"type": "take", "seat": 0, "tile": "C01", "position": 5}})
        move = client.get(f"/api/games/{gid}", headers=headers).get_json()["legal"][0]
        seen = client.post(f"/api/games/{gid}/moves", headers=headers, json={"version": 0, "move": move}).get_json()
        return made, bad, seen

    en, fr, zh = game("en"), game("fr"), game("zh-TW")
    for made, bad, seen in (fr, zh):
        assert set(made) == set(en[0]) and [s["name"] for s in made["seats"]] == ["Ann", "Ben", "Cy"]
        assert bad.status_code == 400 and set(bad.json) == set(en[1].json) == {"error", "where"}
        assert bad.json["where"] == en[1].json["where"] == "move.type"
        skip = ("events", "id", "url", "live_url")  # a game's own id and addresses differ, as they should
        assert _shape({k: v for k, v in seen.items() if k not in skip}) == _shape(
            {k: v for k, v in en[2].items() if k not in skip})
        assert set(seen) == set(en[2])
        assert [set(e) for e in seen["events"]] == [set(e) for e in en[2]["events"]]
        assert [e["kind"] for e in seen["events"]] == [e["kind"] for e in en[2]["events"]]
    assert "choose a stack" in en[1].json["error"] and "choisir une pile" in fr[1].json["error"]
    assert "選牌堆" in zh[1].json["error"]
    assert en[2]["events"][-1]["text"] == "Ann chose the planet center stack."
    assert fr[2]["events"][-1]["text"] == "Ann a choisi la pile « centre de planète »."
    assert zh[2]["events"][-1]["text"] == "Ann 選了「星球中心」牌堆。"


def test_a_fourth_language_is_a_folder(tmp_path, monkeypatch):
    """Adding a language is adding its catalog: the list of languages is the folder."""
    import shutil

    import scorer.i18n as i18n
    for code in ("fr", "zh_Hant_TW", "de"):
        (tmp_path / code / "LC_MESSAGES").mkdir(parents=True)
        source = TRANSLATIONS / ("fr" if code == "de" else code) / "LC_MESSAGES" / "messages.mo"
        shutil.copy(source, tmp_path / code / "LC_MESSAGES" / "messages.mo")
    monkeypatch.setattr(i18n, "TRANSLATIONS", tmp_path)
    assert i18n._shipped_languages() == ("en", "de", "fr", "zh_Hant_TW")
    from scorer.web.language import language_name
    assert [language_name(c) for c in ("en", "de", "fr", "zh_Hant_TW")] == ["English", "Deutsch", "Français", "中文"]


# -- tile art: no words on the pages' pictures -------------------------------------------------


def _band_spread(png_or_webp: bytes) -> float:
    """How much the band at the top of a character tile varies: ~0 for a plain band, large with a
    name written on it."""
    import io

    from PIL import Image, ImageStat
    with Image.open(io.BytesIO(png_or_webp)) as im:
        im = im.convert("L").resize((256, 256))
        band = im.crop((24, 14, 232, 50))  # inside the band, clear of the frame
        return max(ImageStat.Stat(band).stddev)


def test_the_pages_tile_art_carries_no_words(client):
    from scorer.catalog import catalog
    from scorer.web.art import reference_dir
    first = {}
    for tile in catalog().stack("character"):
        first.setdefault(tile.character, tile.id)
    assert len(first) == 13
    for character, tile_id in first.items():
        reference = (reference_dir() / f"{tile_id}.png").read_bytes()
        assert _band_spread(reference) > 20, f"{tile_id}: the reference keeps its name (the recognizer uses it)"
        for url in (f"/art/{tile_id}.webp", f"/art/{tile_id}.png"):
            shown = client.get(url)
            assert shown.status_code == 200
            assert _band_spread(shown.data) < 4, f"{url} ({character}) has words on it"


@pytest.mark.parametrize("accept", ["en", "fr", "zh-TW"])
def test_every_character_has_its_own_initials_in_the_picker(app, accept):
    """The initials stand in for a character's art in the picker: the three Businessmen once all
    read ``B(`` in English, ``BB`` in French (blanc, brun) and ``商人`` in Chinese."""
    from scorer.web.pages import character_choices
    with _in(app, accept):
        choices = character_choices()
    by_initials: dict[str, list[str]] = {}
    for c in choices:
        by_initials.setdefault(c["initials"], []).append(c["name"])
    assert len(choices) == 13  # the catalog's characters
    shared = {k: v for k, v in by_initials.items() if len(v) > 1}
    assert not shared, f"characters sharing initials: {shared}"


@pytest.mark.parametrize("order", [("en", "fr", "zh-TW"), ("fr", "zh-TW", "en")])
def test_a_planets_cells_speak_each_requests_language_and_follow_its_root(app, order):
    """A cell's words and picture are made once and kept (``planet_view._cell_words``): each
    request must still get its own language and its own script root, whichever came first."""
    from scorer.web.planet_view import planet
    want = {"en": ("rose, 2 lampposts", "row 2, column 2", "face down", "planet center"),
            "fr": ("rose, 2 réverbères", "rangée 2, colonne 2", "face cachée", "centre de planète"),
            "zh-TW": ("玫瑰、2 盞路燈", "第 2 列第 2 行", "背面朝上", "星球中心")}
    cells = [None] * 16
    cells[5], cells[6] = "C10", "back"
    for lang in order:
        for root in ("", "/planet"):
            with app.test_request_context("/", headers={"Accept-Language": lang}, base_url="http://x" + root):
                shown = planet(cells).cells
                assert (shown[5].text, shown[5].where, shown[6].text, shown[5].stack_name) == want[lang]
                assert shown[5].art == f"{root}/art/C10.webp" and shown[5].value == "C10" and shown[6].kind == "back"


def test_values_that_are_no_tile_are_shown_as_typed_and_never_kept(app):
    """A posted planet may hold anything in a cell: it is shown as it came, and the table of cells'
    words keeps only real tiles, so no flood of made-up values can grow it."""
    from scorer.web.planet_view import planet
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        for n in range(50):
            shown = planet([f"X{n}", "C10"] + [None] * 14).cells
            assert (shown[0].kind, shown[0].text, shown[0].art) == ("unknown", f"X{n}", None)
        kept = app.extensions["planet_cells"]
        assert not any(key[3].startswith("X") for key in kept) and any(key[3] == "C10" for key in kept)
