"""Text a board renders invisible: what no reader of the thread can see is no one's ballot.

A player can write a vote nobody sees: ``[color=white]改票 投6号[/color]`` (Discuz renders it
``<font color="white">``), ``[size=0px]`` (``font-size:0px``), the same colour as a
``[backcolor]`` behind it, or, where a board lets HTML through, ``display:none``.  The
readers of a post's HTML take those parts out of the text (``take_hidden``) and keep them
apart (``Post.hidden``); the tally never counts them (``killmod.ballots.count``).

Invisible, here, is exactly:

- ``display:none``, ``visibility:hidden``/``collapse`` (until a part inside sets it
  visible again), ``opacity`` under 0.1, and the ``hidden`` attribute;
- a font size under 4 px (3 pt, 0.25 em, 25 %) — ``font-size:0px`` and kin.  The ``size``
  attribute of ``<font>`` is never invisible: HTML reads ``size="0"`` as 1 (x-small);
- a text colour whose contrast with the background behind it is under 1.25:1 (the WCAG
  measure; white on white is 1:1, ``#ddd`` on white 1.36:1 and readable) and whose hue is
  the background's too (the two colours less than 0.5 apart in sRGB, each channel 0 to 1:
  Yellow, which Discuz's editor offers, is 1.07:1 on white by luminance but 1.0 away from
  it and plainly seen; LemonChiffon, 0.2 away, is not), or whose alpha is under 0.1.  The
  background is the nearest ``background-color`` / ``bgcolor`` around the text inside the
  post, else white (the post background of Discuz's and most boards' default styles; a
  board styled dark is not known from its page).  Text without a colour of its own is
  drawn in the board's: ``#444`` (Discuz X3.4's default style, ``tabletext`` in
  install/data/install_data.sql, ``body { color: {TABLETEXT} }`` in
  template/default/common/common.css line 92), so ``[backcolor=#444]`` alone hides its
  text as ``[color=white]`` does.  A ``<font color>`` is
  read by HTML's legacy colour rules (``ffffff`` without ``#`` is white, ``fff`` nearly
  black: ``webcolors.html5_parse_legacy_color``), a ``style`` colour by CSS's (``tinycss2``).

Colour and size are inherited: a part inside white text that sets its own visible colour
is visible.  The board's own anti-copy noise (Discuz's ``jammer``) is no player's text:
the scrapers drop it before this runs.

``bbcode_hidden`` reads a raw-BBCode message (a Discuz 7.2 archiver) the same way, by
rendering its ``[color]``, ``[backcolor]`` and ``[size]`` tags as the board's thread pages do.
The Discuz! X archiver strips every tag before it prints a message: there, hidden text
cannot be told from the rest (it is a view killmod reads times from, not ballots).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from html import escape

from lxml import etree
from lxml import html as lxml_html

from scrapers.base import fragment, tidy_text

WHITE = (1.0, 1.0, 1.0)
# The colour of text that sets none: Discuz X3.4's default style (tabletext #444).
BOARD_TEXT = (0x44 / 255, 0x44 / 255, 0x44 / 255, 1.0)
MIN_CONTRAST = 1.25
# Colours this far apart in sRGB (channels 0 to 1) differ in hue whatever their luminance.
MIN_HUE_DISTANCE = 0.5
MIN_ALPHA = 0.1
# The smallest readable font size, by unit (px and the units that scale it).
_MIN_SIZE = {"px": 4.0, "pt": 3.0, "em": 0.25, "rem": 0.25, "%": 25.0}
_BREAKS = {"br", "p", "div", "li", "tr", "table", "blockquote"}
_LOOK_ATTRIBUTES = {"style", "color", "bgcolor", "hidden"}


@dataclass(frozen=True)
class _Look:
    """How the text at a point of the post is drawn (what it inherits and what it sets)."""

    colour: tuple[float, float, float, float] | None = None  # None: the board's (BOARD_TEXT)
    background: tuple[float, float, float] = WHITE
    gone: bool = False  # display:none, opacity ~0 or [hidden] on it or around it
    unseen: bool = False  # visibility:hidden (a part inside may undo it)
    tiny: bool = False  # a font size nobody can read

    @property
    def invisible(self) -> bool:
        return _invisible(self)


@lru_cache(maxsize=256)  # a post has a few looks, a thread a few dozen
def _invisible(look: _Look) -> bool:
    if look.gone or look.unseen or look.tiny:
        return True
    *rgb, alpha = look.colour or BOARD_TEXT
    if alpha < MIN_ALPHA:
        return True
    return (
        _contrast(tuple(rgb), look.background) < MIN_CONTRAST
        and math.dist(rgb, look.background) < MIN_HUE_DISTANCE
    )


def take_hidden(cell: lxml_html.HtmlElement) -> tuple[str, ...]:
    """Take the invisible parts out of a post's message ``cell`` (changed in place) and
    return their texts, each run of hidden text in the order it came (empty when none)."""
    runs: list[list[str]] = []
    state = {"open": False}

    def kept(text: str, invisible: bool) -> str | None:
        """``text`` as the cell keeps it: invisible text is taken into its run (None)."""
        if not invisible:
            if text.strip():
                state["open"] = False
            return text
        if text.strip():
            if not state["open"]:
                runs.append([])
                state["open"] = True
            runs[-1].append(text)
        return None

    def walk(element: lxml_html.HtmlElement, look: _Look) -> None:
        look = _looks(element, look)
        invisible = look.invisible
        if element.tag in _BREAKS and state["open"] and invisible:
            runs[-1].append("\n")
        if element.text:
            element.text = kept(element.text, invisible)
        for child in element:
            if not isinstance(child.tag, str):  # a comment or processing instruction
                continue
            walk(child, look)
            if child.tail:
                child.tail = kept(child.tail, invisible)

    if not _MAY_HIDE(cell):
        return ()
    walk(cell, _Look())
    return tuple(text for run in runs if (text := tidy_text("".join(run))))


# Only a post with some of these can hide anything: most posts are read without a walk.
_MAY_HIDE = etree.XPath(
    "boolean(.//*[@style or @color or @bgcolor or @hidden] | self::*[@style or @bgcolor])"
)


def _looks(element: lxml_html.HtmlElement, inherited: _Look) -> _Look:
    """The look of ``element``'s own text, from what it inherits and its attributes."""
    if _LOOK_ATTRIBUTES.isdisjoint(element.attrib.keys()):
        return inherited
    look = inherited
    if element.get("hidden") is not None:
        look = replace(look, gone=True)
    colour = element.get("color") if element.tag == "font" else None
    if colour:
        legacy = _legacy_colour(colour)
        if legacy is not None:
            look = replace(look, colour=legacy)
    bgcolor = element.get("bgcolor")
    if bgcolor:
        behind = _legacy_colour(bgcolor)
        if behind is not None:
            look = replace(look, background=behind[:3])
    style = element.get("style")
    if style:
        look = _styled(look, style)
    return look


