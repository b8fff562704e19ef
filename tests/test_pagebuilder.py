"""The fake Discuz! X3.4 board behaves like the real one, over real HTTP."""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta

import lxml.html
import pytest
import requests

from tests.support.forumserver import BaseUrl
from tests.support.pagebuilder import (
    DEMO_DEADLINE,
    DEMO_NOW,
    DEMO_ROSTER_TOML,
    DEMO_TID,
    LOGIN_MESSAGE,
    NO_THREAD_MESSAGE,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    big_roster_toml,
    big_thread,
    demo_thread,
    discuz_x_site,
    format_post_time,
    login_page,
    render_discuz_x_page,
)

VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"


def _tree(body: bytes, codec: str = "utf-8") -> lxml.html.HtmlElement:
    return lxml.html.fromstring(body.decode(codec))


def _one(tree: lxml.html.HtmlElement, xpath: str) -> lxml.html.HtmlElement:
    found = tree.xpath(xpath)
    assert len(found) == 1, f"{xpath}: {len(found)} matches"
    return found[0]


def _floors(tree: lxml.html.HtmlElement) -> list[str]:
    """Each post's floor as shown: the number in <em>, or a floor name."""
    links = tree.xpath("//div[@class='pi']/strong/a")
    return [link.findtext("em") or link.text_content().strip() for link in links]


def test_demo_pages_carry_discuz_ids_for_every_post(demo_site: str) -> None:
    thread = demo_thread()
    seen = []
    for page in range(1, 5):
        response = requests.get(f"{demo_site}{VIEWTHREAD}&page={page}", timeout=5)
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "text/html; charset=utf-8"
        tree = _tree(response.content)
        assert _one(tree, "//span[@id='thread_subject']").text == thread.title
        assert _one(tree, "//div[@class='pgt']//span[@title]").get("title") == "共 4 页"
        tables = tree.xpath("//div[@id='postlist']/div/table")
        seen += [int(table.get("id").removeprefix("pid")) for table in tables]
    assert seen == [post.pid for post in thread.posts]


def test_post_parts_sit_where_discuz_puts_them(demo_site: str) -> None:
    tree = _tree(requests.get(f"{demo_site}{VIEWTHREAD}&page=2", timeout=5).content)
    quoted = 90000 + 7 * 14
    author = _one(tree, f"//table[@id='pid{quoted}']//td[@class='pls']//div[@class='authi']/a")
    assert (author.text, author.get("href"), author.get("class")) == (
        "夜猫子",
        "home.php?mod=space&uid=2012",
        "xw1",
    )
    card = _one(tree, f"//div[@id='userinfo{quoted}']//strong/a")
    assert card.text == "夜猫子" and card.get("class") == "xi2"
    message = _one(tree, f"//td[@class='t_f' and @id='postmessage_{quoted}']")
    assert "改票：投 7号" in _one(message, "div[@class='quote']/blockquote").text_content()
    assert message.text_content().strip().endswith("我不跟，投 5号")
    time = _one(tree, f"//em[@id='authorposton{quoted}']")
    assert time.text == "发表于 " and _one(time, "span").get("title") == "2019-5-12 14:11:16"
    assert "无效楼层，该帖已经被删除" in _one(tree, "//div[@id='post_90105']").text_content()
    assert tree.xpath("//div[@id='post_90084']//div[@class='locked']")
    assert not tree.xpath("//td[@id='postmessage_90084']")
    deleted_account = _one(tree, "//div[@id='favatar90112']/div[@class='pi']")
    assert deleted_account.text_content().split() == ["已注销", "该用户已被删除"]
    notice = _one(tree, "//td[@id='postmessage_90119']/i[@class='pstatus']")
    assert notice.text == " 本帖最后由 老王 于 2019-5-12 16:20 编辑 "
    signature = _one(tree, "//div[@id='post_90126']//div[@class='sign']")
    assert signature.text == "投我一票！我是 15 号红豆"
    escaped = _one(tree, "//td[@id='postmessage_90133']")
    assert escaped.text_content().strip() == "还没想好 <_<，再看看"
    assert _floors(tree) == [str(floor) for floor in range(11, 21)]


