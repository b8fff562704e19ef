"""Substitutes complete (issue 25.6): their uids in the roster and ``sub``, the notice of one
who takes a seat by a second warning (written with the step, sent by ``notices --send``,
the judge told), and the lurkers' counts split by who held the seat.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from killmod.core.errors import BadInput
from killmod.game.roster import parse_roster
from killmod.game.store import Game
from tests.support.boardgames import GAME_TID, board_game, uid
from tests.support.gamefiles import deadline, roster_toml, serve, votes
from tests.support.gamesteps import ROLES, console
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, discuz_x_site

SUBSTITUTE_UID = 7000


def test_the_roster_gives_substitutes_uids_by_name():
    text = roster_toml(
        "1.2", ROLES, extra='substitutes = ["替补甲", { name = "替补乙", uid = 7001 }]'
    )
    roster = parse_roster(text)
    assert roster.substitutes == ("替补甲", "替补乙")
    assert roster.substitute_uids == {"替补乙": 7001}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            'substitutes = [{ name = "替补甲", uid = 5003 }]',
            "uid 重复：「5003」已被替补第 1 位使用",
        ),
        (
            'substitutes = [{ name = "甲", uid = 7 }, { name = "乙", uid = 7 }]',
            "「7」已被替补第 1 位",
        ),
        ('substitutes = [{ name = "替补甲", id = 7 }]', "substitutes 第 1 项"),
        ("substitutes = [{ uid = 7 }]", "substitutes 第 1 项"),
    ],
)
def test_a_substitutes_uid_must_be_his_own(extra: str, message: str):
    with pytest.raises(BadInput) as refused:
        parse_roster(roster_toml("1.2", ROLES, extra=extra))
    assert message in refused.value.message


def _no_vote_from(*seats: int, target: int = 16, living=range(1, 17)) -> list:
    """Every living seat but ``seats`` votes for ``target`` (the target for 15)."""
    ballots = {s: f"投{target if s != target else 15}号" for s in living if s not in seats}
    return votes("20:00:00", ballots)


@pytest.fixture
def substituted(tmp_path, serve_site):
    """A 1.2 game on the local board in which 玩家9 votes on neither day: at day 2's
    deadline (2024-03-02 22:00) his second warning brings 替补甲 (uid 7000) into seat 9.
    Returns the game and the second tally's process."""
    extra = f'substitutes = [{{ name = "替补甲", uid = {SUBSTITUTE_UID} }}]'
    game = board_game(tmp_path, serve_site, "1.2", ROLES, extra=extra)
    game.board.member("替补甲", SUBSTITUTE_UID)
    db = game.db
    day1 = serve(serve_site, _no_vote_from(9), 1)
    first = console("tally", day1, "--db", db, "--deadline", deadline(1), "--record")
    assert first.returncode == 0 and "替补" not in first.stderr, first.stderr
    assert console("night", "--round", 2, "--kill", 5, "--db", db).returncode == 0
    living = [s for s in range(1, 16) if s != 5]
    day2 = serve(serve_site, _no_vote_from(9, target=15, living=living), 2)
    second = console("tally", day2, "--db", db, "--deadline", deadline(2), "--record")
    assert second.returncode == 0, second.stderr
    return game, second, day2


@pytest.mark.slow
def test_a_substitute_by_a_second_warning_gets_his_notice_and_the_judge_is_told(substituted):
    game, second, day2 = substituted
    db = game.db
    notice = game.tmp / "game-private" / "09-替补甲.txt"
    told = "9号：替补 替补甲 接替 玩家9（第 2 次警告），身份不变。"
    told += f"他的站内短信（9号的身份）写在 {notice}"
    assert told in second.stderr and "killmod notices --seat 9 --send" in second.stderr
    text = notice.read_text(encoding="utf-8")
    assert "替补甲" in text and "水民" in text  # the seat's role, in his own name
    assert "替补甲" in second.stdout and "水民" not in second.stdout  # the post: no role
    # sent to his own uid, by the command the judge was told
    sent = console(
        "notices", "--seat", 9, "--send", "--board", game.game_url, "--cookies", game.cookies,
        "--interval", 0, "--yes", "--db", db,
    )  # fmt: skip
    assert sent.returncode == 0, sent.stderr
    (letter,) = game.board.pms_to(SUBSTITUTE_UID)
    assert letter.text.strip() == text.strip()
    # undone, the step's notice goes with it; recorded again, it has its natural name
    assert console("undo", "--db", db).returncode == 0
    assert not notice.exists()
    again = console("tally", day2, "--db", db, "--deadline", deadline(2), "--record")
    assert again.returncode == 0 and notice.exists(), again.stderr