def _styled(look: _Look, style: str) -> _Look:
    for declaration in _declarations(style):
        name, value = declaration
        if name == "display" and value == ("ident", "none"):
            look = replace(look, gone=True)
        elif name == "visibility" and value[0] == "ident":
            look = replace(look, unseen=value[1] in ("hidden", "collapse"))
        elif name == "opacity" and value[0] in ("number", "percentage"):
            share = value[1] / 100 if value[0] == "percentage" else value[1]
            if share < MIN_ALPHA:
                look = replace(look, gone=True)
        elif name == "font-size" and value[0] in ("dimension", "percentage", "number"):
            look = replace(look, tiny=_tiny(value))
        elif name == "color":
            colour = _css_colour(value)
            if colour is not None:
                look = replace(look, colour=colour)
        elif name in ("background-color", "background"):
            colour = _css_colour(value)
            if colour is not None and colour[3] >= MIN_ALPHA:
                look = replace(look, background=colour[:3])
    return look


@lru_cache(maxsize=256)
def _declarations(style: str) -> tuple[tuple[str, tuple], ...]:
    """A ``style`` attribute's declarations: (name, (token type, value[, unit])) of the
    first value token, or (name, ("css", text)) for a value of several tokens."""
    import tinycss2  # with the first style attribute read: most posts have none (3 ms)

    found = []
    for item in tinycss2.parse_declaration_list(style, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        tokens = [t for t in item.value if t.type not in ("whitespace", "comment")]
        if len(tokens) != 1:
            found.append((item.lower_name, ("css", tinycss2.serialize(item.value).strip())))
            continue
        token = tokens[0]
        if token.type == "ident":
            found.append((item.lower_name, ("ident", token.lower_value)))
        elif token.type == "dimension":
            found.append((item.lower_name, ("dimension", token.value, token.lower_unit)))
        elif token.type in ("number", "percentage"):
            found.append((item.lower_name, (token.type, token.value)))
        else:
            found.append((item.lower_name, ("css", tinycss2.serialize(item.value).strip())))
    return tuple(found)


def _tiny(value: tuple) -> bool:
    if value[0] == "number":
        return value[1] == 0
    if value[0] == "percentage":
        return value[1] < _MIN_SIZE["%"]
    limit = _MIN_SIZE.get(value[2])
    return limit is not None and value[1] < limit


def _css_colour(value: tuple) -> tuple[float, float, float, float] | None:
    """A CSS colour value (a name, ``#fff``, ``rgb()``, ``rgba()``, ``hsl()``,
    ``transparent``); None for anything else (``currentColor``, an image…)."""
    from tinycss2.color3 import parse_color  # loaded by _declarations already

    text = value[1] if value[0] in ("ident", "css") else None
    if not isinstance(text, str):
        return None
    parsed = parse_color(text)
    if parsed is None or isinstance(parsed, str):
        return None
    return (parsed.red, parsed.green, parsed.blue, parsed.alpha)


@lru_cache(maxsize=256)
def _legacy_colour(text: str) -> tuple[float, float, float, float] | None:
    """A ``color``/``bgcolor`` attribute by HTML's legacy rules; None where HTML ignores it."""
    import webcolors  # with the first colour attribute read: most posts have none (1 ms)

    try:
        found = webcolors.html5_parse_legacy_color(text)
    except ValueError:
        return None
    return (found.red / 255, found.green / 255, found.blue / 255, 1.0)


def _contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two sRGB colours (1 to 21)."""
    lighter, darker = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(rgb: tuple[float, ...]) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


# --- raw BBCode ----------------------------------------------------------------------------

# The tags that change how text looks, as Discuz's discuzcode() renders them
# (source/function/function_discuzcode.php): [color=…], [backcolor=…], [size=…] and their ends.
_LOOK_TAGS = re.compile(
    r"\[(?P<name>color|backcolor|size)=(?P<value>[^\]\[\n]{1,40})\]|\[/(?P<end>color|backcolor|size)\]",
    re.IGNORECASE,
)
_SIZE_LENGTH = re.compile(r"\d+(?:\.\d+)?(?:px|pt)", re.IGNORECASE)


def bbcode_hidden(text: str) -> tuple[str, tuple[str, ...]]:
    """A raw-BBCode message as (its visible text, its hidden texts), its other tags kept for
    the reader to strip; the tags that made text invisible are gone with it."""
    if "[" not in text or not _LOOK_TAGS.search(text):
        return text, ()
    parts, position = [], 0
    for tag in _LOOK_TAGS.finditer(text):
        parts.append(escape(text[position : tag.start()], quote=False))
        parts.append(_rendered(tag))
        position = tag.end()
    parts.append(escape(text[position:], quote=False))
    cell = fragment("".join(parts).replace("\n", "<br>"))
    hidden = take_hidden(cell)
    if not hidden:
        return text, ()
    for br in cell.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return cell.text_content(), hidden


def _rendered(tag: re.Match[str]) -> str:
    """One look tag as Discuz renders it (a value it does not take: a bare ``<font>``)."""
    if tag.group("end"):
        return "</font>"
    name, value = tag.group("name").lower(), tag.group("value").strip()
    attribute = escape(value)
    if name == "color":
        if value.lower().startswith(("rgb(", "rgba(")):
            return f'<font style="color:{attribute}">'
        return f'<font color="{attribute}">' if re.fullmatch(r"[#\w]+", value) else "<font>"
    if name == "backcolor":
        return f'<font style="background-color:{attribute}">'
    if _SIZE_LENGTH.fullmatch(value):
        return f'<font style="font-size:{attribute}">'
    return f'<font size="{attribute}">' if value.isdigit() else "<font>"
