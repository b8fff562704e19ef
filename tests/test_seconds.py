"""Confirming minute-precision ballots in the deadline's minute from the Discuz! X archiver."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from scrapers.discuz_x import archiver_url
from tests.support.pagebuilder import (
    DEMO_TID,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
    discuz_x_site,
)
from tests.support.pagebuilder_more import (
    discuz_x_archiver_site,
    discuz_x_printable_site,
    with_time_style,
)

VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
PRINTABLE = f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}"
ARCHIVER = f"/archiver/?tid-{DEMO_TID}.html"


def board(shown: FakeThread, archived: FakeThread | None = None):
    """A board showing ``shown`` in viewthread and printable, ``archived`` in its archiver."""
    views = (discuz_x_site(shown), discuz_x_printable_site(shown))
    archiver = discuz_x_archiver_site(archived or shown)

    def site(path: str) -> Response:
        if path.startswith("/archiver/"):
            return archiver(path)
        return views[1](path) if "action=printable" in path else views[0](path)

    return site


def tally(url: str, roster: Path, fmt: str = "json"):
    args = [url, "--roster", str(roster), "--deadline", "22:00", "--delay", "0"]
    args += ["--cache", str(roster.parent / "cache"), "--format", fmt]
    return CliRunner().invoke(main, ["tally", *args])


def verdicts(doc: dict) -> dict[int, dict]:
    return {v["floor"]: v for v in doc["verdicts"]}


def test_minute_times_in_the_deadlines_minute_are_confirmed_from_the_archiver(serve_site, roster):
    demo = demo_thread()
    base = serve_site(board(with_time_style(demo, "minute"), demo))
    result = tally(base + VIEWTHREAD, roster)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    by_floor = verdicts(doc)
    # floor 26 at 22:00:00 counts; floor 27 at 22:00:01 is late
    assert by_floor[26]["posted_at"] == "2019-05-12T22:00:00+08:00"
    assert (by_floor[26]["verdict"], by_floor[26]["notes"]) == ("counted", ["settled_by_archiver"])
    assert by_floor[27]["posted_at"] == "2019-05-12T22:00:01+08:00"
    assert (by_floor[27]["verdict"], by_floor[27]["notes"]) == ("late", ["settled_by_archiver"])
    assert doc["flags"] == []
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}
    # only the archiver's last pages are read, from the one the thread's page count names:
    # the minute's posts are on its last page
    archived = [path for path in base.server.requests if path.startswith("/archiver/")]
    assert archived == [f"{ARCHIVER}&page=4", f"{ARCHIVER}&page=3"]


def test_the_audit_says_which_posts_were_confirmed(serve_site, roster):
    demo = demo_thread()
    base = serve_site(board(with_time_style(demo, "minute"), demo))
    audit = tally(base + VIEWTHREAD, roster, "audit")
    assert audit.exit_code == 0, audit.output
    lines = {line.split()[0]: line for line in audit.stdout.splitlines() if line[:1].isdigit()}
    assert "05-12 22:00:00" in lines["26楼"] and "（已用归档页确认秒数）" in lines["26楼"]
    assert "超过截止时间" in lines["27楼"] and "（已用归档页确认秒数）" in lines["27楼"]
    assert "已用归档页确认秒数" not in lines["25楼"]


def test_a_thread_read_from_the_printable_view_is_confirmed_too(serve_site, roster):
    demo = demo_thread()
    base = serve_site(board(demo))  # the printable view shows minutes only
    doc = json.loads(tally(base + PRINTABLE, roster).stdout)
    confirmed = {v["author"]: v["verdict"] for v in doc["verdicts"] if v["notes"]}
    assert confirmed == {"白开水": "counted", "花生米": "late"}


def test_without_an_archiver_the_post_stays_flagged_with_a_warning(serve_site, roster):
    views = discuz_x_site(with_time_style(demo_thread(), "minute"))
    base = serve_site(lambda path: Response(404, {}, b"") if "archiver" in path else views(path))
    result = tally(base + VIEWTHREAD, roster)
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert {(f["floor"], f["reason"]) for f in doc["flags"]} == {
        (26, "time_ambiguous"),
        (27, "time_ambiguous"),
    }
    assert "无法用归档页确认秒数" in result.stderr and "HTTP 404" in result.stderr


def test_a_post_whose_text_differs_in_the_archiver_is_not_confirmed(serve_site, roster):
    demo = demo_thread()
    archived = demo_thread()
    archived.posts[26].body = "改票：投 7号（已编辑）"  # floor 27
    base = serve_site(board(with_time_style(demo, "minute"), archived))
    by_floor = verdicts(json.loads(tally(base + VIEWTHREAD, roster).stdout))
    assert by_floor[26]["notes"] == ["settled_by_archiver"]
    assert by_floor[27]["notes"] == [] and by_floor[27]["verdict"] == "counted"


def test_identical_posts_in_the_same_minute_pair_up_in_posting_order(serve_site, roster):
    demo = demo_thread()
    at_half_past = datetime(2019, 5, 12, 22, 0, 30, tzinfo=SHANGHAI)
    late = FakePost(99999, "白开水", 2011, at_half_past, "改票：投 5号")
    demo.posts.insert(26, late)
    base = serve_site(board(with_time_style(demo, "minute"), demo))
    doc = json.loads(tally(base + VIEWTHREAD, roster).stdout)
    times = sorted(
        v["posted_at"] for v in doc["verdicts"] if v["author"] == "白开水" and v["notes"]
    )
    assert times == ["2019-05-12T22:00:00+08:00", "2019-05-12T22:00:30+08:00"]


def test_no_archiver_page_is_read_when_no_ballot_needs_it(serve_site, roster):
    base = serve_site(board(demo_thread()))  # times to the second
    assert tally(base + VIEWTHREAD, roster).exit_code == 0
    assert not [path for path in base.server.requests if "archiver" in path]


@pytest.mark.parametrize(
    ("url", "archiver"),
    [
        ("http://b.example/bbs/forum.php?mod=viewthread&tid=12&page=3", "http://b.example/bbs/"),
        ("https://b.example/thread-12-3-1.html", "https://b.example/"),
        ("http://b.example/forum.php?mod=viewthread&action=printable&tid=12", "http://b.example/"),
        ("http://b.example/forum.php?mod=viewthread", None),
        ("examples/day1", None),
    ],
)
def test_the_archiver_url_follows_from_the_thread_url(url, archiver):
    expected = archiver and f"{archiver}archiver/?tid-12.html"
    assert archiver_url(url) == expected
