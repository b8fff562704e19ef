"""Substitutes complete (issue 25.6): their uids in the roster and ``sub``, the notice of one
who takes a seat by a second warning (written with the step, sent by ``notices --send``,
the judge told), and the lurkers' counts split by who held the seat.
"""

from __future__ import annotations

import pytest

from killmod.core.errors import BadInput
from killmod.game.roster import parse_roster
from tests.support.boardgames import board_game
from tests.support.gamefiles import deadline, roster_toml, serve, votes
from tests.support.gamesteps import ROLES, console

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


@pytest.mark.slow
def test_a_substitute_by_a_second_warning_gets_his_notice_and_the_judge_is_told(
    tmp_path, serve_site
):
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
    notice = tmp_path / "game-private" / "09-替补甲.txt"
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
