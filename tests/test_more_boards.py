"""Every board beyond Discuz! X viewthread, read over HTTP from pages the tests build.

Each format is checked post by post (ids, floors, authors, times and their precision,
bodies without quotes) and by a whole tally of the demo vote thread, which must come out as
the Discuz! X tally of the same thread shown at that board's precision.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

import scrapers
from killmod.commands.cli import main
from killmod.core.errors import BadInput, TallyFailed
from killmod.core.model import Post, TallyResult
from killmod.fetch.thread import Thread, read_thread
from killmod.game.roster import parse_roster
from killmod.usecases.tally import tally
from scrapers import discuz_x, discuz_x_archiver, discuz_x_printable, sohu
from scrapers.profile import ProfileScraper, load_profile
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    JUDGE,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    big_thread,
    demo_thread,
    discuz_x_site,
)
from tests.support.pagebuilder_more import (
    as_board_shows,
    discuz_x_archiver_site,
    discuz_x_printable_site,
    phpbb_site,
    sohu_site,
    sohu_thread_id,
    tieba_site,
    with_time_style,
)

PROFILES = Path(__file__).resolve().parent.parent / "examples" / "profiles"
DEADLINE = "2019-05-12 22:00"
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
PRINTABLE = f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}"
ARCHIVER = f"/archiver/?tid-{DEMO_TID}.html"
TIEBA = f"/p/{DEMO_TID}"
PHPBB = f"/viewtopic.php?f=2&t={DEMO_TID}"
DELETED_FLOOR = 15
BANNED_FLOORS = (12, 16)


def sohu_url(thread: FakeThread) -> str:
    return f"/zz2286/thread/{sohu_thread_id(thread)}"


def run_tally(url: str, **options) -> TallyResult:
    return tally(url, deadline=DEADLINE, roster=parse_roster(DEMO_ROSTER_TOML), **options)


def summary(result: TallyResult) -> dict:
    """What a tally decided, leaving out floors and pids (views number posts differently)."""
    return {
        "outcome": result.outcome,
        "counts": result.counts,
        "ballots": [(b.seat, b.kind, b.target) for b in result.ballots],
        "changes": [(c.seat, c.from_, c.to) for c in result.changes],
        "rejected": sorted((r.author, r.reason) for r in result.rejected),
        "flags": [(f.seat, f.reason) for f in result.flags],
        "warnings": result.warnings,
    }


def reference(serve_site, thread: FakeThread, **options) -> dict:
    """The Discuz! X viewthread tally of ``thread``: what every other view must agree with."""
    base = serve_site(discuz_x_site(thread))
    return summary(run_tally(base + VIEWTHREAD, **options))


def shown(thread: FakeThread) -> list[tuple[int, FakePost]]:
    """(floor, post) of the posts a board shows: deleted posts are gone."""
    return [(floor, post) for floor, post in enumerate(thread.posts, 1) if not post.deleted]


def by_floor(thread: Thread, demo: FakeThread) -> dict[int, Post]:
    """The read posts keyed by the demo floor they show (they come in posting order)."""
    floors = [floor for floor, _ in shown(demo)]
    assert len(thread.posts) == len(floors)
    return dict(zip(floors, thread.posts, strict=True))


def to_minute(moment: datetime) -> datetime:
    return moment.replace(second=0)


# --- Discuz! X printable view ---------------------------------------------------------------


def test_printable_posts_are_read_at_minute_precision(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_printable_site(demo))
    thread = read_thread(base + PRINTABLE, tz=SHANGHAI)
    assert (thread.scraper, thread.title, thread.pages) == ("discuz_x_printable", demo.title, 1)
    posts = by_floor(thread, demo)
    assert [post.pid for post in thread.posts] == list(range(1, len(thread.posts) + 1))
    for floor, fake in shown(demo):
        post = posts[floor]
        assert (post.author, post.uid, post.floor) == (fake.author, None, None)
        assert (post.posted_at, post.precision) == (to_minute(fake.posted_at), "minute")
        assert post.banned == fake.banned
    assert posts[14].body == "我不跟，投 5号"
    assert posts[14].quotes == ("meer 发表于 2019-5-12 13:40\n改票：投 7号",)
    assert posts[17].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert posts[19].body == "还没想好 <_<，再看看"
    assert posts[22].body == "投 11号"
    assert all(posts[floor].body == "" for floor in BANNED_FLOORS)
    assert posts[1].body.startswith("【第二天投票帖】22:00 截止\n请在")


def test_printable_gbk_page_is_read_by_its_declared_charset(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_printable_site(demo, charset="gbk"))
    thread = read_thread(base + PRINTABLE, tz=SHANGHAI)
    assert [post.author for post in thread.posts] == [post.author for _, post in shown(demo)]


def test_printable_tally_is_the_viewthread_tally_at_minute_precision(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_printable_site(demo))
    result = run_tally(base + PRINTABLE)
    assert summary(result) == reference(serve_site, with_time_style(demo, "minute"))
    # 22:00:00 and 22:00:01 both show as 22:00: flagged and counted, a 5/7 tie.
    assert [(f.seat, f.reason) for f in result.flags] == [
        (12, "time_ambiguous"),
        (7, "time_ambiguous"),
    ]
    assert (result.outcome.kind, result.outcome.seats) == ("tie", (5, 7))


def test_printable_tally_rejecting_ambiguous_times(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_printable_site(demo))
    result = run_tally(base + PRINTABLE, ambiguous_time="reject")
    minute = with_time_style(demo, "minute")
    assert summary(result) == reference(serve_site, minute, ambiguous_time="reject")
    assert (result.outcome.kind, result.outcome.seat) == ("eliminated", 7)


def test_a_full_printable_page_is_refused_as_maybe_cut_short(serve_site) -> None:
    base = serve_site(discuz_x_printable_site(big_thread(pages=10)))
    with pytest.raises(TallyFailed, match="前 100 帖"):
        read_thread(f"{base}/forum.php?mod=viewthread&action=printable&tid=8001", tz=SHANGHAI)


# --- Discuz! X archiver ---------------------------------------------------------------------


def test_archiver_posts_carry_seconds(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_archiver_site(demo))
    thread = read_thread(base + ARCHIVER, tz=SHANGHAI)
    assert (thread.scraper, thread.title, thread.pages) == ("discuz_x_archiver", demo.title, 4)
    posts = by_floor(thread, demo)
    # Ten stored positions a page: floor 15 is deleted, so page 2 holds nine posts.
    assert posts[11].pid == 2 * 10000 + 1
    assert posts[16].pid == 2 * 10000 + 5
    assert posts[31].pid == 4 * 10000 + 1
    for floor, fake in shown(demo):
        post = posts[floor]
        assert (post.author, post.uid, post.floor, post.banned) == (
            fake.author,
            None,
            None,
            fake.banned,
        )
        if fake.time_style != "relative_bare":  # "9 小时前" without its exact time
            assert (post.posted_at, post.precision) == (fake.posted_at, "second")
    assert posts[14].body == "我不跟，投 5号"
    assert posts[14].quotes == ("meer 发表于 2019-5-12 13:40\n改票：投 7号",)
    assert posts[17].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert posts[22].body == "投 11号"  # [b] stripped
    assert all(posts[floor].body == "" for floor in BANNED_FLOORS)


def test_archiver_charset_comes_from_the_http_header_alone(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_archiver_site(demo, charset="gbk"))
    thread = read_thread(base + ARCHIVER, tz=SHANGHAI)
    assert [post.author for post in thread.posts] == [post.author for _, post in shown(demo)]


def test_archiver_rewritten_urls_are_paged_too(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_archiver_site(demo))
    thread = read_thread(f"{base}/archiver/tid-{DEMO_TID}.html?page=2", tz=SHANGHAI)
    assert len(thread.posts) == len(shown(demo))


def test_archiver_quote_excerpts_are_dropped_where_they_can_be(serve_site) -> None:
    """An excerpt is matched against its post on the same page; elsewhere one line is dropped."""
    at = datetime(2019, 5, 12, 10, 0, 0, tzinfo=SHANGHAI)
    lines = "第一行\n第二行\n第三行"
    quote = ("meer", at + timedelta(minutes=1), lines)
    posts = [
        FakePost(1, JUDGE[0], JUDGE[1], at, "投票帖"),
        FakePost(2, "meer", 2000, at + timedelta(minutes=1), lines, time_style="absolute"),
        FakePost(3, "阿狸", 2001, at + timedelta(minutes=2), "投 5", quote=quote),
        FakePost(4, "路人甲", 2002, at + timedelta(minutes=3), "路过"),
        FakePost(5, "夜猫子", 2012, at + timedelta(minutes=4), "投 7", quote=quote),
    ]
    fake = FakeThread(9001, "引用测试", posts, at + timedelta(days=9), per_page=4)
    base = serve_site(discuz_x_archiver_site(fake))
    thread = read_thread(f"{base}/archiver/?tid-9001.html", tz=SHANGHAI)
    same_page, other_page = thread.posts[2], thread.posts[4]
    assert (same_page.body, same_page.quotes) == (
        "投 5",
        (f"meer 发表于 2019-5-12 10:01\n{lines}",),
    )
    # The documented limit: the quoted post is on page 1, so only one excerpt line is known.
    assert other_page.body == "第二行\n第三行\n投 7"


def test_archiver_tally_is_the_viewthread_tally(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(discuz_x_archiver_site(demo))
    result = run_tally(base + ARCHIVER)
    assert summary(result) == reference(serve_site, demo)
    assert result.flags == ()
    assert (result.outcome.kind, result.outcome.seat) == ("eliminated", 5)
    assert all(ballot.floor is None for ballot in result.ballots)


# --- SOHU club ------------------------------------------------------------------------------


def test_sohu_posts_are_read_from_the_script_call(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(sohu_site(demo))
    thread = read_thread(base + sohu_url(demo), tz=SHANGHAI)
    assert (thread.scraper, thread.title, thread.pages) == ("sohu", demo.title, 2)
    posts = by_floor(thread, demo)
    for floor, fake in shown(demo):
        post = posts[floor]
        assert (post.pid, post.floor, post.author, post.uid) == (
            floor - 1,
            floor,
            fake.author,
            fake.uid,
        )
        assert (post.posted_at, post.precision, post.banned) == (
            to_minute(fake.posted_at),
            "minute",
            fake.banned,
        )
    assert posts[14].body == "我不跟，投 5号"
    assert posts[14].quotes == ("原帖引用 12楼 meer 的帖子：\n改票：投 7号",)
    assert posts[17].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert posts[18].body == "投 12号"  # the signature is not the post
    assert posts[22].body == "投 11号"
    assert all(posts[floor].body == "" for floor in BANNED_FLOORS)


def test_sohu_tally_is_the_viewthread_tally_at_minute_precision(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(sohu_site(demo))
    result = run_tally(base + sohu_url(demo))
    assert summary(result) == reference(serve_site, with_time_style(demo, "minute"))
    assert (12, "time_ambiguous") in [(f.seat, f.reason) for f in result.flags]
    assert [b.floor for b in result.ballots if b.seat == 12] == [26]


def test_sohu_page_urls() -> None:
    thread = "http://club.sohu.com/zz2286/thread/41pptlzhawg"
    assert sohu.page_url(thread, 3) == f"{thread}/p3"
    assert sohu.page_url(f"{thread}/p3", 1) == thread
    assert sohu.matches(thread, "")


# --- profiles: phpBB 3 and Tieba ------------------------------------------------------------


def test_phpbb_profile_reads_prosilver_pages(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(phpbb_site(demo))
    thread = read_thread(base + PHPBB, tz=SHANGHAI, profile=load_profile(PROFILES / "phpbb3.toml"))
    assert (thread.scraper, thread.title, thread.pages) == ("phpbb3", demo.title, 3)
    posts = by_floor(thread, demo)
    for floor, fake in shown(demo):
        post = posts[floor]
        uid = None if fake.account_deleted else fake.uid
        assert (post.pid, post.floor, post.author, post.uid) == (fake.pid, None, fake.author, uid)
        assert (post.posted_at, post.precision) == (fake.posted_at, "second")
    assert posts[1].uid == JUDGE[1]  # a coloured username
    assert posts[14].body == "我不跟，投 5号"
    assert "改票：投 7号" in posts[14].quotes[0]
    assert posts[17].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert posts[18].body == "投 12号"
    assert posts[22].body == "投 11号"


def test_phpbb_tally_is_the_viewthread_tally(serve_site) -> None:
    demo = demo_thread()
    base = serve_site(phpbb_site(demo))
    result = run_tally(base + PHPBB, profile=PROFILES / "phpbb3.toml")
    assert summary(result) == reference(serve_site, demo)
    assert (result.outcome.kind, result.outcome.seat) == ("eliminated", 5)


def tieba_demo() -> FakeThread:
    """The demo as Tieba shows it: minutes, no edits, banned authors' posts gone."""
    return as_board_shows(with_time_style(demo_thread(), "minute"), edits=False, banned=False)


