"""Text as a terminal or a monospaced post shows it: a Chinese character takes two columns.

``len()`` counts 「投票帖」 as 3 where a terminal draws 6 columns, so a table padded by
``len`` or help wrapped by ``textwrap`` comes out ragged for Chinese.  Widths here are the
terminal's: East Asian wide and full-width characters (``unicodedata.east_asian_width``
W/F) take two columns, combining marks and invisible format characters none, the rest
one (ambiguous ones too, as terminals draw them outside a CJK locale).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# No line may start with these (Chinese line-breaking: the mark stays with what it ends).
_NO_LINE_START = frozenset("，。、；：！？）》」』】〕…,.;:!?)]}%")
# No line may end with these (the mark stays with what it opens).
_NO_LINE_END = frozenset("（《「『【〔([{")


@lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    """The columns one character takes: 2 wide, 0 combining or invisible, else 1."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    if unicodedata.combining(char) or unicodedata.category(char) in ("Cf", "Mn", "Me"):
        return 0
    return 1


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal (one line)."""
    return sum(char_width(char) for char in text)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns (``str.ljust`` by display width)."""
    return text + " " * max(0, width - display_width(text))


def join_lines(lines: list[str]) -> str:
    """Lines of one paragraph as one line: a space between Latin words, none between
    Chinese characters (a docstring broken inside a Chinese sentence reads as one)."""
    text = ""
    for line in (line.strip() for line in lines):
        if not line:
            continue
        if text and char_width(text[-1]) < 2 and char_width(line[0]) < 2:
            text += " "
        text += line
    return text


def wrap(text: str, width: int) -> list[str]:
    """``text`` (one paragraph) in lines of at most ``width`` columns.

    A line breaks at a space, or between two characters of which one is wide (Chinese
    has no spaces); a Latin word or an option such as ``--deadline`` is never cut, and
    Chinese punctuation keeps to the rules above.  A word wider than ``width`` gets a
    line of its own.
    """
    width = max(width, 2)
    lines: list[str] = []
    line, line_width = "", 0
    for piece in _pieces(text):
        piece_width = display_width(piece)
        if line and line_width + piece_width > width:
            lines.append(line.rstrip())
            piece = piece.lstrip()
            line, line_width = "", 0
            piece_width = display_width(piece)
        line += piece
        line_width += piece_width
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _pieces(text: str) -> list[str]:
    """``text`` cut where a line may break (the space goes with the piece before it)."""
    pieces: list[str] = []
    current = ""
    depth = 0  # inside [brackets]: a note such as [默认值：4] is kept on one line
    for index, char in enumerate(text):
        if current and depth == 0 and _breaks_before(text, index):
            pieces.append(current)
            current = ""
        current += char
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
    if current:
        pieces.append(current)
    return pieces


def _breaks_before(text: str, index: int) -> bool:
    before, char = text[index - 1], text[index]
    if char == " " or char in _NO_LINE_START or before in _NO_LINE_END:
        return False
    if before == " ":
        return True
    return char_width(before) == 2 or char_width(char) == 2


def columns(text: str, separator: str = "  ") -> str:
    """Lines whose cells are separated by tabs, aligned in columns by display width.

    Each cell but the last is padded to its column's width and followed by ``separator``;
    a line without a tab is left as it is (a heading between the rows).  What templates
    use for their text tables (the ``columns`` filter).
    """
    lines = text.split("\n")
    rows = [line.split("\t") if "\t" in line else None for line in lines]
    widths: list[int] = []
    for cells in rows:
        for index, cell in enumerate((cells or [])[:-1]):
            if index == len(widths):
                widths.append(0)
            widths[index] = max(widths[index], display_width(cell))
    out = []
    for line, cells in zip(lines, rows, strict=True):
        if cells is None:
            out.append(line)
            continue
        padded = [pad(cell, widths[i]) + separator for i, cell in enumerate(cells[:-1])]
        out.append(("".join(padded) + cells[-1]).rstrip())
    return "\n".join(out)


def cell(text: object) -> str:
    """Text put in a table cell: its tabs and line breaks become spaces (they would cut
    the row)."""
    return " ".join(str(text).split())