def test_floor_one_links_and_relative_bare_time(demo_site: str) -> None:
    tree = _tree(requests.get(f"{demo_site}{VIEWTHREAD}", timeout=5).content)
    floor_one = _one(tree, "//a[@id='postnum90007']")
    assert floor_one.get("href") == f"forum.php?mod=viewthread&tid={DEMO_TID}"
    assert _one(tree, "//div[@class='hm ptn']").text_content().split()[-1] == "30"
    page_two = _tree(requests.get(f"{demo_site}{VIEWTHREAD}&page=2", timeout=5).content)
    bare = _one(page_two, "//em[@id='authorposton90077']")
    assert bare.text_content() == "发表于 9\xa0小时前" and not bare.xpath("span")


def test_the_board_clock_is_in_the_date_header_and_the_footer(demo_site: str) -> None:
    response = requests.get(demo_site + VIEWTHREAD, timeout=5)
    assert response.headers["Date"] == "Sun, 12 May 2019 14:10:00 GMT"
    footer = _one(_tree(response.content), "//div[@id='flk']/p[@class='xs0']")
    assert footer.text.strip() == "GMT+8, 2019-5-12 22:10"


def test_inline_html_is_kept_and_replies_by_the_thread_author_are_marked(demo_site: str) -> None:
    tree = _tree(requests.get(f"{demo_site}{VIEWTHREAD}&page=3", timeout=5).content)
    assert _one(tree, "//td[@id='postmessage_90154']/strong").text == "投 11号"
    marked = [icon.get("id") for icon in tree.xpath("//img[contains(@src, 'ico_lz.png')]")]
    assert marked == ["authicon90168", "authicon90203"]  # floors 24 and 29, by 法官大人


def test_page_past_the_end_is_the_last_page(demo_site: BaseUrl) -> None:
    last = requests.get(f"{demo_site}{VIEWTHREAD}&page=4", timeout=5)
    past = requests.get(f"{demo_site}{VIEWTHREAD}&page=9", timeout=5)
    assert past.status_code == 200
    assert past.content == last.content
    tree = _tree(past.content)
    assert _floors(tree) == ["31"]
    assert _one(tree, "//div[@class='pgt']//strong").text == "4"
    assert not tree.xpath("//a[@class='nxt']")
    assert demo_site.server.requests == [f"{VIEWTHREAD}&page=4", f"{VIEWTHREAD}&page=9"]


@pytest.mark.parametrize(
    ("path", "floor"),
    [
        (VIEWTHREAD, "楼主"),  # X3.4 names its first floors
        (f"{VIEWTHREAD}&extra=page%3D1", "楼主"),
        (f"{VIEWTHREAD}&extra=page%3D1&page=3", "21"),
        (f"{VIEWTHREAD}&extra=&page=2", "11"),
        (f"{VIEWTHREAD}&page=0", "楼主"),
    ],
)
def test_viewthread_url_forms(demo_site: str, path: str, floor: str) -> None:
    response = requests.get(demo_site + path, timeout=5)
    assert response.status_code == 200
    assert _floors(_tree(response.content))[0] == floor


@pytest.mark.parametrize(
    "path",
    ["/thread-7001-1-1.html", "/forum.php?mod=viewthread&action=printable&tid=7001", "/", "/x.php"],
)
def test_other_paths_are_not_found(demo_site: str, path: str) -> None:
    assert requests.get(demo_site + path, timeout=5).status_code == 404


def test_unknown_thread_gives_the_discuz_message_page(demo_site: str) -> None:
    response = requests.get(f"{demo_site}/forum.php?mod=viewthread&tid=404404", timeout=5)
    assert response.status_code == 200
    message = _one(_tree(response.content), "//div[@id='messagetext']")
    assert message.get("class") == "alert_error"
    assert _one(message, "p").text == NO_THREAD_MESSAGE