@pytest.mark.slow
def test_the_whole_tables_notices_go_out_after_a_second_warning_substitute(substituted):
    """``notices --send`` for the whole table after 替补甲 took seat 9: each living seat's
    notice goes to whoever holds it now — seat 9's to the substitute's own uid, none to the
    player he replaced, none to the dead (16 and 15 voted out, 5 killed) — where before,
    a substitute without a uid made the command refuse everyone."""
    game, _, _ = substituted
    sent = console(
        "notices", "--send", "--board", game.game_url, "--cookies", game.cookies,
        "--interval", 0, "--yes", "--db", game.db,
    )  # fmt: skip
    assert sent.returncode == 0, sent.stderr
    (letter,) = game.board.pms_to(SUBSTITUTE_UID)
    assert "替补甲" in letter.text and "水民" in letter.text
    assert game.board.pms_to(uid(9)) == []
    receivers = {seat for seat in range(1, 17) if game.board.pms_to(uid(seat))}
    assert receivers == set(range(1, 17)) - {9, 5, 15, 16}


@pytest.mark.slow
def test_the_lurkers_count_each_post_for_whoever_held_the_seat_when_it_was_made(
    substituted, serve_site
):
    game, _, _ = substituted
    posts = [
        ("玩家9", 5009, "2024-03-02 10:00:00"),
        ("玩家9", 5009, "2024-03-02 11:00:00"),
        ("替补甲", SUBSTITUTE_UID, "2024-03-02 12:00:00"),  # before he holds the seat
        ("玩家9", 5009, "2024-03-03 09:00:00"),  # replaced: no longer seat 9's
        ("替补甲", SUBSTITUTE_UID, "2024-03-03 10:00:00"),
    ]
    thread = FakeThread(
        GAME_TID,
        "【1.2 游戏帖】",
        [
            FakePost(60001 + n, name, uid, _shanghai(when), f"第 {n + 1} 帖", time_style="absolute")
            for n, (name, uid, when) in enumerate(posts)
        ],
        now=_shanghai("2024-03-04 12:00:00"),
    )
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={GAME_TID}"
    round2 = console("lurkers", url, "--round", 2, "--format", "text", "--db", game.db)
    assert round2.returncode == 0, round2.stderr
    assert "9号 玩家9（至 03-02 22:00:00 被替换）：2 次" in round2.stdout
    assert "替补甲" not in round2.stdout  # he held no part of round 2
    round3 = console(
        "lurkers", url, "--round", 3, "--to", "2024-03-03 22:00", "--format", "text",
        "--db", game.db,
    )  # fmt: skip
    assert round3.returncode == 0, round3.stderr
    assert "9号 替补甲：1 次" in round3.stdout and "玩家9" not in round3.stdout


def _shanghai(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=SHANGHAI)


def test_a_replaced_player_cannot_come_back_as_a_substitute(tmp_path):
    """玩家1 replaced by 替补甲, then given back seat 1 (or another) by ``sub``: his later
    posts were read as seat 1's former holder's (replaced), and the seat a non-voter."""
    from tests.support.gamefiles import new_game, ok, refused, run

    db = new_game(tmp_path, "1.2", ROLES, extra='substitutes = ["替补甲"]')
    ok(run("sub", 1, "替补甲", "--db", db, "--at", "2024-03-01 19:30"))
    for seat in (1, 2):
        refused(run("sub", seat, "玩家1", "--db", db), "玩家1 是 1号以前的玩家")
    refused(run("sub", 1, "玩家1", "--uid", 5001, "--db", db), "玩家1 是 1号以前的玩家")
    assert [e.data["new"] for e in Game.open(db).events("substitution")] == ["替补甲"]
