"""The history as a picture (``killmod history --format png``): a day-by-day vote chart.

A grid drawn with matplotlib (the optional extra ``pip install 'killmod[plot]'``, imported
only here, only when a picture is asked for): a row per seat, a column per recorded vote,
each cell the seat's final ballot, coloured by what it was (a vote for the player the vote
put out, another vote, 弃权, no ballot, not a voter).  Every word in it comes from the
template ``history.chart.j2``.

Chinese names need a font with their glyphs.  killmod ships one (Droid Sans Fallback,
Apache License 2.0, in ``killmod/fonts/``); a judge's ``--font FILE`` is used instead.  A
character no font has — neither the chosen one nor any font matplotlib finds on the system —
is refused, naming it, rather than drawn as an empty box (the “last resort” fonts, which
draw every character as a box, are never taken).  The CJK font has no Latin letters or
digits: those come from matplotlib's own DejaVu Sans.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from killmod.announce.outputs import write_whole
from killmod.core.errors import BadInput, KillmodError

if TYPE_CHECKING:
    from killmod.announce.views import HistoryRow

BUNDLED_FONT = "DroidSansFallbackFull.ttf"
DPI = 100
# Inches: the seat column, a vote column, a row, the title band.
LABEL_WIDTH, COLUMN_WIDTH, ROW_HEIGHT, TITLE_HEIGHT = 2.6, 1.5, 0.4, 0.8
COLOURS = {
    "hit": "#ef9a9a",
    "vote": "#bbdefb",
    "abstain": "#e0e0e0",
    "self": "#fff3c4",
    "defender": "#ffe0b2",
    "absent": "#9e9e9e",
}
LEGEND_SLOT, LEGEND_LINE = 2.6, 0.35  # inches: one legend entry's width, one line's height


@dataclass
class Labels:
    """The picture's words, read from ``history.chart.j2``'s lines."""

    title: str = ""
    corner: str = ""
    footer: str = ""
    empty: str = ""
    columns: dict[int, str] = field(default_factory=dict)
    results: dict[int, str] = field(default_factory=dict)
    rows: dict[int, str] = field(default_factory=dict)
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    legend: dict[str, str] = field(default_factory=dict)

    def texts(self) -> list[str]:
        """Every text the picture shows."""
        return [
            self.title,
            self.corner,
            self.footer,
            self.empty,
            *self.columns.values(),
            *self.results.values(),
            *self.rows.values(),
            *self.cells.values(),
            *self.legend.values(),
        ]


def parse_labels(text: str) -> Labels:
    """The lines ``KIND<TAB>INDEX…<TAB>TEXT`` of the rendered ``history.chart.j2``."""
    labels = Labels()
    for line in text.splitlines():
        kind, *parts = line.split("\t")
        if kind in ("title", "corner", "footer", "empty") and parts:
            setattr(labels, kind, parts[-1])
        elif kind in ("column", "result", "row") and len(parts) == 2:
            target = {"column": labels.columns, "result": labels.results, "row": labels.rows}
            target[kind][int(parts[0])] = parts[1]
        elif kind == "cell" and len(parts) == 3:
            labels.cells[int(parts[0]), int(parts[1])] = parts[2]
        elif kind == "legend" and len(parts) == 2:
            labels.legend[parts[0]] = parts[1]
    return labels


def picture_size(rows: int, columns: int) -> tuple[int, int]:
    """The picture's width and height in pixels for ``rows`` seats and ``columns`` votes."""
    width = LABEL_WIDTH + COLUMN_WIDTH * max(columns, 1)
    height = TITLE_HEIGHT + ROW_HEIGHT * (rows + 2) + _legend_height(width)
    return round(width * DPI), round(height * DPI)


