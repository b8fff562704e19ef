"""A short page is never a whole page (issue 25.2): what each format declares holds the pages
to the thread — floors counted from page to page, the page size, the API's reply count —
and a page missing posts is refused, naming it; a legitimate deletion is not.

The board is the page builder's (thread pages modelled on X3.4's, the mobile API on its
real answers): a page cut after 5 of its 10 posts and closed again with its footer, a
stale first page missing 3 posts, an API answer cut short, pages read on both sides of a
deletion.  The refusals run the real ``killmod`` program against the board on 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from killmod.core.errors import TallyFailed
from killmod.core.model import Page, Post
from killmod.fetch.whole import check_whole
from tests.support.pagebuilder import (
    DEMO_NOW,
    DEMO_TID,
    FakeThread,
    Response,
    Site,
    demo_thread,
)
from tests.support.pagebuilder_api import API_PATH, api_path, render_api_page, whole_board

KILLMOD = Path(sys.executable).parent / "killmod"
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"


def page_path(n: int) -> str:
    return f"{VIEWTHREAD}&page={n}"


# --- the rule, page by page ---------------------------------------------------------------------


def post(pid: int, floor: int | None) -> Post:
    return Post(pid, floor, "某人", None, DEMO_NOW - timedelta(hours=1), "second", "投 5号")


def page(n: int, floors: list[int], pages: int, **declared) -> Page:
    posts = tuple(post(1000 + floor, floor) for floor in floors)
    return Page(posts, n, pages, counted=True, **declared)


def refusal(pages: list[Page]) -> str:
    with pytest.raises(TallyFailed) as refused:
        check_whole(pages, lambda n: f"URL{n}")
    return refused.value.message


def test_a_page_cut_after_5_of_its_10_posts_is_refused_naming_it():
    pages = [page(1, [*range(1, 11)], 3), page(2, [*range(11, 16)], 3), page(3, [21, 22], 3)]
    said = refusal(pages)
    assert said.startswith("第 2 页不完整：缺少第 16–20 楼") and said.endswith("URL2")


def test_a_stale_first_page_missing_3_posts_is_refused_naming_it():
    pages = [page(1, [*range(1, 8)], 3), page(2, [*range(11, 21)], 3), page(3, [21, 22], 3)]
    assert refusal(pages).startswith("第 1 页不完整：缺少第 8–10 楼")


def test_a_last_page_short_of_the_declared_replies_is_refused():
    pages = [page(1, [*range(1, 1001)], 1, replies=1029, per_page=1000)]
    said = refusal(pages)
    assert "1029 个回复" in said and "第 1001–1030 楼" in said


def test_a_deletion_renumbers_floors_and_leaves_a_gap_in_pids_only():
    """X3.4 counts floors: after a moderator's deletion the pid is gone, no floor is."""
    floors = [*range(1, 11)]
    first = Page(tuple(post(200 + f + (f > 4), f) for f in floors), 1, 2, counted=True)
    second = Page((post(300, 11), post(301, 12)), 2, 2, counted=True)
    check_whole([first, second], str)  # pid 205 missing: deleted, nothing refused


def test_a_kept_position_shows_the_deleted_posts_empty_place():
    kept = page(1, [f for f in range(1, 11) if f != 5], 2, vacant=(5,))
    check_whole([kept, page(2, [11], 2)], str)
    with pytest.raises(TallyFailed):
        check_whole([page(1, [f for f in range(1, 11) if f != 5], 2), page(2, [11], 2)], str)


def test_floors_a_format_does_not_count_may_have_gaps():
    """Tieba's floors are permanent: a deleted post leaves its number unused."""
    pages = [replace(page(1, [1, 2, 4], 2), counted=False), replace(page(2, [9], 2), counted=False)]
    check_whole(pages, str)


# --- the real program against the local board ---------------------------------------------------


