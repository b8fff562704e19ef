"""The local board's captcha (验证码): a code as Discuz! X3.4 makes one, drawn as a PNG.

``helper_seccheck::make_seccode`` (source/class/helper/helper_seccheck.php lines 75-105)
writes a code of four characters from ``BCEFGHJKMPQRTVWXY2346789`` (letters and digits
that cannot be mistaken for one another); the image class draws it on a noisy background.
Here the code is drawn in a 5×7 dot font, enlarged, with a little noise: a picture a judge
(or a test) reads, a PNG a browser shows — made with zlib alone.
"""

from __future__ import annotations

import random
import struct
import zlib

UNITS = "BCEFGHJKMPQRTVWXY2346789"
_GLYPHS = {
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
}
SCALE = 4
CELL = 7  # a glyph's five columns and two of space


def new_code(rng: random.Random) -> str:
    """Four characters, as the board picks them."""
    return "".join(rng.choice(UNITS) for _ in range(4))


def seccode_png(code: str, seed: int = 0) -> bytes:
    """``code`` drawn as a grey-scale PNG (dark on light, a few stray dots)."""
    rng = random.Random(seed)
    width, height = (len(code) * CELL + 3) * SCALE, (7 + 4) * SCALE
    pixels = [[236] * width for _ in range(height)]
    for _ in range(width * height // 40):
        pixels[rng.randrange(height)][rng.randrange(width)] = rng.choice((150, 190))
    for index, char in enumerate(code):
        rows = _GLYPHS[char].split()
        left = (2 + index * CELL) * SCALE
        top = (2 + rng.choice((-1, 0, 1)) / 2) * SCALE
        for y, row in enumerate(rows):
            for x, bit in enumerate(row):
                if bit == "1":
                    for dy in range(SCALE):
                        for dx in range(SCALE):
                            pixels[int(top) + y * SCALE + dy][left + x * SCALE + dx] = 40
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