def test_login_page_is_a_discuz_message_page() -> None:
    response = login_page()
    tree = _tree(response.body)
    assert (response.status, _one(tree, "//div[@id='messagetext']/p").text) == (200, LOGIN_MESSAGE)
    assert tree.xpath("//div[@id='messagelogin']")


def test_gbk_board_with_rewrite_and_floor_names(serve_site) -> None:
    site = discuz_x_site(demo_thread(), charset="gbk", rewrite=True, floor_names=True)
    base_url = serve_site(site)
    response = requests.get(f"{base_url}/thread-{DEMO_TID}-1-1.html", timeout=5)
    assert response.headers["Content-Type"] == "text/html; charset=gbk"
    assert b'content="text/html; charset=gbk"' in response.content
    tree = _tree(response.content, "gb18030")
    assert _floors(tree)[:5] == ["楼主", "沙发", "板凳", "地板", "5"]
    author = _one(tree, "//table[@id='pid90014']//td[@class='pls']//div[@class='authi']/a")
    assert author.get("href") == "space-uid-2000.html"
    next_page = _one(tree, "//div[@class='pgt']//a[@class='nxt']").get("href")
    assert next_page == f"thread-{DEMO_TID}-2-1.html"
    page_two = requests.get(f"{base_url}/{next_page}", timeout=5)
    assert _floors(_tree(page_two.content, "gb18030"))[0] == "11"


def test_charset_can_be_left_out_of_the_header(serve_site) -> None:
    base_url = serve_site(discuz_x_site(demo_thread(), charset="gbk", header_charset=False))
    response = requests.get(base_url + VIEWTHREAD, timeout=5)
    assert response.headers["Content-Type"] == "text/html"


def test_one_page_thread_has_no_page_bar() -> None:
    post = FakePost(1, "法官大人", 100, DEMO_NOW - timedelta(days=30), "只有一楼")
    tree = _tree(render_discuz_x_page(FakeThread(5, "单页", [post], DEMO_NOW), 1))
    assert not tree.xpath("//div[@class='pg']") and not tree.xpath("//div[@class='pgbtn']")
    assert _one(tree, "//em[@id='authorposton1']").text == "发表于 2019-4-12 22:10:00"


def test_edit_notice_appears_only_for_edits_after_a_minute() -> None:
    posted = DEMO_NOW - timedelta(hours=1)
    quick = FakePost(1, "meer", 2000, posted, "投 5", edited_at=posted + timedelta(seconds=60))
    late = FakePost(2, "meer", 2000, posted, "投 5", edited_at=posted + timedelta(seconds=61))
    tree = _tree(render_discuz_x_page(FakeThread(5, "t", [quick, late], DEMO_NOW), 1))
    assert not tree.xpath("//td[@id='postmessage_1']/i")
    notice = _one(tree, "//td[@id='postmessage_2']/i").text
    assert notice == " 本帖最后由 meer 于 2019-5-12 21:11 编辑 "


def test_server_records_requests_and_the_site_can_be_swapped(demo_site: BaseUrl) -> None:
    server = demo_site.server
    healthy = server.site
    server.site = lambda path: Response(503, {"Retry-After": "1"}, b"busy")
    assert requests.get(demo_site + VIEWTHREAD, timeout=5).status_code == 503
    server.site = healthy
    assert requests.get(demo_site + VIEWTHREAD, timeout=5).status_code == 200
    assert server.requests == [VIEWTHREAD, VIEWTHREAD]


def test_a_failing_site_is_a_server_error(serve_site) -> None:
    def broken(path: str) -> Response:
        raise RuntimeError("boom")

    assert requests.get(serve_site(broken) + "/", timeout=5).status_code == 500


NOW = datetime(2019, 5, 12, 22, 10, 0, tzinfo=SHANGHAI)


def _may(day: int, hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2019, 5, day, hour, minute, second, tzinfo=SHANGHAI)