def test_tieba_profile_reads_tieba_pages(serve_site) -> None:
    demo = tieba_demo()
    base = serve_site(tieba_site(demo, per_page=10))
    thread = read_thread(base + TIEBA, tz=SHANGHAI, profile=load_profile(PROFILES / "tieba.toml"))
    assert (thread.scraper, thread.title, thread.pages) == ("tieba", demo.title, 3)
    posts = by_floor(thread, demo)
    assert sorted(set(range(1, 32)) - set(posts)) == [12, DELETED_FLOOR, 16]
    for floor, fake in shown(demo):
        post = posts[floor]
        assert (post.pid, post.floor, post.author, post.uid) == (
            fake.pid,
            floor,
            fake.author,
            fake.uid,
        )
        assert (post.posted_at, post.precision) == (to_minute(fake.posted_at), "minute")
    assert posts[14].body == "我不跟，投 5号"  # "回复 13楼 meer :" stripped
    assert posts[22].body == "投 11号"


def test_tieba_tally_is_the_viewthread_tally_at_minute_precision(serve_site) -> None:
    demo = tieba_demo()
    base = serve_site(tieba_site(demo))
    result = run_tally(base + TIEBA, profile=load_profile(PROFILES / "tieba.toml"))
    assert summary(result) == reference(serve_site, demo)
    assert (12, "time_ambiguous") in [(f.seat, f.reason) for f in result.flags]
    # Tieba cannot edit: 老王 (14) keeps his vote for 9.
    assert (14, "vote", 9) in [(b.seat, b.kind, b.target) for b in result.ballots]


