"""Discuz! 7.2 boards read over HTTP from a local board: the normal view (SC UTF-8, SC GBK,
TC Big5, TC UTF-8), the printable view and the archiver — posts, times, pages, messages, and
the whole tally.

Discuz! 7.2 shows minutes only, so its tally of the demo thread is the Discuz! X board's
tally of the same thread shown to the minute (``time_style="minute"``): the demo's two
posts in the deadline's minute — 白开水 at 22:00:00 and 花生米 at 22:00:01, which Discuz! X
shows to the second as on time and late — both read "22:00" and are flagged
``time_ambiguous`` and counted, which makes 5 and 7 a tie where the second-precise board
eliminates 5.
"""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta

import pytest

import scrapers
from killmod.core.errors import TallyFailed
from killmod.core.model import PRECISION_SPAN
from killmod.core.times import BoardClock
from killmod.fetch.thread import read_thread
from killmod.game.roster import parse_roster
from killmod.usecases.tally import tally
from scrapers import discuz7, discuz7_archiver, discuz7_printable, discuz_x
from scrapers.base import tidy_text
from tests.support.forumserver import serve
from tests.support.pagebuilder import (
    DEMO_NOW,
    DEMO_ROSTER_TOML,
    DEMO_TID,
    NO_THREAD_MESSAGE,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    big_roster_toml,
    big_thread,
    demo_thread,
    discuz_x_site,
    render_discuz_x_page,
)
from tests.support.pagebuilder_dz72 import (
    ARCHIVER_NO_THREAD,
    LOGIN_MESSAGE,
    demo_thread_tc,
    dz72_login_page,
    dz72_site,
    render_dz72_archiver,
    render_dz72_page,
    render_dz72_printable,
    visible_posts,
)

VIEWTHREAD = f"/viewthread.php?tid={DEMO_TID}"
VIEWTHREAD_EXTRA = f"/viewthread.php?tid={DEMO_TID}&extra=page%3D1"
PRINTABLE = f"/viewthread.php?action=printable&tid={DEMO_TID}"
ARCHIVER = f"/archiver/?tid-{DEMO_TID}.html"
DEADLINE = "2019-05-12 22:00"
ROSTER = parse_roster(DEMO_ROSTER_TOML)
TC_EDITIONS = ("TC_BIG5", "TC_UTF8")
AD_BOT = 90084  # 广告机器人's banned post, floor 12 on both boards
FLOOR_14 = 90098  # 夜猫子 quotes meer
LAOWANG_EDITED = 90119  # 老王's edited ballot: floor 17 on Discuz! X, 16 here
DELETED_ACCOUNT = 90112  # 已注销: floor 16 on Discuz! X, 15 here
BARE_TIME = 90077  # 预言家本家's "9 小时前" without a title

# What the demo thread's tally is at minute precision (see the module docstring).
MINUTE_COUNTS = [
    (5, 4, (3, 8, 12, 13)),
    (7, 4, (1, 2, 5, 7)),
    (12, 2, (4, 15)),
    (9, 1, (9,)),
    (14, 1, (14,)),
    (16, 1, (16,)),
]
MINUTE_FLAGS = [(12, "time_ambiguous"), (7, "time_ambiguous")]


def demo_for(edition: str) -> FakeThread:
    return demo_thread_tc() if edition in TC_EDITIONS else demo_thread()


def plain(body: str) -> str:
    """A FakePost body as a reader sees it: inline tags gone, blank lines squeezed."""
    return tidy_text(re.sub(r"<[^<>]+>", "", body))


def shown_minute(post: FakePost, now: datetime = DEMO_NOW) -> datetime:
    """The time a 7.2 board lets a reader know: the minute, or the first second of the hour
    "N 小时前" counted from ``now`` names (``shown_precision``)."""
    if post.time_style == "relative_bare":
        hours = (now - post.posted_at) // timedelta(hours=1)
        return now - timedelta(hours=hours, seconds=3599)
    return post.posted_at.replace(second=0)


def shown_precision(post: FakePost) -> str:
    """ "N 小时前" without its exact time is known to the hour, any other 7.2 time to the minute."""
    return "hour" if post.time_style == "relative_bare" else "minute"


