"""The results picture: a PNG of a scored table for the group chat and link previews.

Two steps: ``layout(result)`` places every piece (boxes, text lines, planet cells) as plain
values — what the picture says can be read and tested from it — and ``render(layout)`` draws
exactly that with Pillow. Tile art comes from ``vision/reference/<id>.png`` (``back.png`` for a
face-down tile); a missing image is drawn as a cell of its stack's colour.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..catalog import CHARACTER_NAMES
from ..i18n import _, list_words, ngettext
from ..planet import BACK, STACK_AT

ART = Path(__file__).resolve().parents[2] / "vision" / "reference"
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
# For Chinese (and other CJK) text: the first of these a machine has (Debian: fonts-wqy-microhei,
# fonts-noto-cjk); without one the picture still draws, with boxes for those characters.
CJK_FONTS = (Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
             Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
             Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"))
WIDTH, MARGIN, ROW, TOP, CELL = 1200, 40, 180, 200, 36
COLOURS = {"bg": "#0d1530", "card": "#17224a", "gold": "#f5c65a", "text": "#f4f0e4",
           "muted": "#b7bfda", "line": "#34457e", "empty": "#101a35"}
STACK_COLOURS = {"character": "#3a2d63", "center": "#1f4470", "uphill": "#27503f", "downhill": "#57402a"}
MAX_BYTES = 300 * 1024


@dataclass(frozen=True)
class Text:
    text: str
    x: int
    y: int
    size: int
    bold: bool = False
    colour: str = "text"
    anchor: str = "la"  # Pillow's: left/right + ascender


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int
    outline: str | None = None


@dataclass(frozen=True)
class Cell:
    x: int
    y: int
    size: int
    value: str | None  # a tile id, "back" or None (empty)
    stack: str


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    boxes: tuple[Box, ...]
    texts: tuple[Text, ...]
    cells: tuple[Cell, ...]

    def lines(self) -> list[str]:
        """The picture's text in reading order (the order it was laid out in)."""
        return [t.text for t in self.texts]