def killmod_tally(
    url: str, roster: Path, *extra: str, cache: str = "c"
) -> subprocess.CompletedProcess:
    """``killmod tally`` run as the judge runs it, its own process."""
    command = [str(KILLMOD), "tally", url, "--roster", str(roster), "--deadline", "22:00"]
    command += ["--delay", "0", "--format", "json", "--cache", str(roster.parent / cache)]
    command += extra
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def refused(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def cut_after(body: bytes, thread, page_no: int, kept: int) -> bytes:
    """A thread page cut after ``kept`` of its posts and closed again with its footer."""
    per_page = thread.per_page
    cut = thread.shown()[(page_no - 1) * per_page + kept][1].pid
    text = body.decode("utf-8")
    start = text.index(f'<div id="post_{cut}"')
    return (text[:start] + text[text.index('<div id="postlistreply"') :]).encode("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("api", ["closed", "absent"])
def test_killmod_refuses_a_thread_page_cut_short_with_its_footer(serve_site, roster, api):
    thread = replace(demo_thread(), keeps_positions=False)
    board = whole_board(thread, api=api)

    def site(path: str) -> Response:
        answer = board(path)
        if path == page_path(2):
            return replace(answer, body=cut_after(answer.body, thread, 2, 5))
        return answer

    base = serve_site(site)
    done = killmod_tally(base + VIEWTHREAD, roster)
    refused(done, "第 2 页不完整", "缺少第 16–20 楼", base + page_path(2))


@pytest.mark.slow
def test_killmod_refuses_a_stale_first_page_missing_3_posts(serve_site, roster):
    thread = replace(demo_thread(), keeps_positions=False)
    board = whole_board(thread, api="closed")
    # the first page as an old copy kept it: its last 3 posts missing, its page bar and
    # footer whole (read first and again at the end: both times the same copy)
    stale = cut_after(board(page_path(1)).body, thread, 1, 7)

    def site(path: str) -> Response:
        answer = board(path)
        return replace(answer, body=stale) if path in (VIEWTHREAD, page_path(1)) else answer

    base = serve_site(site)
    refused(killmod_tally(base + VIEWTHREAD, roster), "第 1 页不完整", "缺少第 8–10 楼")


@pytest.mark.slow
def test_killmod_refuses_an_api_answer_cut_short(serve_site, roster):
    site = api_cut_short(whole_board(renumbered()), 25, lambda path: path.startswith(API_PATH))
    base = serve_site(site)
    done = killmod_tally(base + VIEWTHREAD, roster, "--view", "api")
    refused(done, "第 1 页不完整", "29 个回复", "第 26–30 楼", api_path(DEMO_TID, ppp=1000))
    # the plan does not present the rest as the thread: auto reads the thread pages instead
    auto = killmod_tally(base + VIEWTHREAD, roster)
    assert auto.returncode == 0, auto.stderr
    doc = json.loads(auto.stdout)
    assert doc["source"]["posts"] == 30 and doc["source"]["views"][0]["view"] == "pages"
    assert "第 1 页不完整" in doc["source"]["views"][0]["why"]


def renumbered() -> FakeThread:
    """The demo thread on X3.4 after its moderator's deletion: floors counted."""
    return replace(demo_thread(), keeps_positions=False, positions_dropped=True)


def api_cut_short(board: Site, keep: int, cut: Callable[[str], bool]) -> Site:
    """``board`` with the mobile API's answers to the paths ``cut`` picks holding only the
    first ``keep`` posts of their ``postlist``."""

    def site(path: str) -> Response:
        answer = board(path)
        if cut(path):
            document = json.loads(answer.body)
            del document["Variables"]["postlist"][keep:]
            return replace(answer, body=json.dumps(document).encode())
        return answer

    return site


@pytest.mark.slow
def test_killmod_refuses_a_first_api_page_short_of_its_size(serve_site, roster):
    thread = renumbered()
    board = whole_board(thread, threadcaches=True)  # pages of 10 for a guest
    first = api_path(DEMO_TID, ppp=1000, page=1)
    base = serve_site(api_cut_short(board, 7, lambda path: path == first))
    done = killmod_tally(base + VIEWTHREAD, roster, "--view", "api")
    refused(done, "第 1 页不完整", "缺少第 8–10 楼")


@pytest.mark.slow
def test_killmod_refuses_a_first_api_page_older_than_the_later_ones(serve_site, roster):
    thread = renumbered()
    board = whole_board(thread, threadcaches=True)
    older = replace(thread, posts=thread.posts[:-3])  # before the last 3 posts were made
    stale = render_api_page(older, 1, ppp=10)
    first = api_path(DEMO_TID, ppp=1000, page=1)
    again = api_path(DEMO_TID, ppp=10, page=1)
    asked: list[str] = []

    def site(path: str) -> Response:
        asked.append(path)
        return replace(board(path), body=stale) if path in (first, again) else board(path)

    base = serve_site(site)
    done = killmod_tally(base + VIEWTHREAD, roster, "--view", "api")
    refused(done, "第 1 页是旧的", "26 个回复", "其他页显示 29 个")
    assert asked.count(again) == 1  # read once more before it is refused


@pytest.mark.slow
def test_killmod_reads_pages_around_a_deletion_and_refuses_pages_that_never_agree(
    serve_site, roster
):
    thread = renumbered()
    before = replace(thread, posts=list(thread.posts))
    board = whole_board(thread, threadcaches=True)
    asked: list[str] = []

    def deleting(path: str) -> Response:
        asked.append(path)
        if len(asked) == 2:  # between page 1 and the others: a moderator deletes floor 4
            thread.posts[3] = replace(thread.posts[3], deleted=True)
        return board(path)

    base = serve_site(deleting)
    done = killmod_tally(base + VIEWTHREAD, roster, "--view", "api")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["source"]["posts"] == 29
    assert len(asked) == 1 + 2 + 3  # page 1, pages 2–3, then all three again at 10 a page

    older = render_api_page(before, 2, ppp=10)  # page 2 as a cache kept it, before the deletion
    stuck = api_path(DEMO_TID, ppp=10, page=2)

    def stale(path: str) -> Response:
        answer = board(path)
        return replace(answer, body=older) if path == stuck else answer

    base = serve_site(stale)
    refused(killmod_tally(base + VIEWTHREAD, roster, "--view", "api"), "不是同一时刻")


@pytest.mark.slow
def test_killmod_counts_a_renumbered_thread_after_a_deletion(serve_site, roster):
    """The real X3.4 after a moderator's deletion: floors counted, the pid gone."""
    for api in ("open", "closed"):
        base = serve_site(whole_board(replace(demo_thread(), keeps_positions=False), api=api))
        done = killmod_tally(base + VIEWTHREAD, roster, cache=api)
        assert done.returncode == 0, done.stderr
        doc = json.loads(done.stdout)
        assert doc["source"]["posts"] == 30 and doc["outcome"]["seat"] == 5


@pytest.mark.slow
def test_killmod_refuses_api_pages_showing_one_post_twice(serve_site, roster):
    """Two pages agreeing on the thread's counts, yet one post on both: two moments."""
    thread = renumbered()
    board = whole_board(thread, threadcaches=True)
    second = api_path(DEMO_TID, ppp=10, page=2)

    def site(path: str) -> Response:
        answer = board(path)
        if path == second:
            document = json.loads(answer.body)
            document["Variables"]["postlist"][0]["pid"] = str(thread.posts[9].pid)
            return replace(answer, body=json.dumps(document).encode())
        return answer

    base = serve_site(site)
    done = killmod_tally(base + VIEWTHREAD, roster, "--view", "api")
    refused(done, "第 1 页和第 2 页都有帖子", "10 楼和 11 楼")
