"""Reading photos safely and fast: size checks before decoding, reduced JPEG decoding, EXIF
orientation applied by us (so the reduced decode and the full decode agree).

Errors are ``UnusableImage`` with a message for a person.
"""
from __future__ import annotations

import struct

import cv2
import numpy as np

from scorer.i18n import _

MAX_PIXELS = 50_000_000  # refuse bigger images before decoding them (decompression bombs)
# PNG, WebP ...: decoded whole (no DCT scaling as for JPEG), ~3 bytes a pixel and copies after. A
# phone's camera writes JPEG; a screenshot is under 4 MP. At this cap 4 photos read at once (two
# workers) stay under 1 GB of server memory (python -m scorer.flood_bench); at 50 MP they took 1.8 GB.
MAX_FULL_DECODE_PIXELS = 16_000_000
MAX_BYTES = 60_000_000


class UnusableImage(ValueError):
    """The file cannot be used as a photo; the message is for a person."""


def _jpeg_info(data: bytes):
    """(width, height, orientation) from a JPEG's markers, or None if they cannot be read."""
    i, n = 2, len(data)
    orientation = 1
    size = None
    while i + 4 <= n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker == 0xD9:
            break
        seg_len = struct.unpack(">H", data[i + 2:i + 4])[0]
        seg = data[i + 4:i + 2 + seg_len]
        if marker == 0xE1 and seg[:6] == b"Exif\x00\x00":
            orientation = _exif_orientation(seg[6:]) or 1
        elif marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if len(seg) >= 5:
                h, w = struct.unpack(">HH", seg[1:5])
                size = (w, h)
            break  # the frame header comes after the APPn segments
        if marker == 0xDA:
            break
        i += 2 + seg_len
    if size is None:
        return None
    return size[0], size[1], orientation


def _exif_orientation(tiff: bytes) -> int | None:
    try:
        endian = {b"II": "<", b"MM": ">"}[tiff[:2]]
        (ifd,) = struct.unpack(endian + "I", tiff[4:8])
        (count,) = struct.unpack(endian + "H", tiff[ifd:ifd + 2])
        for k in range(count):
            e = ifd + 2 + 12 * k
            tag, typ = struct.unpack(endian + "HH", tiff[e:e + 4])
            if tag == 0x0112:
                (value,) = struct.unpack(endian + "H", tiff[e + 8:e + 10])
                return value if 1 <= value <= 8 else 1
    except (KeyError, struct.error, IndexError):
        return None
    return None


def _png_size(data: bytes):
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def apply_orientation(img: np.ndarray, orientation: int) -> np.ndarray:
    """Turn stored pixels as EXIF ``orientation`` (1..8) says they are to be shown."""
    if orientation == 2:
        return cv2.flip(img, 1)
    if orientation == 3:
        return cv2.rotate(img, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(img, 0)
    if orientation == 5:
        return cv2.transpose(img)
    if orientation == 6:
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.rotate(cv2.transpose(img), cv2.ROTATE_180)
    if orientation == 8:
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return img


def decode(data: bytes, min_side: int = 1000) -> tuple[np.ndarray, float]:
    """Decode a photo to BGR, upright, reduced so its short side stays ≥ ``min_side`` when the
    format allows it cheaply (JPEG DCT scaling). Return the image and the reduction factor."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UnusableImage(_("No photo was given."))
    data = bytes(data)
    if len(data) == 0:
        raise UnusableImage(_("The file is empty: there is no photo in it."))
    if len(data) > MAX_BYTES:
        raise UnusableImage(_("The file is too big (over 60 MB) to be a phone photo."))
    orientation = 1
    reduce = 1
    info = _jpeg_info(data) if data[:2] == b"\xff\xd8" else None
    if info:
        w, h, orientation = info
        if w * h > MAX_PIXELS:
            raise UnusableImage(_("The photo is too large (%(w)d×%(h)d pixels; at most 50 megapixels).", w=w, h=h))
        if w == 0 or h == 0:
            raise UnusableImage(_("The photo has no pixels."))
        for r in (8, 4, 2):
            if min(w, h) / r >= min_side:
                reduce = r
                break
    else:
        size = _png_size(data)
        if size is None:
            # another format: ask Pillow for the size without decoding the pixels
            size = _pil_size(data)
        w, h = size
        if w * h > MAX_FULL_DECODE_PIXELS:
            raise UnusableImage(_("The image is too large (%(w)d×%(h)d pixels): an image that is not a JPEG "
                                  "can have at most 16 megapixels. A phone camera's photo (JPEG) can be larger.",
                                  w=w, h=h))
    flags = cv2.IMREAD_IGNORE_ORIENTATION | {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                                             4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[reduce]
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:
        img = None
    if img is None or img.size == 0:
        raise UnusableImage(_("This file is not a photo that can be read (it may be damaged, "
                              "cut short, or not an image at all)."))
    if info is None:
        # non-JPEG: orientation from Pillow's EXIF reader, when there is one
        orientation = _pil_orientation(data)
    if _looks_truncated(data, img):
        raise UnusableImage(_("The photo is cut short (the file is incomplete); please send it again."))
    img = apply_orientation(img, orientation)
    return img, float(reduce)


def _pil_size(data: bytes) -> tuple[int, int]:
    import io
    import warnings
    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # we check the size ourselves, before decoding
            with Image.open(io.BytesIO(data)) as im:
                return im.size
    except Image.DecompressionBombError:
        raise UnusableImage(_("The image is too large (at most 50 megapixels).")) from None
    except Exception:
        raise UnusableImage(_("This file is not an image (it may be damaged, cut short, or another "
                              "kind of file).")) from None


def _pil_orientation(data: bytes) -> int:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"eXIf" not in data:
        return 1  # a PNG without an EXIF chunk (Pillow would decode every pixel to look for one)
    import io
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data)) as im:
            return int(im.getexif().get(0x0112, 1)) if 1 <= int(im.getexif().get(0x0112, 1)) <= 8 else 1
    except Exception:
        return 1


def _looks_truncated(data: bytes, img: np.ndarray) -> bool:
    """A JPEG cut short decodes with its missing rows filled flat; refuse it (no end marker,
    and the last rows all one colour)."""
    if data[:2] != b"\xff\xd8":
        return False
    if b"\xff\xd9" in data[-64:]:
        return False
    h = img.shape[0]
    band = img[h - max(1, h // 100):]
    return band.size > 0 and float(band.std()) < 2.0
