"""Decoding forum pages by the charset they declare.

Old Chinese boards send GBK/GB2312 or Big5: decode by the declared charset
(GBK family as GB18030, its superset; Big5 as cp950), never by guessing.  It lives with
the scrapers, below the fetch layer: where a board declares its charset (a page's
``<meta>``, the mobile API's ``"Charset"``) is forum knowledge, and a profile's
``charset`` is checked here before anything is fetched.
"""

from __future__ import annotations

import codecs
import re

from killmod.core.errors import TallyFailed

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_-]+)""", re.IGNORECASE)
# The mobile API's JSON names the board's charset: {"Version":"4","Charset":"GBK",…}.
_JSON_CHARSET = re.compile(rb'"Charset"\s*:\s*"([A-Za-z0-9_-]+)"')
_ASCII = bytes(range(128))
# More undecodable sequences than one in this many non-ASCII bytes: the bytes are in
# another charset than the declared one (a stray bad byte is far rarer).
_MISMATCH_RATIO = 50
_ALIASES = {
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "gb_2312": "gb18030",
    "x-gbk": "gb18030",
    "gb18030": "gb18030",
    "big5": "cp950",
    "big-5": "cp950",
    "cp950": "cp950",
    "utf8": "utf-8",
    "utf-8": "utf-8",
}


def declared_charset(body: bytes, header_charset: str | None = None) -> str | None:
    """The charset the HTTP header or, failing that, the page's <meta> declares (or, for
    the mobile API's JSON, its ``"Charset"``)."""
    if header_charset:
        return header_charset.strip().lower()
    found = _META_CHARSET.search(body[:4096])
    if found is None and body.lstrip()[:1] == b"{":
        found = _JSON_CHARSET.search(body[:512])
    return found.group(1).decode("ascii").lower() if found else None


def codec_for(charset: str) -> str:
    """The Python codec to read a declared charset with."""
    return _ALIASES.get(charset.lower(), charset.lower())


def decode_html(body: bytes, header_charset: str | None = None, *, source: str = "") -> str:
    """The page's text, decoded by its declared charset.

    With no declaration at all (a saved archiver page lost its HTTP header),
    UTF-8 is taken only when the bytes are valid UTF-8, else GB18030.  Bytes that
    are not in the declared charset are an error (``TallyFailed`` naming ``source``),
    never names and votes read as mojibake: a page declared GBK or Big5 whose
    non-ASCII bytes are valid UTF-8, or a page whose bytes mostly fail to decode.
    A charset Python does not know is an error too, unless the bytes are valid UTF-8
    (they read the same whatever the label meant).  A stray undecodable byte here and
    there is replaced.
    """
    charset = declared_charset(body, header_charset)
    if charset is None:
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            return body.decode("gb18030", errors="replace")
    where = f"：{source}" if source else ""
    try:
        codec = codecs.lookup(codec_for(charset)).name
    except LookupError:
        if _is_utf8(body):
            return body.decode("utf-8")
        raise TallyFailed(f"页面声明的字符编码「{charset}」无法识别，无法读出文字{where}") from None
    if codec != "utf-8" and not body.isascii() and _is_utf8(body):
        raise TallyFailed(f"页面的字符编码与声明不符（声明为 {charset}，内容却是 UTF-8）{where}")
    text = body.decode(codec, errors="replace")
    errors = text.count("\ufffd")
    if errors and errors * _MISMATCH_RATIO >= len(body.translate(None, _ASCII)):
        raise TallyFailed(
            f"页面的字符编码与声明不符（声明为 {charset}，有 {errors} 处无法按它解码）{where}"
        )
    return text


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