def summary(result) -> dict:
    """A tally's decisions, without floors (7.2 floors move up after a deleted post)."""
    return {
        "counts": [(c.seat, c.votes, c.voters) for c in result.counts],
        "outcome": result.outcome,
        "ballots": [(b.seat, b.kind, b.target) for b in result.ballots],
        "changes": [(c.seat, c.from_, c.to) for c in result.changes],
        "rejected": sorted((r.author, r.seat or 0, r.reason) for r in result.rejected),
        "flags": [(f.seat, f.reason) for f in result.flags],
        "warnings": [(w.seat, w.action) for w in result.warnings],
    }


@pytest.fixture(scope="module")
def discuz_x_at_minutes() -> dict:
    """The Discuz! X board's tally of the demo thread with every time shown to the minute."""
    thread = demo_thread()
    for post in thread.posts:
        post.time_style = "minute"
    with serve(discuz_x_site(thread)) as base:
        url = f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}"
        return summary(tally(url, deadline=DEADLINE, roster=ROSTER))


# --- the normal view --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["SC_UTF8", "SC_GBK", *TC_EDITIONS])
def test_viewthread_posts_are_read_with_pids_authors_uids_and_minute_times(serve_site, edition):
    fake = demo_for(edition)
    base = serve_site(dz72_site(fake, edition=edition))
    thread = read_thread(base + VIEWTHREAD_EXTRA, tz=SHANGHAI)
    visible = visible_posts(fake)
    assert (thread.scraper, thread.pages, thread.title) == ("discuz7", 3, fake.title)
    assert [post.pid for post in thread.posts] == [post.pid for post in visible]
    for got, want in zip(thread.posts, visible, strict=True):
        assert (got.author, got.uid, got.banned) == (want.author, want.uid, want.banned)
        assert (got.posted_at, got.precision) == (shown_minute(want), shown_precision(want))
        assert got.body == ("" if want.banned else plain(want.body))


def test_a_big5_page_sends_what_big5_lacks_as_entities(serve_site):
    fake = demo_thread_tc()
    page = render_dz72_page(fake, 1, edition="TC_BIG5")
    assert "&#39044;言家本家".encode("cp950") in page  # 预 is not in Big5
    assert "投5號".encode("cp950") in page
    base = serve_site(dz72_site(fake, edition="TC_BIG5"))
    authors = {post.author for post in read_thread(base + VIEWTHREAD, tz=SHANGHAI).posts}
    assert {"预言家本家", "闲云野鹤", "潜水员"} <= authors


@pytest.mark.parametrize("edition", ["SC_UTF8", "TC_BIG5"])
def test_quotes_signatures_and_edit_notices_are_kept_out_of_bodies(serve_site, edition):
    base = serve_site(dz72_site(demo_for(edition), edition=edition))
    posts = {post.pid: post for post in read_thread(base + VIEWTHREAD, tz=SHANGHAI).posts}
    quoting = posts[FLOOR_14]
    assert quoting.body in ("我不跟，投 5号", "我不跟，投 5號")
    assert len(quoting.quotes) == 1 and "改票：投 7" in quoting.quotes[0]
    assert "meer" in quoting.quotes[0]  # the quote's "meer 发表于 …" line stays with it
    edited = posts[LAOWANG_EDITED]
    assert edited.edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert edited.body in ("投 9号", "投 9號")
    assert all("我是 15" not in post.body and "法官" not in post.body for post in posts.values())
    # "9 小时前" at 22:10:00: written between 12:10:01 and 13:10:00.
    assert posts[BARE_TIME].posted_at == datetime(2019, 5, 12, 12, 10, 1, tzinfo=SHANGHAI)
    assert posts[BARE_TIME].precision == "hour"


def test_a_deleted_post_vanishes_and_later_floors_move_up(serve_site):
    base = serve_site(dz72_site(demo_thread()))
    posts = read_thread(base + VIEWTHREAD, tz=SHANGHAI).posts
    assert [post.floor for post in posts] == list(range(1, 31))
    assert 90105 not in {post.pid for post in posts}  # floor 15 of the thread, deleted
    deleted_account = next(post for post in posts if post.pid == DELETED_ACCOUNT)
    assert (deleted_account.floor, deleted_account.author, deleted_account.uid) == (
        15,
        "已注销",
        None,
    )
    assert deleted_account.banned


