"""How forum names and post text are compared: one folding everywhere."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_INVISIBLE = re.compile(r"[\u200b-\u200f\u2060\ufeff]")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=4096)  # a thread of thousands of posts has a few dozen authors
def fold(text: str) -> str:
    """NFKC, case-folded, zero-width characters dropped, whitespace runs as one space."""
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text)).casefold()
    return _SPACES.sub(" ", text).strip()
