"""What the judge reads agrees with itself (issue 25.7): an action aimed at its own actor is
confirmed or refused, undone private files are moved aside, V4.0 names its nights one way,
and times read as judges write them — each by the installed ``killmod`` in its own process
on a real game file.
"""

from __future__ import annotations

import re

import pytest

from tests.support.gamefiles import new_game
from tests.support.gamesteps import ROLES, console, game_12, rows

pytestmark = pytest.mark.slow

V4_ROLES = {1: "警察", 2: "狙击手", 3: "森林老人", 4: "医生", 5: "平民", 6: "平民"} | {
    7: "杀手",
    8: "平民",
    9: "杀手",
    10: "花蝴蝶",
    11: "杀手",
}
ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def done(process) -> str:
    assert process.returncode == 0, process.stdout + process.stderr
    return process.stdout


# --- an action aimed at its own actor ---------------------------------------------------------


def test_the_inspectors_veto_on_himself_is_refused_until_the_judge_confirms(tmp_path):
    db = game_12(tmp_path)  # the 检查官 is seat 4, the killers 1, 2 and 3
    before = rows(db)
    refused = console("night", "--round", 1, "--kill", 9, "--veto", 4, "--db", db)
    assert refused.returncode == 2 and refused.stdout == ""
    assert "请法官核对：--veto 4：否决权的目标是行使它的玩家本人" in refused.stderr
    assert "确认无误请加 --yes 再运行。什么也没有记录。" in refused.stderr
    assert "检查官" not in refused.stderr  # the role is not named on stderr
    assert rows(db) == before
    # typed yes at a terminal is the other confirmation; --yes here
    post = done(console("night", "--round", 1, "--kill", 9, "--veto", 4, "--yes", "--db", db))
    assert "4号 玩家4[/b] 被行使否决权" in post


def test_a_kill_of_a_killer_and_a_check_of_a_police_ask_for_confirmation(tmp_path):
    db = new_game(tmp_path, "v4", V4_ROLES)
    before = rows(db)
    for option, seat, words in (
        ("--kill", 9, "--kill 9：杀人的目标是行使它的玩家本人或同伴"),
        ("--check", 1, "--check 1：验人的目标是行使它的玩家本人"),
        ("--snipe", 2, "--snipe 2：狙杀的目标是行使它的玩家本人"),
    ):
        refused = console("night", "--round", 0, option, seat, "--db", db)
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr
    assert rows(db) == before
    # where the rule text forbids it, no confirmation helps: 【蝶衣】 “其他角色”
    forbidden = console("night", "--round", 0, "--butterfly", 10, "--yes", "--db", db)
    assert forbidden.returncode == 2 and "花蝴蝶不能对自己使用【蝶衣】" in forbidden.stderr
    assert rows(db) == before


# --- undo moves the void private files aside --------------------------------------------------


def test_after_undo_and_a_new_deal_the_valid_notices_keep_the_natural_names(tmp_path):
    roles = dict.fromkeys(ROLES)  # to be dealt
    db = game_12(tmp_path, roles)
    private = tmp_path / "game-private"
    done(console("deal", "--seed", 1, "--db", db))
    first = (private / "01-玩家1.txt").read_text(encoding="utf-8")
    undone = console("undo", "--db", db)
    assert undone.returncode == 0 and f"移到了 {private / 'void' / 'step2'}" in undone.stderr
    done(console("deal", "--seed", 2, "--db", db))
    assert sorted(p.name for p in private.glob("*.txt"))[:2] == ["01-玩家1.txt", "02-玩家2.txt"]
    assert not list(private.glob("*-2.txt"))
    assert (private / "void" / "step2" / "01-玩家1.txt").read_text(encoding="utf-8") == first
    status = done(console("notices", "--seat", 1, "--db", db))
    assert status == ""  # the notices written again go beside the valid ones
    assert (private / "01-玩家1-again.txt").read_text(encoding="utf-8") == (
        private / "01-玩家1.txt"
    ).read_text(encoding="utf-8")


# --- one numbering for V4.0 ---------------------------------------------------------------------


def test_v4_status_the_post_and_the_commands_name_each_night_alike(tmp_path):
    db = new_game(tmp_path, "v4", V4_ROLES)
    fresh = done(console("status", "--db", db))
    assert "还没有开始（V4.0 规则）：接下来是第 0 夜" in fresh
    assert "下一步：第 0 夜：killmod night --round 0 --kill 座位号" in fresh
    dawn = done(console("night", "--round", 0, "--kill", 5, "--db", db))
    assert "第 0 夜 尸体" in dawn
    after = done(console("status", "--db", db))
    assert "5号 玩家5（第 0 夜出局）" in after and "第 1 轮（V4.0 规则）：白天（投票）" in after
    refused = console("night", "--round", 1, "--kill", 6, "--db", db)
    assert refused.returncode == 2
    assert "第 1 轮白天的投票还没有记录，不能记录第 1 夜" in refused.stderr
    done(console("night", "--round", 1, "--kill", 6, "--skip-day", "--db", db))
    later = done(console("status", "--db", db))
    assert "6号 玩家6（第 1 夜出局）" in later and "轮夜晚" not in later and "轮的夜晚" not in later


# --- times as judges write them -----------------------------------------------------------------


def test_times_the_judge_reads_are_local_and_to_the_second(tmp_path):
    db = game_12(tmp_path)
    past = console("open", "--deadline", "2019-05-12 22:00", "--db", db)
    assert past.returncode == 2 and "截止时间 2019-05-12 22:00:00 已经过去（现在 " in past.stderr
    assert not ISO.search(past.stderr), past.stderr
    done(console("night", "--round", 1, "--kill", 9, "--db", db))
    opened = console("open", "--deadline", "2099-05-12 22:00", "--db", db)
    assert "已记录：第 1 轮投票截止 2099-05-12 22:00:00" in opened.stderr
    undone = done(console("undo", "--db", db))
    assert "第 1 轮开始投票（截止 2099-05-12 22:00:00）" in undone
    assert "第 1 轮投票的截止时间（2099-05-12 22:00:00）" in undone
    assert not ISO.search(undone + opened.stderr)