def test_a_post_deleted_while_pages_are_fetched_is_not_counted_twice(serve_site):
    """Page 3 is served first; then a moderator deletes a post of page 2, which is served
    after it: page 2 now ends with page 3's first post.  The pid keeps it one post."""
    fake = demo_thread()
    site = dz72_site(fake)
    first_of_page_three = visible_posts(fake)[20].pid
    page_three_served = threading.Event()
    served: dict[str, bytes] = {}

    def racing(path: str):
        if "page=2" in path:
            page_three_served.wait(timeout=5)
        response = site(path)
        served[path] = response.body
        if "page=3" in path:
            next(post for post in fake.posts if post.pid == AD_BOT).deleted = True
            page_three_served.set()
        return response

    base = serve_site(racing)
    posts = read_thread(base + VIEWTHREAD, tz=SHANGHAI, jobs=2).posts
    overlap = f'id="post_{first_of_page_three}"'.encode()
    assert [overlap in served[f"{VIEWTHREAD}&page={n}"] for n in (2, 3)] == [True, True]
    pids = [post.pid for post in posts]
    assert pids == [post.pid for post in visible_posts(fake)]  # without the deleted post
    assert pids.count(first_of_page_three) == 1 and AD_BOT not in pids


def test_a_page_number_past_the_end_is_the_last_page(serve_site):
    base = serve_site(dz72_site(demo_thread()))
    thread = read_thread(f"{base}{VIEWTHREAD}&page=9", tz=SHANGHAI)
    assert len(thread.posts) == 30 and thread.pages == 3
    assert base.server.requests[0] == f"{VIEWTHREAD}&page=9"


def test_a_one_page_thread_has_no_page_bar(serve_site):
    fake = FakeThread(DEMO_TID, "短帖", demo_thread().posts[:4], DEMO_NOW)
    assert b'class="pages"' not in render_dz72_page(fake, 1)
    thread = read_thread(serve_site(dz72_site(fake)) + VIEWTHREAD, tz=SHANGHAI)
    assert (thread.pages, len(thread.posts)) == (1, 4)


def test_a_long_thread_is_counted_from_the_last_page_link(serve_site):
    fake = big_thread(25)
    page = render_dz72_page(fake, 1).decode()
    last = (
        '<a href="viewthread.php?tid=8001&amp;extra=page%3D1&amp;page=25" class="last">... 25</a>'
    )
    assert last in page
    base = serve_site(dz72_site(fake))
    thread = read_thread(f"{base}/viewthread.php?tid=8001", tz=SHANGHAI)
    assert (thread.pages, len(thread.posts)) == (25, 250)
    roster = parse_roster(big_roster_toml())
    x_url = serve_site(discuz_x_site(fake)) + "/forum.php?mod=viewthread&tid=8001"
    expected = summary(tally(x_url, deadline=DEADLINE, roster=roster))
    got = summary(tally(f"{base}/viewthread.php?tid=8001", deadline=DEADLINE, roster=roster))
    assert got == expected


# --- relative times ---------------------------------------------------------------------------

# (posted at, on 2019-5-X; what dgmdate shows at 22:10:00 on the 12th, SC and TC; how far
# the text alone may place it after the post: 半小时前 and N 小时前 are coarse)
# (day, hour, minute, second), the text (SC, TC), the precision it is read with untitled.
RELATIVE_FORMS = [
    ((3, 18, 40, 0), ("2019-5-3 18:40", "2019-5-3 18:40"), "minute"),
    ((5, 19, 46, 0), ("7&nbsp;天前&nbsp;19:46", "7&nbsp;天前&nbsp;19:46"), "minute"),
    ((9, 21, 58, 0), ("3&nbsp;天前&nbsp;21:58", "3&nbsp;天前&nbsp;21:58"), "minute"),
    ((10, 20, 58, 0), ("前天&nbsp;20:58", "前天&nbsp;20:58"), "minute"),
    ((11, 21, 55, 0), ("昨天&nbsp;21:55", "昨天&nbsp;21:55"), "minute"),
    ((12, 16, 58, 0), ("5&nbsp;小时前", "5&nbsp;小時前"), "hour"),
    ((12, 21, 27, 0), ("半小时前", "半小時前"), "hour"),
    ((12, 21, 58, 0), ("12&nbsp;分钟前", "12&nbsp;分鐘前"), "minute"),
    ((12, 22, 9, 18), ("42&nbsp;秒前", "42&nbsp;秒前"), "minute"),
    ((12, 22, 10, 0), ("刚才", "剛才"), "minute"),
]