def needs_cjk(text: str) -> bool:
    return any("\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef" for ch in text)


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu for Latin text, a CJK font when the text has Chinese in it."""
    return cjk_font(size) if needs_cjk(text) else font(size, bold)


@lru_cache(maxsize=16)
def cjk_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in CJK_FONTS:
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return font(size)


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)  # Pillow's own scalable font: plainer, never missing


def fit(text: str, size: int, bold: bool, width: int) -> str:
    """``text``, cut short with … so that it is at most ``width`` pixels wide."""
    f = font_for(text, size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def planet_title(name: str) -> str:
    """A planet scored alone, by its player's name: "Ann’s planet". A scan scored without a name
    is called "My planet" (``scan.py``), and stays so rather than "My planet’s planet"."""
    return name if name == _("My planet") else _("%(name)s’s planet", name=name)


def headline(result: dict) -> str:
    players = result["players"]
    if len(players) == 1:
        return planet_title(players[0]["name"])
    if result.get("shared_victory"):
        return _("A shared victory: %(names)s", names=list_words(result.get("winners", [])))
    return _("%(name)s wins!", name=(result.get("winners") or [players[0]["name"]])[0])


def _character(c: dict) -> str:
    """A character's name in the reader's language (by its id; a stored name if the id is unknown)."""
    character = c.get("character")
    return _(CHARACTER_NAMES[character]) if character in CHARACTER_NAMES else str(c.get("name", "?"))


def minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def _score_note(p: dict, alone: bool) -> str:
    if alone and p.get("penalty"):
        return _("%(total)s if this planet has the most volcanoes", total=minus(p["total"]))
    if p.get("penalty"):
        return _("%(subtotal)s − %(lost)s for volcanoes", subtotal=p["subtotal"], lost=-p["penalty"])
    n = p.get("volcanoes", 0)
    return ngettext("%(num)s volcano", "%(num)s volcanoes", n)


def _player_row(p: dict, y: int, alone: bool) -> tuple[list[Box], list[Text], list[Cell]]:
    won = bool(p.get("winner")) and not alone  # a planet alone has nobody to beat
    boxes = [Box(MARGIN, y, WIDTH - 2 * MARGIN, ROW - 16, "gold" if won else None)]
    left = MARGIN + 100 if not alone else MARGIN + 28
    texts = []
    if not alone:
        texts.append(Text(str(p.get("rank", "")), MARGIN + 28, y + 22, 64, True, "gold"))
    star = " ★" if won else ""
    texts.append(Text(fit(p["name"], 44, True, 600) + star, left, y + 22, 44, True))
    score = p["subtotal"] if alone else p["total"]
    texts.append(Text(minus(score), WIDTH - MARGIN - 200, y + 18, 64, True, "gold", "ra"))
    texts.append(Text(_score_note(p, alone), left, y + 82, 24, False, "muted"))
    chars = " · ".join(f"{_character(c)} {c.get('points', 0)}" for c in p.get("characters", []))
    texts.append(Text(fit(chars or _("No characters"), 22, False, 680), left, y + 118, 22))
    cells = []
    grid = p.get("planet")
    if isinstance(grid, dict) and isinstance(grid.get("cells"), list):
        flat = [v for row in grid["cells"] for v in row][:16]
        x0, y0 = WIDTH - MARGIN - 24 - 4 * CELL, y + (ROW - 16 - 4 * CELL) // 2
        cells = [Cell(x0 + (i % 4) * CELL, y0 + (i // 4) * CELL, CELL, v if isinstance(v, str) else None,
                      STACK_AT[i]) for i, v in enumerate(flat)]
    return boxes, texts, cells


def layout(result: dict, date_text: str = "") -> Layout:
    """Where everything goes: a header, one row per player in ranking order, the notes."""
    players = result["players"]
    alone = len(players) == 1
    order = players if alone else sorted(players, key=lambda p: (p.get("rank") or 99))
    texts = [Text(_("Make Me a Planet · results"), MARGIN, 36, 26, False, "muted"),
             Text(fit(headline(result), 56, True, WIDTH - 2 * MARGIN), MARGIN, 76, 56, True, "gold")]
    if date_text:
        texts.append(Text(date_text, WIDTH - MARGIN, 36, 26, False, "muted", "ra"))
    boxes, cells = [], []
    for i, p in enumerate(order):
        b, t, c = _player_row(p, TOP - 50 + i * ROW, alone)
        boxes += b
        texts += t
        cells += c
    y = TOP - 50 + len(order) * ROW + 8
    for note in (result.get("penalty_explained"), result.get("tie_break_explained")):
        if note:
            texts.append(Text(fit(note, 24, False, WIDTH - 2 * MARGIN), MARGIN, y, 24, False, "muted"))
            y += 36
    return Layout(WIDTH, y + 24, tuple(boxes), tuple(texts), tuple(cells))


@lru_cache(maxsize=128)
def _tile(value: str, size: int) -> Image.Image | None:
    path = ART / f"{value}.png"
    try:
        with Image.open(path) as im:
            return im.convert("RGB").resize((size, size), Image.Resampling.LANCZOS)
    except (OSError, ValueError):
        return None


def _draw_cell(img: Image.Image, draw: ImageDraw.ImageDraw, cell: Cell) -> None:
    box = (cell.x, cell.y, cell.x + cell.size - 2, cell.y + cell.size - 2)
    art = _tile(BACK if cell.value == BACK else cell.value, cell.size - 2) if cell.value else None
    if art is not None:
        img.paste(art, box[:2])
    else:
        draw.rectangle(box, fill=STACK_COLOURS[cell.stack] if cell.value else COLOURS["empty"],
                       outline=COLOURS["line"])


def render(plan: Layout, kind: str = "png") -> bytes:
    """The layout drawn as a PNG (a 256-colour palette keeps it well under ``MAX_BYTES``) to share,
    or as a lossless WebP to show in the page (the same pixels in about half the bytes)."""
    img = Image.new("RGB", (plan.width, plan.height), COLOURS["bg"])
    draw = ImageDraw.Draw(img)
    for b in plan.boxes:
        draw.rounded_rectangle((b.x, b.y, b.x + b.w, b.y + b.h), radius=18, fill=COLOURS["card"],
                               outline=COLOURS[b.outline] if b.outline else None, width=4)
    for cell in plan.cells:
        _draw_cell(img, draw, cell)
    for t in plan.texts:
        draw.text((t.x, t.y), t.text, font=font_for(t.text, t.size, t.bold), fill=COLOURS[t.colour], anchor=t.anchor)
    out = io.BytesIO()
    shared = img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    if kind == "webp":
        shared.convert("RGB").save(out, "WEBP", lossless=True, method=4)
    else:
        shared.save(out, "PNG", optimize=True)
    return out.getvalue()


def picture(result: dict, date_text: str = "", kind: str = "png") -> bytes:
    return render(layout(result, date_text), kind)
