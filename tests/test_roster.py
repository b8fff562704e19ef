"""Reading the judge's roster file, and the messages its mistakes give."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from killmod.core.errors import BadInput
from killmod.core.model import FormerHolder, Player
from killmod.game.roster import load_roster, parse_roster

SHANGHAI = ZoneInfo("Asia/Shanghai")

EXAMPLE = """\
rules = "1.2"
timezone = "Asia/Shanghai"
judges = ["法官大人"]          # their posts are never ballots
substitutes = ["替补甲"]
[[players]]
seat = 1
name = "meer"                 # the name the forum shows
uid = 2000                    # optional; matched against the author link when present
aliases = ["米儿"]            # optional
alive = true                  # optional, default true
role = "杀手"                 # optional, secret
"""


def toml(*lines: str) -> str:
    """A TOML text whose line N is ``lines[N - 1]``, so tests can name lines."""
    return "\n".join(lines) + "\n"


def player(seat: int, name: str, *extra: str) -> tuple[str, ...]:
    return ("[[players]]", f"seat = {seat}", f'name = "{name}"', *extra)


def rejected(text: str, source: str = "roster.toml") -> str:
    """The message of the ``BadInput`` the roster ``text`` gives (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        parse_roster(text, source=source)
    assert caught.value.exit_code == 2
    return caught.value.message


def test_example_roster_loads_with_its_values():
    roster = parse_roster(EXAMPLE)
    assert roster.rules == "1.2"
    assert roster.timezone == "Asia/Shanghai"
    assert roster.judges == ("法官大人",)
    assert roster.substitutes == ("替补甲",)
    assert roster.warnings == {}
    assert roster.players == (
        Player(seat=1, name="meer", uid=2000, aliases=("米儿",), alive=True, role="杀手"),
    )


def test_roster_file_loads_like_its_text(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert load_roster(path) == parse_roster(EXAMPLE)


def test_roster_saved_with_a_utf8_mark_loads(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_bytes(EXAMPLE.encode("utf-8-sig"))
    assert load_roster(path) == parse_roster(EXAMPLE)


def test_roster_with_only_players_takes_the_defaults():
    roster = parse_roster(toml(*player(1, "meer")))
    assert roster.rules == "1.2"
    assert roster.timezone == "Asia/Shanghai"
    assert roster.judges == ()
    assert roster.substitutes == ()
    assert roster.warnings == {}
    assert roster.players == (Player(seat=1, name="meer"),)
    assert roster.players[0].alive is True
    assert roster.players[0].role is None


def test_players_are_kept_in_seat_order_and_dead_ones_stay():
    roster = parse_roster(
        toml(*player(3, "丙"), *player(1, "甲", "alive = false"), *player(2, "乙"))
    )
    assert [p.seat for p in roster.players] == [1, 2, 3]
    assert [p.name for p in roster.living] == ["乙", "丙"]


def test_substitutes_keep_their_queue_order():
    text = toml('substitutes = ["替补乙", "替补甲"]', *player(1, "meer"))
    assert parse_roster(text).substitutes == ("替补乙", "替补甲")


@pytest.mark.parametrize("rules", ["1.2", "v4", "x", "1.0", "2.0"])
def test_every_known_rule_set_is_accepted(rules):
    assert parse_roster(toml(f'rules = "{rules}"', *player(1, "meer"))).rules == rules


def test_former_holders_are_aware_times_in_the_roster_timezone():
    text = toml(
        'timezone = "Europe/London"',
        *player(
            1,
            "新人",
            "former = [",
            '  { name = "老李", until = "2019-05-12 08:30:15" },',
            '  { name = "老王", until = "2019-05-10 12:00", uid = 3001 },',
            "]",
        ),
    )
    london = ZoneInfo("Europe/London")
    former = parse_roster(text).players[0].former
    assert former == (
        FormerHolder(name="老王", until=datetime(2019, 5, 10, 12, 0, tzinfo=london), uid=3001),
        FormerHolder(name="老李", until=datetime(2019, 5, 12, 8, 30, 15, tzinfo=london)),
    )
    assert all(holder.until.utcoffset() is not None for holder in former)


def test_former_holders_may_be_written_as_subtables():
    text = toml(
        *player(1, "新人"),
        "[[players.former]]",
        'name = "老王"',
        'until = "2019-05-10 12:00"',
        *player(2, "乙"),
    )
    roster = parse_roster(text)
    assert roster.players[0].former == (
        FormerHolder(name="老王", until=datetime(2019, 5, 10, 12, 0, tzinfo=SHANGHAI)),
    )
    assert roster.players[1].former == ()


def test_former_until_written_as_a_toml_datetime_is_local_unless_it_has_an_offset():
    text = toml(
        *player(1, "新人", 'former = [{ name = "老王", until = 2019-05-10 12:00:00 }]'),
        *player(2, "乙", 'former = [{ name = "老李", until = 2019-05-10T04:00:00Z }]'),
    )
    players = parse_roster(text).players
    assert players[0].former[0].until == datetime(2019, 5, 10, 12, 0, tzinfo=SHANGHAI)
    assert players[1].former[0].until == datetime(2019, 5, 10, 12, 0, tzinfo=SHANGHAI)
    assert players[1].former[0].until.utcoffset() is not None


def test_warnings_from_earlier_rounds_are_kept_by_seat():
    text = toml(*player(1, "甲"), *player(3, "丙"), "[warnings]", "3 = 1", '"1" = 0')
    assert parse_roster(text).warnings == {3: 1, 1: 0}


def test_variants_are_accepted_with_the_2_0_rules():
    text = toml('rules = "2.0"', 'variants = ["ghost", "poison", "guardian"]', *player(1, "甲"))
    assert parse_roster(text).rules == "2.0"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (toml(*player(1, "meer"), "seat = 2"), 4, ["TOML 格式错误", "同一个键写了两次"]),
        (toml(*player(1, "meer"), "uid = 二千"), 4, ["TOML 格式错误", "第 7 列", "引号"]),
        (toml("[[players]]", "seat = 1", 'name = "meer'), 3, ["TOML 格式错误", "引号"]),
    ],
)
def test_bad_toml_syntax_names_the_line(text, line, words):
    message = rejected(text)
    assert message.startswith(f"roster.toml 第 {line} 行：")
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        # A seat or name left out: blamed on the entry's [[players]] line.
        (
            toml(*player(1, "甲"), "[[players]]", 'name = "乙"'),
            4,
            "seat",
            ["第 2 个 [[players]]", "缺少"],
        ),
        (
            toml(*player(1, "甲"), "[[players]]", "seat = 2"),
            4,
            "name",
            ["第 2 个 [[players]]", "缺少"],
        ),
        # Wrong types.
        (toml("[[players]]", 'seat = "一"', 'name = "甲"'), 2, "seat", ["整数", "「一」"]),
        (toml("[[players]]", "seat = 0", 'name = "甲"'), 2, "seat", ["≥ 1 的整数", "「0」"]),
        (toml("[[players]]", "seat = true", 'name = "甲"'), 2, "seat", ["整数", "「true」"]),
        (toml("[[players]]", "seat = 1", "name = 7"), 3, "name", ["字符串", "「7」"]),
        (toml("[[players]]", "seat = 1", 'name = "  "'), 3, "name", ["空"]),
        (toml("[[players]]", "seat = 1", 'name = "meer "'), 3, "name", ["首尾不能有空格"]),
        (toml(*player(1, "甲", 'uid = "2000"')), 4, "uid", ["整数"]),
        (toml(*player(1, "甲", 'aliases = "小甲"')), 4, "aliases", ["字符串数组"]),
        (toml(*player(1, "甲", "aliases = [1]")), 4, "aliases", ["字符串"]),
        (toml(*player(1, "甲", 'alive = "yes"')), 4, "alive", ["true 或 false"]),
        (toml(*player(1, "甲", "role = 3")), 4, "role", ["字符串"]),
        (toml('judges = "法官"', *player(1, "甲")), 1, "judges", ["字符串数组"]),
        # Keys nobody knows: the allowed ones are listed, a near one suggested.
        (
            toml(*player(1, "甲", "sea = 2")),
            4,
            "sea",
            ["未知的键", "seat、name、uid", "是不是 seat"],
        ),
        (toml("judge = []", *player(1, "甲")), 1, "judge", ["未知的顶层键", "是不是 judges"]),
        (toml(*player(1, "甲", 'judges = ["法官"]')), 4, "judges", ["第一个 [[players]] 之前"]),
        # Unknown rules and timezones.
        (toml('rules = "1.3"', *player(1, "甲")), 1, "rules", ["「1.3」", "1.2、V4.0、X"]),
        (toml("rules = 1.2", *player(1, "甲")), 1, "rules", ['rules = "1.2"']),
        (toml('timezone = "Asia/Beijing"', *player(1, "甲")), 1, "timezone", ["「Asia/Beijing」"]),
        (toml('timezone = "+08:00"', *player(1, "甲")), 1, "timezone", ["时区"]),
    ],
)
def test_roster_mistake_names_the_file_line_and_key(text, line, key, words):
    message = rejected(text)
    assert message.startswith(f"roster.toml 第 {line} 行：")
    assert key in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        (toml(*player(1, "甲"), *player(1, "乙")), 5, "seat", ["重复", "第 1 个 [[players]]"]),
        (toml(*player(1, "甲"), *player(2, "甲")), 6, "name", ["「甲」", "1 号玩家「甲」"]),
        # Names compare as the tally reads them: case-folded, full-width folded.
        (toml(*player(1, "Meer"), *player(2, "ｍｅｅｒ")), 6, "name", ["1 号玩家「Meer」"]),
        # … and traditional and simplified alike (issue 27): 歐逆醬 is 欧逆酱.
        (toml(*player(1, "歐逆醬"), *player(2, "欧逆酱")), 6, "name", ["1 号玩家「歐逆醬」"]),
        (
            toml(*player(1, "甲", 'aliases = ["紅葉"]'), *player(2, "乙", 'aliases = ["红叶"]')),
            8,
            "aliases",
            ["「红叶」", "1 号玩家「甲」"],
        ),
        (toml(*player(1, "甲", 'aliases = ["小甲"]'), *player(2, "小甲")), 7, "name", ["「小甲」"]),
        (toml(*player(1, "甲"), *player(2, "乙", 'aliases = ["甲"]')), 7, "aliases", ["「甲」"]),
        (toml('judges = ["甲"]', *player(1, "甲")), 4, "name", ["已被法官使用"]),
        (toml('substitutes = ["甲"]', *player(1, "甲")), 4, "name", ["替补第 1 位"]),
        (
            toml('judges = ["甲"]', 'substitutes = ["甲"]', *player(1, "乙")),
            2,
            "substitutes",
            ["法官"],
        ),
        (toml('substitutes = ["丙", "丙"]', *player(1, "甲")), 1, "substitutes", ["替补第 1 位"]),
        (toml(*player(1, "甲", "uid = 7"), *player(2, "乙", "uid = 7")), 8, "uid", ["「7」"]),
    ],
)
def test_no_seat_uid_or_name_is_given_twice(text, line, key, words):
    message = rejected(text)
    assert message.startswith(f"roster.toml 第 {line} 行：")
    assert key in message
    assert "重复" in message
    for word in words:
        assert word in message