@pytest.mark.parametrize(
    ("posted_at", "relative"),
    [
        (NOW, "刚刚"),
        (NOW - timedelta(seconds=1), "1&nbsp;秒前"),
        (NOW - timedelta(seconds=60), "60&nbsp;秒前"),
        (NOW - timedelta(seconds=61), "1&nbsp;分钟前"),
        (NOW - timedelta(seconds=1800), "30&nbsp;分钟前"),
        (NOW - timedelta(seconds=1801), "半小时前"),
        (NOW - timedelta(seconds=3600), "半小时前"),
        (NOW - timedelta(seconds=3601), "1&nbsp;小时前"),
        (_may(12, 0, 0), "22&nbsp;小时前"),
        (_may(11, 23, 59, 59), "昨天&nbsp;23:59"),
        (_may(11, 0, 0, 1), "昨天&nbsp;00:00"),
        (_may(11, 0, 0), "前天&nbsp;00:00"),  # dgmdate counts whole days back from midnight
        (_may(10, 0, 0, 1), "前天&nbsp;00:00"),
        (_may(10, 0, 0), "3&nbsp;天前"),
        (_may(5, 0, 0, 1), "7&nbsp;天前"),
    ],
)
def test_relative_time_follows_dgmdate(posted_at: datetime, relative: str) -> None:
    exact = f"{posted_at.year}-{posted_at.month}-{posted_at.day} {posted_at:%H:%M:%S}"
    assert format_post_time(posted_at, NOW) == f'<span title="{exact}">{relative}</span>'


@pytest.mark.parametrize(
    ("posted_at", "shown"),
    [(_may(5, 0, 0), "2019-5-5 00:00:00"), (NOW + timedelta(seconds=5), "2019-5-12 22:10:05")],
)
def test_old_and_future_times_are_absolute(posted_at: datetime, shown: str) -> None:
    assert format_post_time(posted_at, NOW) == shown


def test_yesterday_wins_over_minutes_just_after_midnight() -> None:
    just_after_midnight = datetime(2019, 5, 13, 0, 5, 0, tzinfo=SHANGHAI)
    posted_at = datetime(2019, 5, 12, 23, 55, 0, tzinfo=SHANGHAI)
    assert format_post_time(posted_at, just_after_midnight) == (
        '<span title="2019-5-12 23:55:00">昨天&nbsp;23:55</span>'
    )


def test_time_styles() -> None:
    posted_at = DEMO_DEADLINE.astimezone(SHANGHAI)
    assert format_post_time(posted_at, NOW, "absolute") == "2019-5-12 22:00:00"
    assert format_post_time(posted_at, NOW, "minute") == "2019-5-12 22:00"
    assert format_post_time(posted_at, NOW, "relative_bare") == "10&nbsp;分钟前"
    long_ago = datetime(2019, 4, 1, 8, 0, tzinfo=SHANGHAI)
    assert format_post_time(long_ago, NOW, "relative") == (
        '<span title="2019-4-1 08:00:00">41&nbsp;天前</span>'
    )


def test_demo_roster_matches_the_demo_thread() -> None:
    roster = tomllib.loads(DEMO_ROSTER_TOML)
    assert (roster["rules"], roster["timezone"], roster["judges"]) == (
        "1.2",
        "Asia/Shanghai",
        ["法官大人"],
    )
    players = {player["name"]: player for player in roster["players"]}
    assert [player["seat"] for player in roster["players"]] == list(range(1, 17))
    assert sorted(p["seat"] for p in players.values() if not p["alive"]) == [6, 11]
    assert players["meer"] == {
        "seat": 1,
        "name": "meer",
        "uid": 2000,
        "aliases": ["米儿"],
        "alive": True,
        "role": "水民",
    }
    roles = [player["role"] for player in roster["players"]]
    assert (roles.count("杀手"), roles.count("水民"), roles.count("检查官")) == (3, 12, 1)
    for post in demo_thread().posts:
        if post.author in players:
            assert post.uid == players[post.author]["uid"]


def test_demo_thread_deadline_posts() -> None:
    at_deadline = [
        post
        for post in demo_thread().posts
        if post.posted_at in (DEMO_DEADLINE, DEMO_DEADLINE + timedelta(seconds=1))
    ]
    assert [(post.author, post.body) for post in at_deadline] == [
        ("白开水", "改票：投 5号"),
        ("花生米", "改票：投 7号"),
    ]