def relative_thread(style: str) -> FakeThread:
    posts = [
        FakePost(
            1000 + index,
            "meer",
            2000,
            datetime(2019, 5, day, hour, minute, second, tzinfo=SHANGHAI),
            "路过",
            time_style=style,
        )
        for index, ((day, hour, minute, second), _, _) in enumerate(RELATIVE_FORMS)
    ]
    return FakeThread(DEMO_TID, "时间", posts, DEMO_NOW)


@pytest.mark.parametrize("edition", ["SC_UTF8", "TC_BIG5"])
def test_every_dgmdate_form_is_shown_and_read_from_its_title(serve_site, edition):
    fake = relative_thread("auto")
    page = render_dz72_page(fake, 1, edition=edition).decode(
        "cp950" if edition == "TC_BIG5" else "utf-8"
    )
    language = 1 if edition == "TC_BIG5" else 0
    for _, shown, _ in RELATIVE_FORMS:
        assert f"{shown[language]}</" in page
    posts = read_thread(
        serve_site(dz72_site(fake, edition=edition)) + VIEWTHREAD, tz=SHANGHAI
    ).posts
    assert [post.posted_at for post in posts] == [shown_minute(post) for post in fake.posts]
    assert {post.precision for post in posts} == {"minute"}


@pytest.mark.parametrize("edition", ["SC_UTF8", "TC_BIG5"])
def test_relative_forms_without_a_title_count_back_from_the_boards_clock(serve_site, edition):
    fake = relative_thread("relative_bare")
    base = serve_site(dz72_site(fake, edition=edition))
    posts = read_thread(base + VIEWTHREAD, tz=SHANGHAI).posts
    for got, want, (_, _, precision) in zip(posts, fake.posts, RELATIVE_FORMS, strict=True):
        assert got.posted_at <= want.posted_at <= got.posted_at + PRECISION_SPAN[precision]
        assert got.precision == precision


# --- printable view and archiver --------------------------------------------------------------


@pytest.mark.parametrize("edition", ["SC_UTF8", "TC_BIG5"])
def test_printable_posts_are_numbered_by_position(serve_site, edition):
    fake = demo_for(edition)
    thread = read_thread(serve_site(dz72_site(fake, edition=edition)) + PRINTABLE, tz=SHANGHAI)
    visible = visible_posts(fake)
    assert (thread.scraper, thread.pages, thread.title) == ("discuz7_printable", 1, fake.title)
    assert [post.pid for post in thread.posts] == list(range(1, 31))
    assert [post.floor for post in thread.posts] == list(range(1, 31))
    for got, want in zip(thread.posts, visible, strict=True):
        assert (got.author, got.uid, got.banned) == (want.author, None, want.banned)
        assert (got.posted_at, got.precision) == (shown_minute(want), shown_precision(want))
        assert got.body == ("" if want.banned else plain(want.body))
    assert thread.posts[13].quotes and thread.posts[15].edited_at is not None


def test_a_printable_view_of_100_posts_may_be_cut_short_and_is_refused(serve_site):
    fake = big_thread(11)
    assert render_dz72_printable(fake).count(b"<hr noshade") == 101  # 100 posts and the footer
    with pytest.raises(TallyFailed, match="前 100 帖"):
        read_thread(
            serve_site(dz72_site(fake)) + "/viewthread.php?action=printable&tid=8001", tz=SHANGHAI
        )


@pytest.mark.parametrize("edition", ["SC_UTF8", "SC_GBK", "TC_BIG5"])
def test_archiver_posts_come_20_a_page_with_bbcode_stripped(serve_site, edition):
    fake = demo_for(edition)
    thread = read_thread(serve_site(dz72_site(fake, edition=edition)) + ARCHIVER, tz=SHANGHAI)
    visible = visible_posts(fake)
    assert (thread.scraper, thread.pages, thread.title) == ("discuz7_archiver", 2, fake.title)
    assert [post.pid for post in thread.posts] == [
        page * 10000 + position
        for page, count in ((1, 20), (2, 10))
        for position in range(1, count + 1)
    ]
    for got, want in zip(thread.posts, visible, strict=True):
        assert (got.author, got.uid, got.floor, got.banned) == (
            want.author,
            None,
            None,
            want.banned,
        )
        assert (got.posted_at, got.precision) == (want.posted_at.replace(second=0), "minute")
        assert got.body == ("" if want.banned else plain(want.body))
    assert "改票：投 7" in thread.posts[13].quotes[0]
    assert thread.posts[15].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)