def test_a_player_may_repeat_their_own_name_as_an_alias():
    roster = parse_roster(toml(*player(1, "meer", 'aliases = ["Meer", "米儿"]')))
    assert roster.players[0].aliases == ("Meer", "米儿")


@pytest.mark.parametrize(
    ("extra", "line", "key", "words"),
    [
        (['former = [{ until = "2019-05-10 12:00" }]'], 4, "name", ["former 第 1 项", "缺少"]),
        (['former = [{ name = "老王" }]'], 4, "until", ["former 第 1 项", "缺少"]),
        (['former = [{ name = "老王", until = "2019-05-10" }]'], 4, "until", ["YYYY-MM-DD HH:MM"]),
        (['former = [{ name = "老王", until = "5月10日" }]'], 4, "until", ["「5月10日」"]),
        (
            ['former = [{ name = "老王", until = "2019-05-10 12:00", id = 1 }]'],
            4,
            "id",
            ["未知的键"],
        ),
        (['former = { name = "老王", until = "2019-05-10 12:00" }'], 4, "former", ["数组"]),
        # The seat's former holders' names are the seat's: the next seat cannot reuse them.
        (['former = [{ name = "乙", until = "2019-05-10 12:00" }]'], 7, "name", ["1 号玩家「甲」"]),
        (["[[players.former]]", 'name = "老王"', 'until = "2019-05-10 99:00"'], 6, "until", []),
        (
            ["[[players.former]]", 'name = "老王"', 'until = "2019-05-10 12:00"', "uid = 0"],
            7,
            "uid",
            [],
        ),
    ],
)
def test_former_holder_mistake_names_its_line(extra, line, key, words):
    message = rejected(toml(*player(1, "甲", *extra), *player(2, "乙")))
    assert message.startswith(f"roster.toml 第 {line} 行：")
    assert key in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("warning", "line", "words"),
    [
        ("2 = 1", 5, ["的 2 ", "座位号"]),
        ("one = 1", 5, ["的 one ", "座位号"]),
        ("1 = -1", 5, ["「-1」"]),
        ('1 = "一次"', 5, ["整数"]),
    ],
)
def test_warnings_must_count_a_seat_of_the_roster(warning, line, words):
    message = rejected(toml(*player(1, "甲"), "[warnings]", warning))
    assert message.startswith(f"roster.toml 第 {line} 行：")
    assert "[warnings]" in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("variants", "words"),
    [
        ('["ghosts"]', ["「ghosts」", "ghost、poison、guardian、double-guardian"]),
        ('["guardian", "double-guardian"]', ["只能选一个"]),
    ],
)
def test_variants_must_be_known_and_compatible(variants, words):
    message = rejected(toml('rules = "2.0"', f"variants = {variants}", *player(1, "甲")))
    assert message.startswith("roster.toml 第 2 行：variants")
    for word in words:
        assert word in message


