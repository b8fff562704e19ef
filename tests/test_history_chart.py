"""`killmod history --format png`: the day-by-day vote chart, with Chinese names drawn.

The picture is drawn by matplotlib (the test extra installs it) in killmod's bundled CJK
font. A glyph a font lacks is drawn as the same empty box (tofu) whatever the character:
so two different names drawn alike are tofu, drawn differently are real glyphs — the test
compares against such a rendering of missing glyphs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.gamefiles import ok, refused, run
from tests.support.judgesday import play

pytest.importorskip("matplotlib")
from PIL import Image

from killmod.announce.chart import (
    COLOURS,
    bundled_font,
    choose_fonts,
    draw_history,
    parse_labels,
    picture_size,
)
from killmod.core.errors import BadInput


def pixels(path: Path) -> list[tuple[int, int, int]]:
    with Image.open(path) as picture:
        data = picture.convert("RGB").tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def drawn_text(text: str, font: Path, path: Path) -> list[tuple[int, int, int]]:
    """``text`` drawn alone in ``font`` alone (no fallback): its pixels."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.font_manager import FontProperties

    figure = pyplot.figure(figsize=(2, 0.6), dpi=100)
    figure.text(0.5, 0.5, text, ha="center", va="center", fontsize=20,
                fontproperties=FontProperties(fname=str(font), size=20))  # fmt: skip
    figure.savefig(path)
    pyplot.close(figure)
    return pixels(path)


def dejavu() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


@pytest.fixture
def game(tmp_path, serve_site):
    played = play(tmp_path, "1.2", serve_site, days=1)
    played.record_day(2)
    return played


def test_the_picture_has_its_size_and_draws_the_grid(game, tmp_path):
    out = tmp_path / "history.png"
    done = run("history", "--db", game.db, "--format", "png", "--out", out)
    assert done.exit_code == 0, done.output and done.stdout == ""
    assert f"票型图写在 {out}" in done.stderr
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(out) as picture:
        assert picture.size == picture_size(16, 2)
    colours = pixels(out)
    white = sum(1 for pixel in colours if pixel == (255, 255, 255))
    assert white < len(colours) * 0.7  # not blank: the grid is coloured in
    hit = tuple(int(COLOURS["hit"][i : i + 2], 16) for i in (1, 3, 5))
    assert colours.count(hit) > 1000  # the ballots for the voted-out player
    assert colours.count((0, 0, 0)) + sum(1 for p in colours if max(p) < 60) > 500  # text


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
def test_chinese_names_are_glyphs_not_empty_boxes(game, tmp_path):
    # the method: in a font without Chinese, two different names are the same empty boxes
    assert dejavu().is_file()
    tofu = drawn_text("甲乙丙", dejavu(), tmp_path / "tofu1.png")
    assert tofu == drawn_text("丁戊己", dejavu(), tmp_path / "tofu2.png")
    real = drawn_text("甲乙丙", bundled_font(), tmp_path / "real1.png")
    assert real != drawn_text("丁戊己", bundled_font(), tmp_path / "real2.png")
    assert real != tofu
    # the chart: the same game with other Chinese names is another picture
    from killmod.announce.views import history_view
    from killmod.game.store import Game
    from killmod.rules import rule_set
    from killmod.usecases.history import chronicle

    view = history_view(chronicle(Game.open(game.db)), rule_set("1.2"))
    from killmod.announce.render import render_public

    text = render_public("history.chart.j2", None, view)
    first = draw_history(view.values["rows"], parse_labels(text), tmp_path / "a.png")
    renamed = text.replace("玩家", "选手")
    second = draw_history(view.values["rows"], parse_labels(renamed), tmp_path / "b.png")
    assert first == second  # the same size
    assert pixels(tmp_path / "a.png") != pixels(tmp_path / "b.png")


def test_a_character_no_font_has_is_refused_not_drawn_as_a_box(tmp_path):
    with pytest.raises(BadInput, match="U\\+10FFFD"):
        choose_fonts(["1号 \U0010fffd"])
    assert choose_fonts(["玩家一"]) == [bundled_font()]
    assert choose_fonts(["1号 玩家一"]) == [bundled_font(), dejavu()]  # its digits
    with pytest.raises(BadInput, match="找不到字体文件"):
        choose_fonts(["x"], tmp_path / "none.ttf")


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
def test_a_font_without_chinese_is_helped_by_the_system_or_refused(game, tmp_path):
    out = tmp_path / "h.png"
    done = run("history", "--db", game.db, "--format", "png", "--out", out, "--font", dejavu())
    if done.exit_code == 0:  # this system has a font with the names' glyphs: drawn with it
        assert out.is_file()
    else:
        refused(done, "没有字体能显示")
        assert not out.exists()


def test_history_json_and_posts_say_the_same_game(game):
    document = ok(run("history", "--db", game.db, "--format", "json"))
    assert '"schema": "killmod.history/1"' in document
