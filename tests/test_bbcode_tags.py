"""Every BBCode post killmod prints renders on a stock board: only tags Discuz! X3 and 7.2
know.  A stock Discuz! X3.4 showed ``[spoiler=改票记录]`` literally (a plugin's tag), so the
check runs over what the commands really print: the example's announcement (with its vote
changes) and whole games of every rule set played with every post in BBCode.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.publicgames import SETS, Chooser, Game2, fixed_salt, roster_toml

ROOT = Path(__file__).resolve().parent.parent
# The tags a stock Discuz! X3 and Discuz! 7.2 render (discuzcode), that killmod may use.
STOCK_TAGS = frozenset(
    {"b", "i", "u", "s", "size", "color", "url", "quote", "list", "*", "table", "tr", "td"}
    | {"hr", "align", "font", "code"}
)
TAG = re.compile(r"\[(/?)([A-Za-z*]+)(=[^\[\]\n]*)?\]")
# What each bundled public BBCode template writes, to show the games printed every one.
TEMPLATE_MARKS = {
    "tally.bbcode.j2": "[b]结果[/b]",
    # the dawn post of a set with a 诈尸 window (1.2), and of the others
    "dawn.bbcode.j2": ("轮 尸体[/b][/size]", "夜 尸体[/b][/size]"),
    "lottery.public.bbcode.j2": "轮平票抽签[/b][/size]",
    "lottery.reveal.bbcode.j2": "轮平票抽签结果[/b][/size]",
    "lurkers.bbcode.j2": "潜水统计[/b][/size]",
    "audit.bbcode.j2": "犯规审计[/b][/size]",
    "gameover.bbcode.j2": "[size=4][b]游戏结束",
    "suicide.bbcode.j2": "亮牌自杀[/b][/size]",
    "out.bbcode.j2": "法官判定：",
    "open.bbcode.j2": "[b]存活玩家（",
    "provisional.bbcode.j2": "[color=red][b]非最终结果[/b][/color]",
    "remind.bbcode.j2": "轮投票提醒[/b][/size]",
    "history.bbcode.j2": "[tr][td][b]座位[/b][/td]",
    "sub.bbcode.j2": "号换替补[/b][/size]",
}


def unknown_tags(post: str) -> set[str]:
    """The tags in ``post`` a stock board does not know (it would show them literally)."""
    return {match[2].lower() for match in TAG.finditer(post)} - STOCK_TAGS


def bbcode_everywhere(seed: int) -> Chooser:
    """A game's choices, with BBCode whenever a post's format is chosen."""
    rng = random.Random(seed)
    return Chooser(lambda options: "bbcode" if "bbcode" in options else rng.choice(options))


def test_the_check_finds_a_plugins_tag():
    assert unknown_tags("[spoiler=改票记录]…[/spoiler]") == {"spoiler"}
    assert unknown_tags("[b]甲[/b] [color=red]乙[/color] [[i][/i]hide]") == set()


def test_the_announcement_with_vote_changes_uses_stock_tags_only():
    args = [
        "tally",
        str(ROOT / "examples" / "day1"),
        "--roster",
        str(ROOT / "examples" / "roster.toml"),
    ]
    done = CliRunner().invoke(main, [*args, "--deadline", "2019-05-12 22:00"])
    assert done.exit_code == 0, done.output
    assert "[quote][b]改票记录[/b]" in done.stdout
    assert unknown_tags(done.stdout) == set()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> list[tuple[str, str, str]]:
    """(set, command, stdout) of whole games of every set, every post in BBCode."""
    seen = []
    for name in sorted(SETS):
        for seed in (1, 2, 3):
            game = Game2(tmp_path_factory.mktemp(f"bb{seed}"), name, templates=None)
            game.tie_once = True  # a tie: the lottery's posts (1.2), a re-vote elsewhere
            with fixed_salt():
                game.play(bbcode_everywhere(seed), steps=16)
            seen += [(name, s.label, s.stdout) for s in game.twins[0].seen]
    seen.append(("1.2", "out", judges_decision(tmp_path_factory.mktemp("out"))))
    return seen


def judges_decision(folder: Path) -> str:
    """``killmod sub`` (a substitute's 换替补 post) and ``killmod out`` (the judge puts a
    player out) of a dealt 1.2 game: their posts."""
    roster, db = folder / "roster.toml", folder / "game.db"
    roster.write_text(roster_toml("1.2", 16, ()), encoding="utf-8")
    steps = [
        ["init", "--roster", str(roster)],
        ["deal", "--seed", "1"],
        ["sub", "6", "替[b]补[/b]甲"],
        ["out", "5", "--reason", "conduct", "--note", "[b]辱骂[/b]他人", "--format", "bbcode"],
    ]
    printed = ""
    for args in steps:
        done = CliRunner().invoke(main, [*args, "--db", str(db)])
        assert done.exit_code == 0, done.output
        printed += done.stdout
    return printed


@pytest.mark.slow  # whole games of every rule set (the played fixture)
def test_every_post_of_every_rule_set_uses_stock_tags_only(played):
    problems = [
        f"{name} {label}: {sorted(unknown_tags(stdout))}"
        for name, label, stdout in played
        if unknown_tags(stdout)
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("template", sorted(TEMPLATE_MARKS))
def test_the_games_printed_every_bundled_bbcode_template(played, template):
    bundled = {path.name for path in (ROOT / "templates").glob("*.bbcode.j2")}
    assert bundled == set(TEMPLATE_MARKS)
    marks = TEMPLATE_MARKS[template]
    for mark in (marks,) if isinstance(marks, str) else marks:
        assert any(mark in stdout for _, _, stdout in played), (template, mark)