def test_variants_belong_to_the_2_0_rules_only():
    message = rejected(toml('rules = "1.2"', 'variants = ["ghost"]', *player(1, "甲")))
    assert message.startswith("roster.toml 第 2 行：variants")
    assert "2.0" in message


def test_roster_without_players_is_refused():
    assert "缺少 [[players]]" in rejected(toml('judges = ["法官"]'))
    assert rejected(toml("players = []")).startswith("roster.toml 第 1 行：players")


def test_players_written_with_single_brackets_are_refused():
    message = rejected(toml('judges = ["法官"]', "[players]", "seat = 1", 'name = "甲"'))
    assert message.startswith("roster.toml 第 2 行：players")
    assert "[[players]]" in message


def test_players_written_inline_are_blamed_on_the_players_line():
    text = toml(
        'judges = ["法官"]', 'players = [{ seat = 1, name = "甲" }, { seat = "二", name = "乙" }]'
    )
    message = rejected(text)
    assert message.startswith("roster.toml 第 2 行：第 2 个 [[players]] 的 seat")


def test_messages_name_the_roster_by_the_source_given():
    message = rejected(toml("[[players]]", "seat = 1"), source="第二局.toml")
    assert message.startswith("第二局.toml 第 1 行：")


def test_loading_names_the_file_it_read(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text(toml("[[players]]", 'seat = "一"', 'name = "甲"'), encoding="utf-8")
    with pytest.raises(BadInput) as caught:
        load_roster(path)
    assert caught.value.message.startswith(f"{path} 第 2 行：")


def test_missing_roster_file_is_bad_input(tmp_path):
    path = tmp_path / "没有.toml"
    with pytest.raises(BadInput) as caught:
        load_roster(path)
    assert caught.value.exit_code == 2
    assert str(path) in caught.value.message
    assert "找不到" in caught.value.message


def test_directory_given_as_roster_is_bad_input(tmp_path):
    with pytest.raises(BadInput) as caught:
        load_roster(tmp_path)
    assert caught.value.exit_code == 2
    assert "目录" in caught.value.message


def test_roster_saved_as_gbk_is_bad_input_naming_the_line(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_bytes(toml("[[players]]", "seat = 1", 'name = "米儿"').encode("gbk"))
    with pytest.raises(BadInput) as caught:
        load_roster(path)
    assert caught.value.exit_code == 2
    assert caught.value.message.startswith(f"{path} 第 3 行：")
    assert "UTF-8" in caught.value.message
