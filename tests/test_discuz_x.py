"""Discuz! X3 thread pages read over HTTP from a local board: posts, times, pages."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from killmod.core.errors import TallyFailed
from killmod.fetch.thread import read_thread
from scrapers import discuz_x
from tests.support.pagebuilder import (
    DEMO_NOW,
    DEMO_TID,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
    discuz_x_site,
    login_page,
)


def thread_url(base: str, *, rewrite: bool = False, page: int = 1, tid: int = DEMO_TID) -> str:
    if rewrite:
        return f"{base}/thread-{tid}-{page}-1.html"
    return f"{base}/forum.php?mod=viewthread&tid={tid}&page={page}"


def by_floor(thread) -> dict:
    return {post.floor: post for post in thread.posts}


def test_every_page_is_read_and_posts_come_in_posting_order(serve_site):
    base = serve_site(discuz_x_site(demo_thread()))
    thread = read_thread(thread_url(base), tz=SHANGHAI)
    assert thread.pages == 4
    assert thread.title == "【第二天投票帖】22:00 截止"
    floors = [post.floor for post in thread.posts]
    # floor 15 is a deleted post: its floor number stays unused
    assert 15 not in floors
    assert len(thread.posts) == 30
    assert [post.pid for post in thread.posts] == sorted(post.pid for post in thread.posts)


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
@pytest.mark.parametrize("rewrite", [False, True])
def test_both_url_schemes_and_charsets_give_the_same_posts(serve_site, charset, rewrite):
    base = serve_site(
        discuz_x_site(demo_thread(), charset=charset, rewrite=rewrite, floor_names=rewrite)
    )
    reference = read_thread(thread_url(serve_site(discuz_x_site(demo_thread()))), tz=SHANGHAI)
    thread = read_thread(thread_url(base, rewrite=rewrite), tz=SHANGHAI)
    assert thread.posts == reference.posts
    assert thread.title == reference.title


def test_gbk_declared_only_in_the_http_header_is_decoded_by_it(serve_site):
    site = discuz_x_site(demo_thread(), charset="gbk")

    def header_only(path: str) -> Response:
        response = site(path)
        body = response.body.replace(b"charset=gbk", b"charset=xxx")
        return replace(response, body=body)

    thread = read_thread(thread_url(serve_site(header_only)), tz=SHANGHAI)
    assert by_floor(thread)[2].author == "meer"
    assert by_floor(thread)[3].author == "阿狸"


def test_starting_from_any_page_reads_the_whole_thread(serve_site):
    base = serve_site(discuz_x_site(demo_thread()))
    whole = read_thread(thread_url(base), tz=SHANGHAI)
    assert read_thread(thread_url(base, page=3), tz=SHANGHAI).posts == whole.posts


def test_a_page_number_past_the_end_is_served_the_last_page_and_deduplicated(serve_site):
    base = serve_site(discuz_x_site(demo_thread()))
    whole = read_thread(thread_url(base), tz=SHANGHAI)
    from_past_end = read_thread(thread_url(base, page=99), tz=SHANGHAI)
    assert from_past_end.posts == whole.posts
    assert len({post.pid for post in from_past_end.posts}) == len(from_past_end.posts)


def test_post_fields_quotes_edits_banned_and_deleted_accounts(serve_site):
    thread = read_thread(thread_url(serve_site(discuz_x_site(demo_thread()))), tz=SHANGHAI)
    posts = by_floor(thread)
    assert (posts[2].author, posts[2].uid, posts[2].body) == ("meer", 2000, "投5号")
    # the quoted ballot is kept apart from the post's own text
    assert "改票" in posts[14].quotes[0]
    assert "改票" not in posts[14].body and "投 5号" in posts[14].body
    # the edit notice is read and removed from the text
    assert posts[17].edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)
    assert "本帖最后由" not in posts[17].body
    # signatures are never part of the body
    assert "投我一票" not in posts[18].body
    assert posts[12].banned and posts[12].body == ""
    assert posts[16].author == "已注销" and posts[16].uid is None
    # inline markup is reduced to text
    assert posts[22].body == "投 11号"


def test_times_keep_their_precision_and_prefer_the_exact_title(serve_site):
    thread = read_thread(thread_url(serve_site(discuz_x_site(demo_thread()))), tz=SHANGHAI)
    posts = by_floor(thread)
    assert posts[26].posted_at == datetime(2019, 5, 12, 22, 0, 0, tzinfo=SHANGHAI)
    assert posts[26].precision == "second"
    assert posts[27].posted_at == datetime(2019, 5, 12, 22, 0, 1, tzinfo=SHANGHAI)
    # "9 小时前" with no exact title, counted back from the board's own clock (the HTTP
    # Date, 22:10:00): written between 12:10:01 and 13:10:00, known to the hour.
    assert posts[11].posted_at == datetime(2019, 5, 12, 12, 10, 1, tzinfo=SHANGHAI)
    assert posts[11].precision == "hour"
    assert all(post.posted_at.utcoffset() == timedelta(hours=8) for post in thread.posts)


@pytest.mark.parametrize("style", ["absolute", "minute", "relative", "relative_bare"])
def test_every_time_style_the_board_shows_is_read(serve_site, style):
    at = DEMO_NOW - timedelta(minutes=12, seconds=5)  # shown as "12 分钟前"
    posts = [
        FakePost(1, "法官大人", 100, at - timedelta(hours=3), "开帖"),
        FakePost(2, "meer", 2000, at, "投5号", time_style=style),
    ]
    thread = FakeThread(tid=5, title="t", posts=posts, now=DEMO_NOW)
    read = read_thread(thread_url(serve_site(discuz_x_site(thread)), tid=5), tz=SHANGHAI)
    post = read.posts[1]
    if style in ("absolute", "relative"):
        assert (post.posted_at, post.precision) == (at, "second")
    else:
        assert post.precision == "minute"
        assert abs(post.posted_at - at) < timedelta(minutes=1)


def test_a_thread_that_does_not_exist_fails_with_the_boards_message(serve_site):
    base = serve_site(discuz_x_site(demo_thread()))
    with pytest.raises(TallyFailed) as failure:
        read_thread(thread_url(base, tid=4242), tz=SHANGHAI)
    assert "指定的主题不存在" in failure.value.message
    assert "tid=4242" in failure.value.message


def test_a_login_page_is_an_error_naming_the_page(serve_site):
    base = serve_site(lambda path: login_page())
    with pytest.raises(TallyFailed) as failure:
        read_thread(thread_url(base), tz=SHANGHAI)
    assert "登录" in failure.value.message


def test_a_page_that_fails_fails_the_whole_thread_naming_it(serve_site):
    site = discuz_x_site(demo_thread())

    def broken_third_page(path: str) -> Response:
        if "page=3" in path:
            return Response(404, {"Content-Type": "text/html"}, b"not found")
        return site(path)

    with pytest.raises(TallyFailed) as failure:
        read_thread(thread_url(serve_site(broken_third_page)), tz=SHANGHAI)
    assert "HTTP 404" in failure.value.message
    assert "page=3" in failure.value.message


def test_a_page_cut_off_before_its_posts_is_an_error_not_a_short_thread(serve_site):
    site = discuz_x_site(demo_thread())

    def truncated(path: str) -> Response:
        response = site(path)
        if "page=2" in path:
            cut = response.body.index(b'<div id="post_')
            return replace(response, body=response.body[:cut])
        return response

    with pytest.raises(TallyFailed) as failure:
        read_thread(thread_url(serve_site(truncated)), tz=SHANGHAI)
    assert "page=2" in failure.value.message


def test_a_page_bar_inside_a_post_is_not_the_threads(serve_site):
    """A post's 点评 list has its own page bar: the thread's pages come from the bars
    above and below the post list."""
    site = discuz_x_site(demo_thread())

    def with_comment_pages(path: str) -> Response:
        answer = site(path)
        comments = '<div class="pg"><strong>1</strong><a href="#">2</a><a href="#">9</a></div>'
        body = answer.body.replace(b'class="cm">', b'class="cm">' + comments.encode(), 1)
        return replace(answer, body=body)

    thread = read_thread(thread_url(serve_site(with_comment_pages), page=2), tz=SHANGHAI)
    plain = read_thread(thread_url(serve_site(site), page=2), tz=SHANGHAI)
    assert thread.pages == 4 and thread.posts == plain.posts


@pytest.mark.parametrize(
    ("url", "page_7"),
    [
        (
            "http://x/forum.php?mod=viewthread&tid=5&page=3&extra=page%3D1",
            "http://x/forum.php?mod=viewthread&tid=5&page=7",
        ),
        ("http://x/thread-5-3-1.html", "http://x/thread-5-7-1.html"),
        (
            "http://x/bbs/thread-5-3-1.html?from=a#pid9",
            "http://x/bbs/thread-5-7-1.html?from=a#pid9",
        ),
        (
            "http://x/forum.php?mod=viewthread&tid=77",
            "http://x/forum.php?mod=viewthread&tid=77&page=7",
        ),
        ("http://x/forum.php?page=2#x", "http://x/forum.php?page=7#x"),
    ],
)
def test_page_urls_keep_the_threads_url_scheme(url, page_7):
    assert discuz_x.page_url(url, 7) == page_7


def test_page_urls_of_two_threads_do_not_mix():
    first = discuz_x.page_url("http://x/thread-5-1-1.html", 2)
    assert discuz_x.page_url("http://x/thread-6-1-1.html", 2) == "http://x/thread-6-2-1.html"
    assert discuz_x.page_url("http://x/thread-5-9-1.html", 12) == "http://x/thread-5-12-1.html"
    assert first == "http://x/thread-5-2-1.html"
