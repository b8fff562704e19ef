"""Who wrote a post and which post a ruling means: uids over names, pids over floors.

A lookalike name (zero-width or bidi characters, full-width or case variants) is never taken
for a player, nor for a judge the roster gives a uid; a judge without one is (flagged).  A typed
edit notice changes nothing.  Rulings by floor are resolved to one post — against the round's
recorded snapshot when the thread renumbered since — or refused.  Format characters are folded
away in ballots; superscript digits are no seats.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from killmod.ballots.count import count_votes
from killmod.ballots.rulings import Ruling
from killmod.ballots.votes import BallotReader
from killmod.commands.cli import main
from killmod.core.errors import BadInput
from killmod.core.model import Player, Post, Roster, Source
from killmod.core.names import fold
from killmod.rules import r12
from tests.support.pagebuilder import DEMO_ROSTER_TOML, DEMO_TID, demo_thread, discuz_x_site

SHANGHAI = ZoneInfo("Asia/Shanghai")
DEADLINE = datetime(2019, 5, 12, 22, 0, tzinfo=SHANGHAI)
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
ROSTER = Roster(
    players=(Player(1, "meer", uid=2000), Player(2, "阿狸"), Player(5, "预言家", uid=2004)),
    judges=("法官大人", "副法官"),
    judge_uids={"法官大人": 100},
)
SOURCE = Source("http://bbs.example.com/t", "投票帖", 1, 1)


def post(pid: int, author: str, uid: int | None, body: str = "投5号", floor: int | None = None):
    return Post(
        pid=pid,
        floor=floor if floor is not None else pid,
        author=author,
        uid=uid,
        posted_at=datetime(2019, 5, 12, 20, 0, pid % 60, tzinfo=SHANGHAI),
        precision="second",
        body=body,
    )


def tally(*posts: Post, roster: Roster = ROSTER, rulings=()):
    from killmod.ballots.count import TallyOptions

    return count_votes(
        posts, roster, DEADLINE, rules=r12, source=SOURCE, options=TallyOptions(rulings=rulings)
    )


def verdicts(result) -> dict[int, tuple[str, tuple[str, ...]]]:
    return {v.pid: (v.verdict, v.notes) for v in result.verdicts}


# --- lookalike authors ------------------------------------------------------------------------

LOOKALIKES = [
    "meer\u200b",
    "\u200dmeer",
    "me\u2060er",
    "\u202emeer\u202c",
    "ｍｅｅｒ",
    "MEER",
    "Meer",
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_a_player_with_a_uid_is_never_that_player(name):
    result = tally(post(1, name, 9999))
    assert verdicts(result)[1] == ("not_player", ("lookalike",))
    assert [(f.reason, f.detail) for f in result.flags] == [("lookalike", "meer")]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_without_a_uid_in_a_view_without_uids_is_not_taken_either(name):
    """The printable view and the archiver show no uid: only the exact name is the player."""
    result = tally(post(1, name, None))
    assert verdicts(result)[1] == ("not_player", ("lookalike",))
    assert tally(post(1, "meer", None)).verdicts[0].verdict == "counted"


def test_the_player_is_their_uid_whatever_name_the_board_shows():
    assert verdicts(tally(post(1, "meer（改名了）", 2000)))[1] == ("counted", ())


def test_the_same_name_with_another_uid_is_another_account():
    result = tally(post(1, "meer", 3333))
    assert verdicts(result)[1] == ("not_player", ("lookalike",))


def test_without_a_uid_in_the_roster_a_folded_match_is_another_account_and_flagged():
    """Issue 25.4: ``阿狸`` + a zero-width space used to be counted as the player 阿狸."""
    result = tally(post(1, "阿狸\u200b", 4444, "投 5号"), post(2, "阿狸", 4445, "投 1号"))
    assert verdicts(result)[1] == ("not_player", ("lookalike",))
    assert verdicts(result)[2] == ("counted", ())
    assert [(f.floor, f.reason, f.detail) for f in result.flags] == [(1, "lookalike", "阿狸")]


def test_a_judge_with_a_uid_is_matched_by_it():
    result = tally(post(1, "法官大人", 100), post(2, "法官大人\u200b", 7777), post(3, "法官", 100))
    assert verdicts(result)[1] == ("judge", ())
    assert verdicts(result)[2] == ("not_player", ("lookalike",))
    assert verdicts(result)[3] == ("judge", ())  # the judge's account under another name


def test_a_judge_without_a_uid_is_matched_by_name_and_a_lookalike_flagged():
    result = tally(post(1, "副法官", 8888), post(2, "副法官\u200b", 8889))
    assert verdicts(result)[1] == ("judge", ())
    assert verdicts(result)[2] == ("judge", ("lookalike",))
    assert [(f.floor, f.reason, f.detail) for f in result.flags] == [(2, "lookalike", "副法官")]


def test_judges_uids_are_read_from_the_roster_and_kept_in_the_game_file(tmp_path):
    text = DEMO_ROSTER_TOML.replace(
        'judges = ["法官大人"]', 'judges = [{ name = "法官大人", uid = 100 }, "助理法官"]'
    )
    path = tmp_path / "roster.toml"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "game.db"
    assert CliRunner().invoke(main, ["init", "--roster", str(path), "--db", str(db)]).exit_code == 0
    from killmod.game.roster import load_roster
    from killmod.game.store import Game

    for roster in (load_roster(path), Game.open(db).roster()):
        assert roster.judges == ("法官大人", "助理法官")
        assert roster.judge_uids == {"法官大人": 100}


def test_a_judges_uid_taken_by_a_player_is_refused(tmp_path):
    from killmod.game.roster import parse_roster

    text = DEMO_ROSTER_TOML.replace(
        'judges = ["法官大人"]', 'judges = [{ name = "法官大人", uid = 2000 }]'
    )
    with pytest.raises(BadInput, match="uid"):
        parse_roster(text)


# --- ballots: format characters and superscripts ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "投\u200b5号",
        "投5\u2060号",
        "投\u00ad5号",
        "投\u20665\u2069号",
        "\u202a投 5 号\u202c",
        "投5\ufeff号",
    ],
)
def test_format_characters_are_folded_away_in_ballots(text):
    reading = BallotReader(ROSTER).read(text)
    assert (reading.kind, reading.target) == ("vote", 5)


@pytest.mark.parametrize("text", ["投⁵", "投₅号", "⁵号", "投²"])
def test_superscript_and_subscript_digits_are_not_seats(text):
    assert BallotReader(ROSTER).read(text).kind == "none"


def test_a_name_folds_the_same_in_ballots_and_authors():
    assert fold("ｍｅ\u200bＥＲ") == fold("meer") == "meer"
    assert fold("Tom²") != fold("Tom2")


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [
        ("歐逆醬", "欧逆酱"),
        ("棄權", "弃权"),
        ("投給十二號", "投给十二号"),
        ("紅葉晚瀟瀟", "红叶晚潇潇"),
    ],
)
def test_traditional_and_simplified_fold_to_one_text(traditional, simplified):
    assert fold(traditional) == fold(simplified) == simplified


def test_a_name_in_simplified_is_the_same_as_in_traditional_and_nothing_else_changes():
    assert fold("ＡＫＯ 後來") == "ako 后来"
    assert fold("ako") == "ako"


# --- edit notices -----------------------------------------------------------------------------


def board_with(body: str, **extra) -> tuple:
    thread = demo_thread()
    thread.posts[1] = replace(thread.posts[1], body=body, **extra)  # floor 2, meer
    return thread


@pytest.fixture
def roster_file(tmp_path: Path) -> Path:
    path = tmp_path / "roster.toml"
    path.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    return path


def tally_command(url: str, roster: Path, *extra: str):
    args = [url, "--roster", str(roster), "--deadline", "2019-05-12 22:00", "--delay", "0"]
    result = CliRunner().invoke(main, ["tally", *args, "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def floor_verdict(doc: dict, floor: int) -> dict:
    (found,) = [v for v in doc["verdicts"] if v["floor"] == floor]
    return found


@pytest.mark.parametrize(
    "body",
    [
        "投5号\n本帖最后由 meer 于 2019-5-12 21:00 编辑",  # typed below the ballot
        "本帖最后由 meer 于 2019-5-12 21:00 编辑\n投5号",  # typed as the first line
        '<i class="pstatus"> 本帖最后由 meer 于 2019-2-30 25:61 编辑 </i>投5号',  # impossible date
        '<i class="pstatus"> 本帖最后由 meer 于 2019-5-11 09:00 编辑 </i>投5号',  # before the post
        '投5号<i class="pstatus"> 本帖最后由 meer 于 2019-5-12 21:00 编辑 </i>',  # not at the head
    ],
)
def test_an_edit_notice_typed_by_a_player_changes_nothing(serve_site, roster_file, body):
    base = serve_site(discuz_x_site(board_with(body)))
    doc = tally_command(base + VIEWTHREAD, roster_file)
    assert floor_verdict(doc, 2)["verdict"] in ("counted", "superseded")
    assert (2, "edited") not in {(r["floor"], r["reason"]) for r in doc["rejected"]}


def test_the_boards_own_edit_notice_still_marks_the_edit(serve_site, roster_file):
    edited = datetime(2019, 5, 12, 10, 30, tzinfo=SHANGHAI)
    base = serve_site(discuz_x_site(board_with("投5号", edited_at=edited)))
    doc = tally_command(base + VIEWTHREAD, roster_file)
    assert floor_verdict(doc, 2)["verdict"] == "edited"


# --- rulings by pid -----------------------------------------------------------------------------


def test_a_ruling_by_pid_rules_on_that_post(serve_site, roster_file, tmp_path):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text(
        '[pid.90133]\ntarget = 5\nnote = "按 5 号计"\n', encoding="utf-8"
    )  # floor 19
    base = serve_site(discuz_x_site(demo_thread()))
    doc = tally_command(base + VIEWTHREAD, roster_file, "--rulings", str(rulings))
    ruled = floor_verdict(doc, 19)
    assert (ruled["pid"], ruled["verdict"], ruled["target"]) == (90133, "counted", 5)
    assert "按 5 号计" in ruled["ruling"]


def test_a_ruling_for_a_floor_two_posts_show_is_refused_exit_2():
    """Read around a deletion, two posts show floor 12: a ruling by floor could hit either."""
    posts = (post(1, "meer", 2000, "投5号", floor=12), post(2, "预言家", 2004, "投1号", floor=12))
    with pytest.raises(BadInput) as caught:
        tally(*posts, rulings=(Ruling(12, target=1),))
    assert caught.value.exit_code == 2
    assert "第 12 楼" in caught.value.message and "pid=1" in caught.value.message


def test_a_ruling_for_a_post_not_in_the_thread_is_refused():
    with pytest.raises(BadInput, match="pid=404"):
        tally(post(1, "meer", 2000), rulings=(Ruling(None, ignore=True, pid=404),))


def test_floor_rulings_follow_the_recorded_snapshot_after_floors_renumber(serve_site, tmp_path):
    """The judge records the day, reads its audit (floors as they were), rules on floor 20;
    meanwhile a moderator deletes floor 3 and X3.4 renumbers.  Recording the day again, the
    ruling hits the post that was floor 20 when the judge saw it (now floor 19)."""
    thread = replace(demo_thread(), keeps_positions=False)
    thread.posts[14] = replace(thread.posts[14], deleted=False)  # no deletion yet
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "game.db"
    run = CliRunner().invoke
    assert run(main, ["init", "--roster", str(roster), "--db", str(db)]).exit_code == 0
    base = serve_site(discuz_x_site(thread))
    day = [base + VIEWTHREAD, "--deadline", "2019-05-12 22:00", "--db", str(db), "--delay", "0"]
    first = run(main, ["tally", *day, "--record", "--round", "1", "--format", "json"])
    assert first.exit_code == 0, first.output
    seen = {v["floor"]: v["pid"] for v in json.loads(first.stdout)["verdicts"]}
    thread.posts[2].deleted = True  # floor 3, 阿狸's first ballot
    rulings = tmp_path / "rulings.toml"
    rulings.write_text('[20]\nignore = true\nnote = "代投，不计"\n', encoding="utf-8")
    again = [*day, "--record", "--replace", "--round", "1", "--format", "json"]
    second = run(main, ["tally", *again, "--rulings", str(rulings)])
    assert second.exit_code == 0, second.output
    doc = json.loads(second.stdout)
    (ruled,) = [v for v in doc["verdicts"] if v["verdict"] == "ignored"]
    assert ruled["pid"] == seen[20] and ruled["floor"] == 19


def test_a_lookalike_is_named_in_the_judges_notes_not_in_the_post(serve_site, roster_file):
    thread = demo_thread()
    thread.posts[5] = replace(thread.posts[5], author="meer\u200b", uid=3001)  # floor 6
    base = serve_site(discuz_x_site(thread))
    args = [base + VIEWTHREAD, "--roster", str(roster_file), "--deadline", "2019-05-12 22:00"]
    result = CliRunner().invoke(main, ["tally", *args, "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "6楼：作者名只在忽略大小写" in result.stderr and "名单上是「meer」" in result.stderr
    assert "名单上是" not in result.stdout