def test_a_profile_charset_overrides_what_the_page_declares(serve_site, tmp_path: Path) -> None:
    """A board that sends GBK bytes while its page says UTF-8 is read right with ``charset``."""
    demo = tieba_demo()
    utf8 = tieba_site(demo)

    def mislabelled(path_and_query: str) -> Response:
        page = utf8(path_and_query)
        return Response(
            page.status, {"Content-Type": "text/html"}, page.body.decode().encode("gbk")
        )

    base = serve_site(mislabelled)
    path = tmp_path / "tieba_gbk.toml"
    path.write_text(
        (PROFILES / "tieba.toml").read_text(encoding="utf-8") + 'charset = "gbk"\n',
        encoding="utf-8",
    )
    thread = read_thread(base + TIEBA, tz=SHANGHAI, profile=load_profile(path))
    assert thread.title == demo.title
    assert [post.body for post in thread.posts][1:3] == ["投5号", "投 7"]


def test_tally_command_takes_a_profile(serve_site, tmp_path: Path) -> None:
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    base = serve_site(tieba_site(tieba_demo()))
    args = ["tally", base + TIEBA, "--roster", str(roster), "--deadline", DEADLINE]
    profile = ["--profile", str(PROFILES / "tieba.toml")]
    done = CliRunner().invoke(main, [*args, *profile, "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["source"]["pages"] == 1
    both = CliRunner().invoke(main, [*args, *profile, "--forum", "discuz_x"])
    assert both.exit_code == 2
    assert "只能选一个" in both.output


def test_profile_page_urls() -> None:
    phpbb = ProfileScraper(load_profile(PROFILES / "phpbb3.toml"))
    assert phpbb.page_url("http://f.example/viewtopic.php?f=2&t=7", 3) == (
        "http://f.example/viewtopic.php?f=2&t=7&start=20"
    )
    tieba = ProfileScraper(load_profile(PROFILES / "tieba.toml"))
    assert tieba.page_url("https://tieba.baidu.com/p/123?pn=5", 2) == (
        "https://tieba.baidu.com/p/123?pn=2"
    )
    assert tieba.matches("https://tieba.baidu.com/p/123", "")
    assert not tieba.matches("https://bbs.example.com/thread-1-1-1.html", "")


def test_profile_page_url_template(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(
        MINIMAL + "page_url = '{url}/p{n}'\npage_url_strip = '/p\\d+$'\n", encoding="utf-8"
    )
    board = ProfileScraper(load_profile(path))
    assert board.page_url("http://b.example/thread/9/p4", 2) == "http://b.example/thread/9/p2"


MINIMAL = """name = "board"
url_pattern = 'thread/\\d+'
post = "div.post"
pid = { attribute = "id", regex = '\\d+' }
author = "span.name"
time = "span.time"
body = "div.text"
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "不是有效的 TOML"),
        (MINIMAL.replace('body = "div.text"\n', ""), "键「body」：缺少这个必需的键"),
        (MINIMAL.replace("pid = {", "floorx = {"), "第 4 行，键「floorx」：未知的键"),
        (MINIMAL.replace('"div.post"', '"div[["'), "第 3 行，键「post」：无效的 CSS 选择器"),
        (MINIMAL.replace("'\\d+' }", "'(' }"), "第 4 行，键「pid.regex」：无效的正则表达式"),
        (MINIMAL + 'time_format = "%Y-%Q"\n', "键「time_format」：无效的时间格式"),
        (MINIMAL + 'time_format = "yyyy-mm-dd"\n', "没有任何 % 指令"),
        (MINIMAL + 'charset = "klingon"\n', "键「charset」：未知的字符集"),
        (MINIMAL + "page_count = 'div.pages a'\n", "需要 page_param 或 page_url"),
        (MINIMAL + "page_param = 'start'\npage_value = '{offset}'\n", "需要 per_page"),
        (MINIMAL + "page_url = '{url}/p{page}'\n", "无效的模板"),
        (MINIMAL + "author_x = 1\n[time2]\nselector = 'a'\n", "键「author_x」"),
        (MINIMAL.replace('time = "span.time"', "time = { attr = 'x' }"), "键「time」：应为"),
        (MINIMAL + "\n[uid]\nselector = 'a['\n", "第 10 行，键「uid.selector」"),
    ],
)
def test_bad_profiles_are_named_by_file_line_and_key(tmp_path: Path, text, message) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as caught:
        load_profile(path)
    assert str(path) in caught.value.message
    assert message in caught.value.message


def test_a_missing_profile_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="找不到 profile 文件"):
        load_profile(tmp_path / "nothing.toml")


# --- recognition ------------------------------------------------------------------------------


def test_specific_views_are_recognised_before_viewthread(serve_site) -> None:
    order = [*scrapers.every()].index
    for view in (discuz_x_printable, discuz_x_archiver, sohu):
        assert order(view) < order(discuz_x)
    demo = demo_thread()
    for site, path, name in (
        (discuz_x_printable_site(demo), PRINTABLE, "discuz_x_printable"),
        (discuz_x_archiver_site(demo), ARCHIVER, "discuz_x_archiver"),
        (sohu_site(demo), sohu_url(demo), "sohu"),
        (discuz_x_site(demo), VIEWTHREAD, "discuz_x"),
    ):
        base = serve_site(site)
        assert read_thread(base + path, tz=SHANGHAI).scraper == name
    assert not discuz_x.matches(f"http://bbs.example.com{PRINTABLE}", "")
