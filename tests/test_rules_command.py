"""`killmod rules`: every rule set's role table and summary, V4.0 version codes."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main

SIZES = {"1.2": (16, 16), "v4": (11, 25), "x": (8, 16), "1.0": (6, 10), "2.0": (12, 18)}
TITLES = {
    "1.2": "“杀人游戏”标准化规则 1.2",
    "v4": "官方规则 S03 暨杀人游戏 V4.0",
    "x": "X 游戏",
    "1.0": "1.0 初级游戏",
    "2.0": "2.0 标准游戏",
}
V4_SINGLES = 4  # 医生、狙击手、花蝴蝶、森林老人: one each


def run(*args: object):
    return CliRunner().invoke(main, ["rules", *map(str, args)])


def unpadded(text: str) -> str:
    """The table's rows with the padding that aligns its columns taken out."""
    return re.sub(r" +\| ", " | ", text)


def as_json(*args: object):
    done = run(*args, "--format", "json")
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


@pytest.mark.parametrize("name", list(SIZES))
def test_every_set_prints_its_summary_and_whole_table(name):
    done = run(name)
    assert done.exit_code == 0, done.output
    assert TITLES[name] in done.output and "身份表" in done.output
    low, high = SIZES[name]
    rows = as_json(name)
    assert [row["players"] for row in rows] == list(range(low, high + 1))
    for row in rows:
        assert {"players", "civilians", "police", "killers"} <= row.keys()
        line = " | ".join(str(row[key]) for key in ("players", "civilians", "police", "killers"))
        assert line in unpadded(done.output)


@pytest.mark.parametrize("name", list(SIZES))
def test_a_count_outside_the_range_is_exit_2(name):
    low, high = SIZES[name]
    for players in (low - 1, high + 1):
        done = run(name, "--players", players)
        assert done.exit_code == 2 and "错误" in done.output
        assert run(name, "--players", players, "--format", "json").exit_code == 2


def test_v4_row_for_a_player_count_is_the_issue_document():
    assert as_json("v4", "--players", 16) == {
        "players": 16,
        "civilians": 6,
        "police": 1,
        "killers": 5,
        "code": "64C65",
        "lose_condition": "01",
    }
    text = unpadded(run("v4", "--players", 16).output)
    assert "16 | 6 | 1 | 5 | 64C65 | 01" in text
    assert "参考版本号 64C65（判负条件 01：连续2名平民被投票出局）" in text


def test_v4_every_row_adds_up_and_every_code_decodes_back():
    for row in as_json("v4"):
        roles = row["civilians"] + row["police"] + row["killers"] + V4_SINGLES
        assert roles == row["players"], row
        assert as_json("v4", "--code", row["code"]) == row
        assert as_json("v4", "--players", row["players"]) == row


def test_v4_code_is_decoded_with_its_own_lose_condition():
    assert as_json("v4", "--code", "04c65") == {
        "players": 16,
        "civilians": 6,
        "police": 1,
        "killers": 5,
        "code": "04C65",
        "lose_condition": "00",
    }
    text = unpadded(run("v4", "--code", "04C65").output)
    assert "版本号解读" in text and "16 | 6 | 1 | 5 | 04C65 | 00" in text
    assert "00 平民全部出局" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("v4", "--code", "64C64"), "5 名杀手"),
        (("v4", "--code", "XYZ"), "5 位十六进制"),
        (("v4", "--code", "C4C65"), "高 2 位是 11"),
        (("v4", "--code", "64C65", "--players", "16"), "只能给一个"),
        (("x", "--code", "64C65"), "只有 V4.0 规则有版本号"),
        (("3.0",), "未知的规则"),
        (("2.0", "--variant", "zombie"), "不是已知的花样玩法"),
        (("v4", "--variant", "ghost"), "花样玩法只用于 2.0"),
    ],
)
def test_bad_input_is_exit_2_with_a_clear_message(args, message):
    done = run(*args)
    assert done.exit_code == 2 and message in done.output


def test_x_rows_name_how_many_deaths_leave_last_words():
    assert as_json("x", "--players", 12) == {
        "players": 12,
        "civilians": 6,
        "police": 3,
        "killers": 3,
        "last_words": 3,
    }
    assert "前 3 个死者有遗言" in run("x", "--players", 12).output


def test_1_0_rows_offer_the_other_killer_count():
    assert as_json("1.0", "--players", 9)["killer_options"] == [2, 3]
    assert as_json("1.0", "--players", 6)["killers"] == 2
    assert "9 | 6 | 0 | 3 | 2/3" in unpadded(run("1.0").output)


def test_1_2_has_one_row_with_its_inspector():
    assert as_json("1.2") == [
        {"players": 16, "civilians": 12, "police": 0, "killers": 3, "inspectors": 1}
    ]


def test_2_0_variants_take_civilian_places_and_add_their_rules():
    row = as_json("2.0", "--players", 14, "--variant", "ghost", "--variant", "poison")
    assert (row["civilians"], row["police"], row["killers"]) == (7, 3, 3)
    assert (row["ghost"], row["poison"], row["guardians"]) == (1, 1, 0)
    text = run("2.0", "--variant", "double-guardian").output
    assert "2.0 花样玩法" in text and "双守护" in text
    assert as_json("2.0", "--players", 12) == {
        "players": 12,
        "civilians": 6,
        "police": 3,
        "killers": 3,
    }
