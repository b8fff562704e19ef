"""How forum names and post text are compared: one folding everywhere.

``fold`` is what the tally reads ballots and names through: width, case and compatibility
forms folded (NFKC, casefold), traditional characters as simplified (OpenCC's ``t2s``, the
standard converter: 歐逆醬 and 欧逆酱 are one name, 棄權 is 弃权), every Unicode format
character (category Cf: zero-width spaces and joiners, bidi marks and isolates, the soft
hyphen, the word joiner, tags…) dropped, whitespace runs as one space.  Superscript and
subscript digits are not folded into digits: "投⁵" is no vote for seat 5, and "Tom²" no
"Tom2".

``shown`` is a name as the board shows it, for telling a player from a lookalike: two
names that are the same only after ``fold`` are different accounts (a CJK compatibility
ideograph too, though NFC would make it the unified one it looks like).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# The blocks that hold format characters (Cf); tests check no other block has one.  Only
# these are scanned at import: all of Unicode takes 50 ms, too long for a command's start.
CF_BLOCKS = (
    (0x0000, 0x2100),
    (0xFE00, 0x10000),
    (0x11000, 0x11100),
    (0x13400, 0x13460),
    (0x1BC00, 0x1BCB0),
    (0x1D100, 0x1D200),
    (0xE0000, 0xE0080),
)
_FORMAT = dict.fromkeys(
    code
    for start, end in CF_BLOCKS
    for code in range(start, end)
    if unicodedata.category(chr(code)) == "Cf"
)
_SCRIPT_DIGITS = re.compile("[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089]+")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """NFKC (superscript and subscript digits aside), traditional as simplified, case-folded,
    format characters (Cf) dropped, whitespace runs as one space."""
    return _forms(text)[1]


def unscripted(text: str) -> str:
    """``fold`` without the traditional-to-simplified step: the script as written.

    OpenCC's ``t2s`` maps each character to one (every CJK code point, checked), so where
    the two have the same length a span of ``fold(text)`` is the same span here: the
    ballot reader reads a name in ``fold`` and tells from this one whether the voter wrote
    it in another script than the roster's (歐逆醬 written 欧逆酱).  Folded together with
    ``fold`` and kept with it: asking for both costs one folding.
    """
    return _forms(text)[0]


@lru_cache(maxsize=4096)  # a thread of thousands of posts has a few dozen authors
def _forms(text: str) -> tuple[str, str]:
    """``text`` folded without, then with, traditional characters as simplified."""
    plain = _unscripted(text)
    return plain, (plain if plain.isascii() else _simplified(plain))


def _unscripted(text: str) -> str:
    text = text.translate(_FORMAT)
    if _SCRIPT_DIGITS.search(text):
        kept = _SCRIPT_DIGITS.split(text)
        digits = _SCRIPT_DIGITS.findall(text)
        folded = [unicodedata.normalize("NFKC", part).casefold() for part in kept]
        text = "".join(
            part + (digits[i] if i < len(digits) else "") for i, part in enumerate(folded)
        )
    else:
        text = unicodedata.normalize("NFKC", text).casefold()
    return _SPACES.sub(" ", text).strip()


def _simplified(text: str) -> str:
    """``text`` with traditional characters written as simplified (OpenCC ``t2s``)."""
    return _t2s().convert(text)


@lru_cache(maxsize=1)
def _t2s():
    """OpenCC's traditional-to-simplified converter, made when first needed (its
    dictionaries load in a few milliseconds; an ASCII-only command never loads them)."""
    import opencc

    return opencc.OpenCC("t2s")


# CJK compatibility ideographs: NFC makes each the unified one it looks like (金\uF902 is 金車),
# but to the board they are other characters, so another account.
_COMPAT_IDEOGRAPH = re.compile("([\uf900-\ufaff\U0002f800-\U0002fa1f])")


def shown(name: str) -> str:
    """A name as the board shows it: only canonically equal forms (NFC) and whitespace runs
    are the same; case, width, invisible characters and CJK compatibility ideographs (which
    NFC would make unified ones: 金\uf902 is no 金車) are not."""
    if _COMPAT_IDEOGRAPH.search(name):
        parts = _COMPAT_IDEOGRAPH.split(name)  # the ideographs at the odd places, kept
        name = "".join(p if i % 2 else unicodedata.normalize("NFC", p) for i, p in enumerate(parts))
    else:
        name = unicodedata.normalize("NFC", name)
    return _SPACES.sub(" ", name).strip()
