"""``killmod new``: a commented roster for the chosen rule set and count, that init accepts."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.store import Game
from killmod.rules import rule_set
from tests.support.publicgames import SETS

GOLDEN = Path(__file__).resolve().parent / "golden"


def run(*args: object):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def sizes(rules: str, variants: tuple[str, ...]) -> list[int]:
    return [row["players"] for row in rule_set(rules, variants).table()]


CASES = [
    (name, players)
    for name, (rules, _, variants) in sorted(SETS.items())
    for players in sorted({sizes(rules, variants)[0], sizes(rules, variants)[-1]})
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_template_has_the_tables_seats_and_init_and_deal_take_it(tmp_path, name, players):
    rules, _, variants = SETS[name]
    path = tmp_path / "名单.toml"
    chosen = [a for v in variants for a in ("--variant", v)]
    done = run("new", path, "--rules", rules.upper(), "--players", players, *chosen)
    assert done.exit_code == 0, done.output
    assert done.stdout == ""  # stdout is for posts; what was written is said on stderr
    assert f"已写名单模板 {path}（{players} 个座位）" in done.stderr
    text = path.read_text(encoding="utf-8")
    assert f"{players} 人局：" in text and "killmod init --roster 名单.toml" in text
    document = tomllib.loads(text)
    assert [p["seat"] for p in document["players"]] == list(range(1, players + 1))
    assert document["rules"] == rules and document.get("variants", []) == list(variants)
    if rules == "v4":
        assert document["code"] == rule_set("v4").table_row(players)["code"]
    db = tmp_path / "game.db"
    assert run("init", "--roster", path, "--db", db).exit_code == 0
    assert run("deal", "--db", db, "--seed", 1).exit_code == 0
    dealt = Game.open(db).roster()
    assert len(dealt.players) == players and all(p.role for p in dealt.players)


def test_1_2_has_one_size_and_needs_no_count(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("new")
    assert done.exit_code == 0, done.output
    document = tomllib.loads((tmp_path / "roster.toml").read_text(encoding="utf-8"))
    assert len(document["players"]) == 16 and document["rules"] == "1.2"


def test_a_set_of_several_sizes_asks_for_the_count(tmp_path):
    done = run("new", tmp_path / "r.toml", "--rules", "X")
    assert done.exit_code == 2 and "8–16 人" in done.output and "--players" in done.output
    assert not (tmp_path / "r.toml").exists()


def test_a_count_outside_the_table_is_refused_and_nothing_written(tmp_path):
    done = run("new", tmp_path / "r.toml", "--rules", "v4", "--players", 30)
    assert done.exit_code == 2 and "错误" in done.output
    assert not (tmp_path / "r.toml").exists()


def test_an_existing_file_is_kept_unless_forced(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text("# mine\n", encoding="utf-8")
    done = run("new", path)
    assert done.exit_code == 2 and "已经存在" in done.output and "--force" in done.output
    assert path.read_text(encoding="utf-8") == "# mine\n"
    assert run("new", path, "--force").exit_code == 0
    assert "[[players]]" in path.read_text(encoding="utf-8")


def test_golden_template_of_a_v4_game(tmp_path):
    path = tmp_path / "roster.toml"
    assert run("new", path, "--rules", "V4.0", "--players", 11).exit_code == 0
    golden = GOLDEN / "new-v4-11.toml"
    if os.environ.get("KILLMOD_UPDATE_GOLDEN"):
        golden.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8")