def test_archiver_strips_nested_quotes_and_every_bbcode_tag(serve_site):
    bodies = [
        "[quote]阿狸：[quote]投 3号[/quote]\n跟上[/quote]\n我投 5号",
        "[b]投[/b] [color=red]6号[/color]",
        "[img]http://img.example.com/5.gif[/img]投 7号",
        "[url=http://bbs.example.com/]投 8号[/url]",
        "[quote]没有结束的引用 投 9号",
    ]
    posts = [
        FakePost(500 + n, "meer", 2000, datetime(2019, 5, 12, 12, n, tzinfo=SHANGHAI), body)
        for n, body in enumerate(bodies)
    ]
    fake = FakeThread(DEMO_TID, "BBCode", posts, DEMO_NOW)
    read = read_thread(serve_site(dz72_site(fake)) + ARCHIVER, tz=SHANGHAI).posts
    assert [post.body for post in read] == [
        "我投 5号",
        "投 6号",
        "投 7号",
        "投 8号",
        "没有结束的引用 投 9号",
    ]
    assert read[0].quotes == ("阿狸：投 3号\n跟上",)


def test_an_archiver_page_past_the_end_is_empty_and_counts_the_pages(serve_site):
    fake = demo_thread()
    past = discuz7_archiver.parse(
        render_dz72_archiver(fake, 5).decode(), tz=SHANGHAI, clock=BoardClock(DEMO_NOW)
    )
    assert (past.posts, past.page_no, past.page_count) == ((), 5, 2)
    base = serve_site(dz72_site(fake))
    thread = read_thread(f"{base}/archiver/?tid-{DEMO_TID}-page-5.html", tz=SHANGHAI)
    assert (thread.pages, len(thread.posts)) == (2, 30)


@pytest.mark.parametrize(
    ("path", "render", "jammer"),
    [
        (VIEWTHREAD, render_dz72_page, '<font style="font-size:0px;color:#FFFFFF">投 3 号</font>'),
        (PRINTABLE, None, '<font style="font-size:0px;color:#FFFFFF">投 3 号</font>'),
        (ARCHIVER, render_dz72_archiver, '<span style="display:none">投 3 号</span>'),
    ],
)
def test_anti_copy_noise_between_lines_is_not_read(serve_site, path, render, jammer):
    """7.2's jammer() hides random text at each line break of a thread that asks for it."""
    post = FakePost(
        600, "meer", 2000, datetime(2019, 5, 12, 12, 0, tzinfo=SHANGHAI), "想了想\n投 5号"
    )
    fake = FakeThread(DEMO_TID, "防复制", [post], DEMO_NOW)
    page = (render(fake, 1) if render else render_dz72_printable(fake)).decode()
    jammed = page.replace("想了想<br />", f"想了想{jammer}<br />").encode()
    assert jammed != page.encode()
    served = dz72_site(fake)(path)
    base = serve_site(lambda _: Response(200, served.headers, jammed))
    assert [p.body for p in read_thread(base + path, tz=SHANGHAI).posts] == ["想了想\n投 5号"]


# --- the whole tally --------------------------------------------------------------------------

FORMATS = [
    ("SC_UTF8", VIEWTHREAD),
    ("SC_GBK", VIEWTHREAD_EXTRA),
    ("TC_BIG5", VIEWTHREAD),
    ("TC_UTF8", VIEWTHREAD),
    ("SC_UTF8", PRINTABLE),
    ("TC_BIG5", PRINTABLE),
    ("SC_UTF8", ARCHIVER),
    ("SC_GBK", ARCHIVER),
    ("TC_BIG5", ARCHIVER),
]