def test_big_thread_is_full_and_deterministic() -> None:
    thread = big_thread(30, seed=7)
    assert (len(thread.posts), thread.page_count) == (300, 30)
    bodies = [post.body for post in thread.posts]
    assert bodies == [post.body for post in big_thread(30, seed=7).posts]
    assert bodies != [post.body for post in big_thread(30, seed=8).posts]
    assert all(post.posted_at < DEMO_DEADLINE for post in thread.posts)
    names = {player["name"] for player in tomllib.loads(big_roster_toml())["players"]}
    assert {post.author for post in thread.posts[1:]} <= names
    tree = _tree(render_discuz_x_page(thread, 15))
    page_links = [link.text for link in tree.xpath("//div[@class='pgt']/div[@class='pg']/a")]
    window = [str(number) for number in range(10, 20) if number != 15]
    assert page_links == ["1 ...", "\xa0\xa0", *window, "... 30", "下一页"]


# --- what the real X3.4 board renders (its pages were read, not copied) -----------------------


def test_pages_look_like_the_real_boards(demo_site: str) -> None:
    """Floor names 楼主/沙发/板凳/地板 by default, the sidebar's ``pls cl favatar``, page links
    with an empty ``extra``, the thread id in the page's script."""
    page = requests.get(f"{demo_site}{VIEWTHREAD}", timeout=5).text
    tree = _tree(page.encode())
    assert _floors(tree)[:5] == ["楼主", "沙发", "板凳", "地板", "5"]
    assert tree.xpath("//div[@id='favatar90007']")[0].get("class") == "pls cl favatar"
    assert f"forum.php?mod=viewthread&tid={DEMO_TID}&amp;extra=&amp;page=2" in page
    assert f"tid = parseInt('{DEMO_TID}')" in page


def test_a_deletion_is_a_302_to_the_thread_then_the_floors_renumber(serve_site) -> None:
    thread = demo_thread()
    thread.keeps_positions = False  # an ordinary thread: floor 15 was deleted
    base = serve_site(discuz_x_site(thread))
    first = requests.get(f"{base}{VIEWTHREAD}&page=2", timeout=5, allow_redirects=False)
    assert (first.status_code, first.headers["Location"]) == (
        302,
        f"forum.php?mod=viewthread&tid={DEMO_TID}",
    )
    after = _tree(requests.get(f"{base}{VIEWTHREAD}&page=2", timeout=5).content)
    assert _floors(after) == [str(n) for n in range(11, 21)]
    assert "无效楼层" not in after.text_content()
    assert requests.get(f"{base}{VIEWTHREAD}&page=4", timeout=5).text.count('id="postnum') == 10


def test_a_request_the_board_refuses_is_its_system_error_page(demo_site: str) -> None:
    response = requests.get(f"{demo_site}{VIEWTHREAD}&x=%3C", timeout=5)
    assert response.status_code == 200
    assert "<h1>Discuz! System Error</h1>" in response.text
    assert "您当前的访问请求当中含有非法字符，已经被系统拒绝" in response.text


def test_a_mobile_url_gets_the_mobile_page_a_desktop_browser_gets(demo_site: str) -> None:
    response = requests.get(f"{demo_site}{VIEWTHREAD}&mobile=2", timeout=5)
    assert response.status_code == 200
    assert "<title>手机版" in response.text and 'class="pg_mobile"' in response.text


def test_the_printable_view_is_laid_out_like_the_real_one(serve_site) -> None:
    from tests.support.pagebuilder_more import render_printable_page

    page = render_printable_page(demo_thread()).decode()
    assert "font-size: FONTSIZE; font-family: FONT;" in page  # X3.4 prints its literals
    assert '<hr noshade size="2" width="100%" color="#808080">\n<b>作者: </b>法官大人' in page
    assert "<b>时间: </b><span title=" in page and "<br />\n<b>标题: </b>" in page
    assert "提示: <em>作者被禁止或删除 内容自动屏蔽</em>\n<hr" in page
    assert 'color="BORDERCOLOR">' in page
