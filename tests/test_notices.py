"""The deal's notices: each role told what it may do in the rule text's words, for every
rule set and variant, and signed with the judges' names from the roster.

The golden files (``tests/golden/notices/``) hold every notice of one seeded deal per set;
``KILLMOD_UPDATE_GOLDEN=1`` writes them again after a deliberate change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.store import Game
from killmod.rules import rule_set_of
from tests.support.publicgames import SETS

GOLDEN = Path(__file__).resolve().parent / "golden" / "notices"


def roster(rules: str, players: int, variants: tuple[str, ...], judges: str) -> str:
    lines = [f'rules = "{rules}"', 'timezone = "Asia/Shanghai"', f"judges = {judges}"]
    if variants:
        lines.append("variants = [" + ", ".join(f'"{v}"' for v in variants) + "]")
    for seat in range(1, players + 1):
        lines += ["[[players]]", f"seat = {seat}", f'name = "玩家{seat}"']
    return "\n".join(lines) + "\n"


def deal(tmp_path: Path, name: str, judges: str = '["白夜", "小雨"]') -> dict[str, str]:
    rules, players, variants = SETS[name]
    (tmp_path / "roster.toml").write_text(roster(rules, players, variants, judges), "utf-8")
    db = tmp_path / "game.db"
    for args in (["init", "--roster", str(tmp_path / "roster.toml")], ["deal", "--seed", "7"]):
        done = CliRunner().invoke(main, [*args, "--db", str(db)])
        assert done.exit_code == 0, done.output
    folder = tmp_path / "game-private"
    return {path.name: path.read_text("utf-8") for path in sorted(folder.glob("*.txt"))}


@pytest.mark.parametrize("name", sorted(SETS))
def test_golden_notices_of_every_rule_set(tmp_path, name):
    notices = deal(tmp_path, name)
    text = "".join(f"==== {file}\n{notice}" for file, notice in notices.items())
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("KILLMOD_UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_role_dealt_is_told_its_powers_and_the_notice_is_signed(tmp_path, name):
    notices = deal(tmp_path, name)
    roster_ = Game.open(tmp_path / "game.db").roster()
    ruleset = rule_set_of(roster_)
    for player in roster_.players:
        notice = notices[f"{player.seat:02d}-玩家{player.seat}.txt"]
        powers = ruleset.powers(player.role)
        assert powers, f"{name}: no powers for {player.role}"
        assert "规则原文中你的身份：\n" + "\n".join(powers) + "\n" in notice
        assert notice.endswith("—— 法官 白夜、小雨\n"), notice


def test_a_roster_without_judges_signs_as_the_judge(tmp_path):
    notices = deal(tmp_path, "1.2", judges="[]")
    assert all(notice.endswith("\n—— 法官\n") for notice in notices.values())


def test_the_v4_killer_and_police_are_told_their_skills_as_the_doctor_is(tmp_path):
    notices = "\n".join(deal(tmp_path, "v4").values())
    for skill in (
        "【杀人】游戏日夜晚",
        "【指认】游戏日夜晚",
        "【注射】游戏日夜晚",
        "【蝶衣】",
        "【沉默】",
    ):
        assert skill in notices


def test_a_guardian_is_told_the_guarding_rules(tmp_path):
    notices = deal(tmp_path, "2.0-ghost-poison-guardian")
    guardian = next(n for n in notices.values() if "身份是【守护神】" in n)
    assert "如果该轮被守护人被杀、被票，那么守护神替他去死" in guardian
    assert "不得守护相同的人" in guardian
    ghost = next(n for n in notices.values() if "身份是【鬼匪】" in n)
    assert "杀手：夜晚找出警察并将其杀死" in ghost and "“附体”仅限一次" in ghost
    assert "生死状" in ghost  # a 毒药 is in the game
