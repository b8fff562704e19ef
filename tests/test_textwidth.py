"""Text as a terminal shows it: Chinese takes two columns, tables and help align by it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.announce.textwidth import cell, columns, display_width, join_lines, pad, wrap
from killmod.commands.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize(
    ("text", "width"),
    [("meer", 4), ("投票帖", 6), ("５号", 4), ("a\u200bb", 2), ("é", 1), ("〖平民〗", 8), ("", 0)],
)
def test_display_width_counts_wide_characters_twice_and_invisible_ones_not(text, width):
    assert display_width(text) == width


def test_pad_fills_to_a_display_width():
    assert pad("花生米", 8) == "花生米  "
    assert pad("Tommy", 8) == "Tommy   "
    assert pad("预言家本家", 4) == "预言家本家"


def test_columns_align_chinese_and_latin_cells_by_display_width():
    table = columns(
        "楼层\t作者\t判定\n1楼\tmeer（1号）\t计票\n12楼\t预言家本家（5号）\t超过截止时间\n"
    )
    lines = table.split("\n")
    assert lines[-1] == ""
    starts = {line.index(word) for line, word in zip(lines, ("判定", "计票", "超过"), strict=False)}
    widths = {
        display_width(line[: line.index(word)])
        for line, word in zip(lines, ("判定", "计票", "超过"), strict=False)
    }
    assert len(widths) == 1, table  # the third column starts at the same column on every row
    assert len(starts) > 1  # though not at the same character: the cells are of different scripts


def test_columns_leave_a_line_without_a_tab_alone_and_take_a_separator():
    assert columns("标题\n甲\t1\n乙乙\t2", " | ") == "标题\n甲   | 1\n乙乙 | 2"


def test_a_cell_has_no_tab_or_line_break():
    assert cell("a\tb\nc  d") == "a b c d"


def test_wrap_breaks_between_chinese_characters_never_inside_a_latin_word():
    text = "截止时间：2014-12-09 22:00、22:00、今晚22点……用 --deadline 指定"
    lines = wrap(text, 20)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(display_width(line) <= 20 for line in lines)
    assert any("--deadline" in line for line in lines)
    assert not any(line.startswith(("，", "、", "。", "）")) for line in lines)


def test_wrap_keeps_a_bracketed_note_on_one_line():
    lines = wrap("同时读取的页数同时读取的页数  [默认值：4；1 到 16]", 24)
    assert "[默认值：4；1 到 16]" in lines


def test_join_lines_puts_no_space_inside_a_chinese_sentence():
    assert join_lines(["记录一夜的行动，私下通知", "和结算过程写进私密文件夹。"]) == (
        "记录一夜的行动，私下通知和结算过程写进私密文件夹。"
    )
    assert join_lines(["see the", "README"]) == "see the README"


def test_the_audit_table_is_aligned_for_chinese_names():
    result = CliRunner().invoke(
        main,
        [
            "tally",
            str(ROOT / "examples" / "day1"),
            "--roster",
            str(ROOT / "examples" / "roster.toml"),
            "--deadline",
            "2019-05-12 22:00",
            "--format",
            "audit",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = result.output.split("\n\n")[1].splitlines()
    assert rows[0].startswith("楼层")
    for heading in ("时间", "作者（座位）", "读作", "判定"):
        column = display_width(rows[0][: rows[0].index(heading)])
        for row in rows[1:]:
            before, after = at_column(row, column)
            assert before.endswith("  ") and not after.startswith(" "), row


def at_column(row: str, column: int) -> tuple[str, str]:
    """``row`` cut where ``column`` display columns have been drawn (exactly there)."""
    drawn = 0
    for index, char in enumerate(row):
        if drawn == column:
            return row[:index], row[index:]
        drawn += display_width(char)
    raise AssertionError(f"no cell starts at column {column}: {row}")


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        (
            ["rules", "2.0", "--variant", "ghost", "--variant", "double-guardian"],
            "rules-2.0-ghost-double-guardian.text",
        ),
        (["rules", "v4", "--code", "64C65"], "rules-v4-64C65.text"),
    ],
)
def test_golden_rule_tables(args, golden):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    path = GOLDEN / golden
    if os.environ.get("KILLMOD_UPDATE_GOLDEN"):
        path.write_text(result.output, encoding="utf-8")
    assert result.output == path.read_text(encoding="utf-8")