def _legend_slots(width: float) -> int:
    """How many legend entries fit on one line of a picture ``width`` inches wide."""
    return max(1, int((width - 0.2) // LEGEND_SLOT))


def _legend_height(width: float) -> float:
    lines = -(-len(COLOURS) // _legend_slots(width))
    return LEGEND_LINE * lines + 0.3


def bundled_font() -> Path:
    """The CJK font killmod ships (Droid Sans Fallback, Apache License 2.0)."""
    return Path(str(files("killmod.fonts") / BUNDLED_FONT))


def choose_fonts(texts: Iterable[str], font: Path | None = None) -> list[Path]:
    """The fonts to draw ``texts`` with: ``font`` (default: the bundled CJK font), then
    fonts on the system for characters it lacks; a character no font has is refused."""
    import matplotlib
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    first = font or bundled_font()
    if not first.is_file():
        raise BadInput(f"找不到字体文件：{first}")
    try:
        covered = set(FT2Font(str(first)).get_charmap())
    except (OSError, RuntimeError, ValueError):
        raise BadInput(
            f"读不了字体文件：{first}（要 TrueType/OpenType 字体，如 .ttf、.otf）"
        ) from None
    wanted = {ord(ch) for text in texts for ch in text if not ch.isspace()}
    chosen, missing = [first], wanted - covered
    # matplotlib's own DejaVu Sans first (Latin letters, digits, arrows: the CJK font has
    # none), then any font on the system
    latin = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    system = [Path(entry.fname) for entry in font_manager.fontManager.ttflist
              if "lastresort" not in entry.name.replace(" ", "").lower()]  # fmt: skip
    for candidate in [latin, *system] if missing else ():
        try:
            charmap = set(FT2Font(str(candidate)).get_charmap())
        except (OSError, RuntimeError, ValueError):
            continue
        if missing & charmap:
            chosen.append(candidate)
            missing -= charmap
        if not missing:
            break
    if missing:
        shown = "、".join(f"「{chr(code)}」（U+{code:04X}）" for code in sorted(missing)[:10])
        raise BadInput(
            f"图里有 {len(missing)} 个字符没有字体能显示：{shown}。画出来会是空框，所以没有画："
            "请用 --font 指定一个含有这些字的字体文件（如 Noto Sans CJK），或改用 --format bbcode。"
        )
    return chosen


def draw_history(
    rows: Sequence[HistoryRow], labels: Labels, path: Path, *, font: Path | None = None
) -> tuple[int, int]:
    """Draw the vote chart of ``rows`` (``killmod.announce.views.HistoryRow``) with ``labels`` into
    the PNG file ``path`` (written whole, or not at all); returns its size in pixels."""
    pyplot, font_manager = _matplotlib()
    fonts = choose_fonts(labels.texts(), font)
    families = []
    for font_file in fonts:
        font_manager.fontManager.addfont(str(font_file))
        families.append(font_manager.FontProperties(fname=str(font_file)).get_name())
    columns = max((len(row.cells) for row in rows), default=0)
    width, height = picture_size(len(rows), columns)
    with pyplot.rc_context({"font.family": families, "axes.unicode_minus": False}):
        figure = pyplot.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
        try:
            _draw(figure, rows, labels, columns, width / DPI, height / DPI)
            write_whole(
                path,
                lambda stream: figure.savefig(stream, format="png", dpi=DPI),
                kind="图片",
                suffix=".png",
            )
        finally:
            pyplot.close(figure)
    return width, height


def _draw(figure, rows, labels: Labels, columns: int, width: float, height: float) -> None:
    """The grid, in inches from the top left (the axes span the whole figure)."""
    from matplotlib.patches import Rectangle

    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")

    def box(x: float, y: float, w: float, colour: str, text: str, **style) -> None:
        axes.add_patch(Rectangle((x, y), w, ROW_HEIGHT, facecolor=colour, edgecolor="#616161"))
        axes.text(x + w / 2, y + ROW_HEIGHT / 2, text, ha="center", va="center", **style)

    axes.text(width / 2, TITLE_HEIGHT / 2, labels.title, ha="center", va="center", fontsize=16)
    top = TITLE_HEIGHT
    box(0, top, LABEL_WIDTH, "#eeeeee", labels.corner, fontsize=11)
    for column in range(columns):
        x = LABEL_WIDTH + column * COLUMN_WIDTH
        box(x, top, COLUMN_WIDTH, "#eeeeee", labels.columns.get(column, ""), fontsize=11)
    if not columns:
        axes.text(LABEL_WIDTH + COLUMN_WIDTH / 2, top + ROW_HEIGHT * 1.5, labels.empty,
                  ha="center", va="center", fontsize=10)  # fmt: skip
    for index, row in enumerate(rows):
        y = top + ROW_HEIGHT * (index + 1)
        box(0, y, LABEL_WIDTH, "#ffffff", labels.rows.get(index, ""), fontsize=11)
        for column, cell in enumerate(row.cells):
            kind = "hit" if cell.hit else cell.kind
            x = LABEL_WIDTH + column * COLUMN_WIDTH
            colour = "#ffffff" if kind == "absent" else "#212121"
            text = labels.cells.get((index, column), "")
            box(x, y, COLUMN_WIDTH, COLOURS.get(kind, "#ffffff"), text, fontsize=10, color=colour)
    y = top + ROW_HEIGHT * (len(rows) + 1)
    box(0, y, LABEL_WIDTH, "#eeeeee", labels.footer, fontsize=11)
    for column in range(columns):
        x = LABEL_WIDTH + column * COLUMN_WIDTH
        box(x, y, COLUMN_WIDTH, "#eeeeee", labels.results.get(column, ""), fontsize=10)
    slots = _legend_slots(width)
    legend_top = top + ROW_HEIGHT * (len(rows) + 2) + 0.15
    for index, (kind, colour) in enumerate(COLOURS.items()):
        x = 0.2 + LEGEND_SLOT * (index % slots)
        y = legend_top + LEGEND_LINE * (index // slots) + LEGEND_LINE / 2
        axes.add_patch(Rectangle((x, y - 0.1), 0.3, 0.2, facecolor=colour, edgecolor="#616161"))
        axes.text(x + 0.4, y, labels.legend.get(kind, ""), ha="left", va="center", fontsize=9)


def _matplotlib():
    """matplotlib's pyplot (on the Agg backend: no window) and font manager, or a clear
    error saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise KillmodError(
            "画图要用 matplotlib，还没有安装：pip install 'killmod[plot]'"
            "（或改用 --format bbcode）。"
        ) from None
    matplotlib.use("Agg")
    from matplotlib import font_manager, pyplot

    return pyplot, font_manager
