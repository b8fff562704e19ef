"""A role is one of its rule set's: traditional forms read as simplified, anything else refused
at load naming the line and the set's roles; seats, uids and carried warnings are bounded."""

from __future__ import annotations

import re

import pytest

from killmod.core.errors import BadInput, KillmodError
from killmod.game.roster import parse_roster
from killmod.game.store import Game
from killmod.rules.roles import check_dealt
from tests.support.gamefiles import ok, refused, roster_toml, run
from tests.support.gamesteps import ROLES, everyone_votes, game_12, record_day, vote_url


def load(rules: str, roles: dict, **more):
    return parse_roster(roster_toml(rules, roles, **more), source="名单.toml")


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


@pytest.mark.parametrize(
    ("rules", "written", "read"),
    [
        ("1.2", "殺手", "杀手"),
        ("1.2", "檢查官", "检查官"),
        ("v4", "醫生", "医生"),
        ("v4", "狙擊手", "狙击手"),
        ("x", "警察", "警察"),
    ],
)
def test_a_traditional_role_is_read_as_the_simplified_role(rules, written, read):
    roles = {**dict.fromkeys(range(1, 17), "平民" if rules != "1.2" else "水民"), 16: written}
    assert load(rules, roles).seat(16).role == read


@pytest.mark.parametrize("written", ["杀 手", "killer", "杀手方", "好人", "狼人"])
def test_anything_else_is_refused_naming_the_line_and_the_roles(written):
    roles = {**ROLES, 16: written}
    text = roster_toml("1.2", roles)
    with pytest.raises(BadInput) as refusal:
        parse_roster(text, source="名单.toml")
    line = line_of(text, f'role = "{written}"')
    assert f"名单.toml 第 {line} 行" in refusal.value.message
    assert (
        f"写的是「{written}」，不是 1.2 规则的身份（可用：杀手、水民、检查官）"
        in refusal.value.message
    )


def test_a_variant_role_belongs_to_its_variant():
    roles = {**dict.fromkeys(range(1, 13), "平民"), 1: "鬼匪"}
    assert load("2.0", roles, extra='variants = ["ghost"]').seat(1).role == "鬼匪"
    with pytest.raises(BadInput, match=re.escape("不是 2.0 规则的身份")):
        load("2.0", roles)


def test_a_killer_written_in_traditional_characters_is_announced_as_a_killer(tmp_path, serve_site):
    db = game_12(tmp_path, {**ROLES, 1: "水民", 16: "殺手"})
    post = ok(record_day(db, vote_url(serve_site, everyone_votes(16), 1), 1))
    assert "[b]16号 玩家16[/b] 得票最高，被投出局。[/color]身份：[b]杀手[/b]" in post


def test_a_game_file_made_from_python_checks_its_roles_too(tmp_path):
    roster = load("1.2", ROLES)
    bad = roster.__class__(**{**roster.__dict__, "players": (
        *roster.players[:-1], roster.players[-1].__class__(
            **{**roster.players[-1].__dict__, "role": "killer"}
        ),
    )})  # fmt: skip
    with pytest.raises(BadInput, match="16号的身份写的是「killer」"):
        Game.create(tmp_path / "g.db", bad)
    assert not (tmp_path / "g.db").exists()


def test_the_next_game_checks_its_roles(tmp_path):
    db = game_12(tmp_path)
    roster = tmp_path / "next.toml"
    roster.write_text(roster_toml("1.2", {**ROLES, 2: "杀手方"}), encoding="utf-8")
    refused(run("init", "--roster", roster, "--db", db, "--next-game"), "不是 1.2 规则的身份")


def test_a_deal_of_a_role_not_of_the_set_is_killmods_own_error():
    check_dealt({1: "杀手", 2: "水民"}, "1.2")
    with pytest.raises(KillmodError, match=re.escape("2号「平民」 不是 1.2 规则的身份")):
        check_dealt({1: "杀手", 2: "平民"}, "1.2")


# --- bounded numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["seat", "uid"])
def test_a_seat_or_uid_past_what_the_file_holds_is_bad_input(key):
    text = roster_toml("1.2", ROLES).replace(f"{key} = 16\n" if key == "seat" else "uid = 5016\n",
                                              f"{key} = {2**63}\n")  # fmt: skip
    with pytest.raises(BadInput, match=f"的 {key} 应为 ≥ 1 的整数（至多"):
        parse_roster(text, source="名单.toml")


def test_a_huge_number_on_the_command_line_is_bad_input(tmp_path):
    db = game_12(tmp_path)
    big = str(2**63)
    for args in (
        ["sub", 5, "新人", "--uid", big],
        ["penalty", 5, "--round", big, "--kind", "cancel", "--choice", "x"],
        ["night", "--round", big, "--kill", 5],
        ["tally", "http://127.0.0.1:9/", "--deadline", "22:00", "--round", big],
    ):
        done = run(*args, "--db", db)
        assert done.exit_code == 2, (args, done.output)
        assert "Traceback" not in done.output


def test_carried_warnings_beyond_the_ladder_are_bad_input():
    extra = '[warnings]\n"5" = 2'
    with pytest.raises(BadInput, match=re.escape("1.2 规则的警告阶梯：第 2 次警告就换替补或出局")):
        parse_roster(
            roster_toml("1.2", ROLES).replace("\n[[players]]", f"\n{extra}\n[[players]]", 1)
        )
    one = roster_toml("1.2", ROLES).replace(
        "\n[[players]]", '\n[warnings]\n"5" = 1\n[[players]]', 1
    )
    assert parse_roster(one).warnings == {5: 1}
    x_roles = {seat: "平民" for seat in range(1, 9)} | {1: "警察", 2: "警察", 3: "杀手", 4: "杀手"}
    many = roster_toml("x", x_roles).replace(
        "\n[[players]]", '\n[warnings]\n"5" = 10\n[[players]]', 1
    )
    with pytest.raises(BadInput, match="合理范围（最多 9 次）"):
        parse_roster(many)
