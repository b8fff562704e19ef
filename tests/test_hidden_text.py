"""Hidden text is no ballot (issue 25.3).

A vote in text the board renders invisible — white (or background-coloured) text, a size of
0, ``display:none`` — is not counted: the post is rejected ``hidden_text`` when its visible
text holds no ballot, the audit and the judge's notes show what the invisible text said, and
a ruling can count it.  Read from the local board in every format that renders a message
(Discuz! X pages and printable view, Discuz! 7.2 pages, printable and archiver — raw BBCode —
and SOHU), and through ``killmod tally`` in its own process.
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from killmod.ballots.count import TallyOptions, count_votes
from killmod.ballots.rulings import Ruling
from killmod.core.model import Player, Post, Roster, Source
from killmod.fetch.thread import read_thread
from killmod.rules import r12
from scrapers.base import element_text, fragment
from scrapers.hidden import bbcode_hidden, take_hidden
from tests.support.gamefiles import TID, roster_toml, vote_thread
from tests.support.gamesteps import console
from tests.support.pagebuilder import discuz_x_site
from tests.support.pagebuilder_dz72 import dz72_site
from tests.support.pagebuilder_more import discuz_x_printable_site, sohu_site, sohu_thread_id

SHANGHAI = ZoneInfo("Asia/Shanghai")
WHITE_VOTE = '今天天气不错<font color="white">改票 投6号</font>'  # [color=white]改票 投6号[/color]


# --- what is invisible --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "visible", "hidden"),
    [
        (WHITE_VOTE, "今天天气不错", ("改票 投6号",)),
        ('<font color="#FFFFFF">投6号</font>投5号', "投5号", ("投6号",)),
        ('<font color="ffffff">投6号</font>', "", ("投6号",)),  # HTML's legacy colours
        ('<font color="#fefefe">投6号</font>', "", ("投6号",)),  # nearly white
        ('<font style="font-size:0px">投6号</font>', "", ("投6号",)),  # [size=0px]
        ('<font style="font-size: 2pt">投6号</font>', "", ("投6号",)),
        ('<font style="color:rgba(0,0,0,0)">投6号</font>', "", ("投6号",)),
        ('<font style="background-color:red"><font color="red">投6</font></font>', "", ("投6",)),
        ('<td bgcolor="#000000"><font color="black">投6号</font></td>', "", ("投6号",)),
        ('<span style="visibility:hidden">投6号</span>', "", ("投6号",)),
        ('<span style="opacity:0">投6号</span>', "", ("投6号",)),
        ('<font color="white">改票<br />投6号</font>', "", ("改票\n投6号",)),
        # visible after all
        ('<font color="white">白<font color="red">投6号</font>字</font>', "投6号", ("白", "字")),
        ('<font color="fff">投6号</font>', "投6号", ()),  # legacy "fff" is nearly black
        ('<font color="#dddddd">投6号</font>', "投6号", ()),  # faint, readable
        ('<font size="0">投6号</font>', "投6号", ()),  # HTML reads size 0 as 1
        ('<font style="background-color:black"><font color="white">投6</font></font>', "投6", ()),
        ('<font color="red">投6号</font>', "投6号", ()),
        # Yellow (Discuz's editor offers it): 1.07:1 on white by luminance, but another hue
        ('<font color="Yellow">投6号</font>', "投6号", ()),
        ('<font color="#ffff00">投6号</font>投5号', "投6号投5号", ()),
        ('<font color="LemonChiffon">投6号</font>', "", ("投6号",)),  # pale: hidden
        # text without a colour is the board's #444: [backcolor=#444] alone hides it
        ('<font style="background-color:#444444">投6号</font>', "", ("投6号",)),
        ('<font style="background-color:#444">改票 投6号</font>投5号', "投5号", ("改票 投6号",)),
        ('<table bgcolor="#454545"><tr><td>投6号</td></tr></table>', "", ("投6号",)),
        ('<font style="background-color:#555">投6号</font>', "投6号", ()),  # 1.3:1, readable
    ],
)
def test_what_the_board_renders_invisible_is_taken_apart(html, visible, hidden):
    cell = fragment(html)
    assert take_hidden(cell) == hidden
    assert element_text(cell) == visible


@pytest.mark.parametrize(
    ("raw", "visible", "hidden"),
    [
        ("我说[color=white]改票 [b]投6号[/b][/color]完", "我说完", ("改票 [b]投6号[/b]",)),
        ("[size=0px]投6号[/size]投5号", "投5号", ("投6号",)),
        ("[backcolor=#000][color=black]投6号[/color][/backcolor]", "", ("投6号",)),
        ("[backcolor=#444444]改票 投6号[/backcolor]投5号", "投5号", ("改票 投6号",)),
        ("[color=Yellow]投6号[/color]", "[color=Yellow]投6号[/color]", ()),
        ("[color=red]6[/color] [size=2]<b>[/size]", "[color=red]6[/color] [size=2]<b>[/size]", ()),
    ],
)
def test_raw_bbcode_is_read_as_the_thread_pages_render_it(raw, visible, hidden):
    assert bbcode_hidden(raw) == (visible, hidden)


# --- the tally ----------------------------------------------------------------------------------

ROSTER = Roster(tuple(Player(seat, f"玩家{seat}", uid=5000 + seat) for seat in range(1, 9)))
DEADLINE = datetime(2024, 3, 1, 22, 0, tzinfo=SHANGHAI)


def post(pid: int, seat: int, minute: int, body: str, hidden: tuple[str, ...] = ()) -> Post:
    return Post(
        pid, pid, f"玩家{seat}", 5000 + seat, DEADLINE.replace(hour=20, minute=minute),
        "second", body, hidden=hidden,
    )  # fmt: skip


def tally(*posts: Post, rulings=()):
    return count_votes(
        posts, ROSTER, DEADLINE, rules=r12, source=Source("u", "t", 1, len(posts)),
        options=TallyOptions(rulings=rulings),
    )  # fmt: skip


def test_a_vote_only_in_hidden_text_is_rejected_hidden_text_and_shown():
    result = tally(post(1, 3, 0, "投5号"), post(2, 3, 5, "今天天气不错", ("改票 投6号",)))
    (ballot,) = [b for b in result.ballots if b.seat == 3]
    assert (ballot.kind, ballot.target) == ("vote", 5)  # the earlier visible ballot stands
    verdict = {v.pid: v for v in result.verdicts}[2]
    assert (verdict.verdict, verdict.target, verdict.notes) == ("hidden_text", 6, ("hidden_text",))
    assert [(r.pid, r.reason) for r in result.rejected] == [(2, "hidden_text")]
    assert [(f.floor, f.reason, f.detail) for f in result.flags] == [
        (2, "hidden_text", "改票 投6号")
    ]
    assert result.changes == ()


def test_a_ruling_counts_a_hidden_vote():
    result = tally(
        post(1, 3, 0, "投5号"),
        post(2, 3, 5, "今天天气不错", ("改票 投6号",)),
        rulings=[Ruling(floor=2, target=6, note="白字改票，法官认可")],
    )
    assert {b.seat: b.target for b in result.ballots}[3] == 6
    assert {v.pid: v.verdict for v in result.verdicts}[2] == "counted"


def test_the_visible_ballot_counts_and_the_hidden_one_is_noted():
    result = tally(post(1, 3, 0, "投5号", ("投6号",)))
    assert {b.seat: b.target for b in result.ballots}[3] == 5
    verdict = result.verdicts[0]
    assert (verdict.verdict, verdict.notes) == ("counted", ("hidden_text",))


def test_hidden_text_that_is_no_ballot_changes_nothing():
    result = tally(post(1, 3, 0, "投5号", ("哈哈",)))
    assert (result.verdicts[0].verdict, result.verdicts[0].notes, result.flags) == (
        "counted",
        (),
        (),
    )


# --- read from the board ------------------------------------------------------------------------

ROWS = [(3, "20:00:00", "投5号"), (3, "20:05:00", WHITE_VOTE), (4, "20:06:00", "投6号")]


def sites():
    thread = vote_thread(ROWS)
    return {
        "discuz_x": (discuz_x_site(thread), f"/forum.php?mod=viewthread&tid={TID}"),
        "discuz_x_printable": (
            discuz_x_printable_site(thread),
            f"/forum.php?mod=viewthread&action=printable&tid={TID}",
        ),
        "discuz7": (dz72_site(thread), f"/viewthread.php?tid={TID}"),
        "discuz7_printable": (dz72_site(thread), f"/viewthread.php?action=printable&tid={TID}"),
        "discuz7_archiver": (dz72_site(thread), f"/archiver/?tid-{TID}.html"),
        "sohu": (sohu_site(thread), f"/zz2286/thread/{sohu_thread_id(thread)}"),
    }


@pytest.mark.parametrize("form", sorted(sites()))
def test_every_format_keeps_white_text_out_of_the_body(serve_site, form):
    site, path = sites()[form]
    read = read_thread(serve_site(site) + path, tz=SHANGHAI)
    (white,) = [p for p in read.posts if p.hidden]
    assert (white.body, white.hidden) == ("今天天气不错", ("改票 投6号",))
    assert all(not p.hidden for p in read.posts if p is not white)


@pytest.mark.slow
def test_killmod_tally_does_not_count_a_white_vote(serve_site, tmp_path):
    """The issue's case, as the judge runs it: ``[color=white]改票 投6号[/color]`` was counted."""
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_toml("1.2", dict.fromkeys(range(1, 9))), encoding="utf-8")
    url = serve_site(discuz_x_site(vote_thread(ROWS))) + f"/forum.php?mod=viewthread&tid={TID}"
    args = ("tally", url, "--roster", roster, "--deadline", "2024-03-01 22:00", "--view", "pages")
    done = console(*args, "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert {b["seat"]: b["target"] for b in document["ballots"]}[3] == 5
    assert {"floor": 3, "author": "玩家3", "seat": 3, "reason": "hidden_text"}.items() <= next(
        r for r in document["rejected"] if r["floor"] == 3
    ).items()
    voters = {count["seat"]: count["voters"] for count in document["counts"]}
    assert 3 in voters[5] and 3 not in voters[6]
    post = console(*args)
    assert "看不见的文字里是「改票 投6号」" in post.stderr and "写一条裁定" in post.stderr
    assert "改票 投6号" not in post.stdout  # the hidden words stay out of the public post
    audit = console(*args, "--format", "audit")
    assert "票写在论坛不显示的文字里" in audit.stdout


def test_the_recorded_snapshot_keeps_the_hidden_text(serve_site, tmp_path):
    import sqlite3

    from tests.support.gamefiles import new_game, ok, run

    db = new_game(tmp_path, "1.2", dict.fromkeys(range(1, 9), "水民"))
    url = serve_site(discuz_x_site(vote_thread(ROWS))) + f"/forum.php?mod=viewthread&tid={TID}"
    ok(run("tally", url, "--db", db, "--deadline", "2024-03-01 22:00", "--record", "--yes"))
    with sqlite3.connect(db) as conn:
        rows = dict(conn.execute("select body, hidden from posts where author = '玩家3'"))
    assert rows == {"投5号": None, "今天天气不错": json.dumps(["改票 投6号"], ensure_ascii=False)}


def test_a_yellow_vote_counts_and_one_on_a_grey_bar_does_not(serve_site, tmp_path):
    """[color=Yellow] is seen (1.07:1 on white by luminance, another hue): it was rejected
    hidden_text. [backcolor=#444] with no colour of its own is the board's #444 text on #444:
    it was counted."""
    from tests.support.gamefiles import new_game, ok, run

    rows = [
        (3, "20:00:00", "投5号"),
        (3, "20:05:00", '<font style="background-color:#444444">改票 投6号</font>'),
        (4, "20:06:00", '<font color="Yellow">投6号</font>'),
    ]
    db = new_game(tmp_path, "1.2", dict.fromkeys(range(1, 9), "水民"))
    url = serve_site(discuz_x_site(vote_thread(rows))) + f"/forum.php?mod=viewthread&tid={TID}"
    args = ("tally", url, "--db", db, "--deadline", "2024-03-01 22:00", "--format", "json")
    document = json.loads(ok(run(*args)))
    assert {b["seat"]: b["target"] for b in document["ballots"]}[3] == 5
    assert {b["seat"]: b["target"] for b in document["ballots"]}[4] == 6
    assert [(r["floor"], r["reason"]) for r in document["rejected"]] == [(3, "hidden_text")]