@pytest.mark.parametrize(("edition", "path"), FORMATS)
def test_the_tally_is_discuz_xs_at_minute_precision(serve_site, discuz_x_at_minutes, edition, path):
    base = serve_site(dz72_site(demo_for(edition), edition=edition))
    result = summary(tally(base + path, deadline=DEADLINE, roster=ROSTER))
    assert result == discuz_x_at_minutes
    assert result["counts"] == MINUTE_COUNTS
    assert result["outcome"].kind == "tie" and result["outcome"].seats == (5, 7)
    assert result["flags"] == MINUTE_FLAGS


def test_traditional_ballots_are_read_like_simplified_ones(serve_site):
    base = serve_site(dz72_site(demo_thread_tc(), edition="TC_BIG5"))
    result = tally(base + VIEWTHREAD, deadline=DEADLINE, roster=ROSTER)
    ballots = {ballot.seat: (ballot.kind, ballot.target) for ballot in result.ballots}
    assert ballots[1] == ("vote", 7)  # 投5號, then 改票：投 7號
    assert ballots[8] == ("vote", 5)  # 投給 预言家本家, then 還是投 5
    assert ballots[10] == ("abstain", None)  # 棄權
    reasons = {(r.author, r.reason) for r in result.rejected}
    assert ("路人甲", "proxy") in reasons  # 替 9 號投 2 號
    assert ("小透明", "no_vote") in reasons


def test_the_judge_may_reject_the_posts_of_the_deadlines_minute(serve_site):
    base = serve_site(dz72_site(demo_thread()))
    result = tally(base + VIEWTHREAD, deadline=DEADLINE, roster=ROSTER, ambiguous_time="reject")
    rejected = {(r.author, r.reason) for r in result.rejected}
    assert {("白开水", "time_ambiguous"), ("花生米", "time_ambiguous")} <= rejected
    assert (result.outcome.kind, result.outcome.seat) == ("eliminated", 7)


# --- message pages ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "message"), [("SC_UTF8", LOGIN_MESSAGE), ("TC_BIG5", "您還未登錄")]
)
def test_a_login_page_fails_the_tally_with_the_boards_message(serve_site, edition, message):
    base = serve_site(lambda path: dz72_login_page(edition=edition, now=DEMO_NOW))
    with pytest.raises(TallyFailed, match=message):
        tally(base + VIEWTHREAD, deadline=DEADLINE, roster=ROSTER)


def test_a_missing_thread_is_a_404_and_a_saved_copy_says_why(serve_site, tmp_path):
    site = dz72_site(demo_thread())
    base = serve_site(site)
    for path in ("/viewthread.php?tid=1", "/viewthread.php?action=printable&tid=1"):
        with pytest.raises(TallyFailed, match="HTTP 404"):
            tally(base + path, deadline=DEADLINE, roster=ROSTER)
    saved = tmp_path / "viewthread.html"
    saved.write_bytes(site("/viewthread.php?tid=1").body)
    with pytest.raises(TallyFailed, match=NO_THREAD_MESSAGE):
        tally(str(saved), deadline=DEADLINE, roster=ROSTER)


def test_a_missing_thread_in_the_archiver_fails_with_its_message(serve_site):
    base = serve_site(dz72_site(demo_thread()))
    with pytest.raises(TallyFailed, match=ARCHIVER_NO_THREAD):
        tally(f"{base}/archiver/?tid-1.html", deadline=DEADLINE, roster=ROSTER)


# --- which scraper reads which page -----------------------------------------------------------


def test_each_page_is_picked_by_its_own_scraper_by_url_or_by_html_alone():
    fake = demo_thread()
    pages = {
        discuz7: ("http://bbs.example.com/viewthread.php?tid=7001", render_dz72_page(fake, 1)),
        discuz7_printable: ("http://bbs.example.com" + PRINTABLE, render_dz72_printable(fake)),
        discuz7_archiver: ("http://bbs.example.com" + ARCHIVER, render_dz72_archiver(fake, 1)),
        discuz_x: (
            f"http://bbs.example.com/forum.php?mod=viewthread&tid={DEMO_TID}",
            render_discuz_x_page(fake, 1),
        ),
    }
    for scraper, (url, body) in pages.items():
        html = body.decode()
        assert scrapers.pick(url, html) is scraper
        assert scrapers.pick("saved/page.html", html) is scraper
