"""The read plan: a Discuz! X thread in the fewest requests, the same tally whichever plan.

One board (``pagebuilder_api.whole_board``) serves one thread as thread pages, printable
view, archiver and mobile API (version 1 and version 4); ``--view`` and what the board
offers pick the plan, and each must give the same count, ballot by ballot, on a thread with
an edited ballot, a quote, a banned author, a moderator's deletion (floors renumbered),
relative times and ballots at 22:00:00 and 22:00:01.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import scrapers.discuz_x as discuz_x
import scrapers.discuz_x_mobile as discuz_x_mobile
import scrapers.discuz_x_printable as discuz_x_printable
from killmod.commands.cli import main
from tests.support.gamethread import (
    GAME_TID,
    ROUND1_END,
    ROUND2_END,
    game_thread,
    new_game,
    record_deadlines,
    round2_rows,
)
from tests.support.pagebuilder import (
    DEMO_TID,
    SHANGHAI,
    FakePost,
    Response,
    big_roster_toml,
    big_thread,
    demo_thread,
)
from tests.support.pagebuilder_api import COOKIEPRE, Viewer, api_path, whole_board

VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
PRINTABLE = f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}"
API = api_path(DEMO_TID, ppp=1000, page=1)
API_V4 = api_path(DEMO_TID, ppp=1000, page=1, version=4)


def tally(url: str, roster: Path, *extra: str, fmt: str = "json", cache: Path | None = None):
    args = [url, "--roster", str(roster), "--deadline", "22:00", "--delay", "0"]
    args += ["--cache", str(cache or roster.parent / "cache"), "--format", fmt, *extra]
    return CliRunner().invoke(main, ["tally", *args])


def counted(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def renumbered_demo():
    """The demo vote thread after a moderator's deletion on X3.4: later floors move up."""
    return replace(demo_thread(), keeps_positions=False)


def decisions(doc: dict) -> dict:
    """What a tally decides, without where each fact came from (a view without pids or
    floors, the printable one, is compared by posting order)."""
    return {
        # sorted: a time known only to the hour ("9 小时前" on a page) may sort elsewhere
        "verdicts": sorted(
            (v["author"], v["verdict"], v["kind"], v["target"], _notes(v)) for v in doc["verdicts"]
        ),
        "ballots": [(b["seat"], b["kind"], b["target"]) for b in doc["ballots"]],
        "counts": doc["counts"],
        "outcome": doc["outcome"],
        "changes": [(c["seat"], c["from"], c["to"]) for c in doc["changes"]],
        "rejected": [(r["author"], r["reason"]) for r in doc["rejected"]],
        "warnings": doc["warnings"],
        "flags": [
            (f["seat"], f["reason"]) for f in doc["flags"] if f["reason"] != "time_ambiguous"
        ],
    }


def _notes(verdict: dict) -> list[str]:
    """A verdict's notes but where its seconds came from (the archiver, for a view with
    minutes only)."""
    return [note for note in verdict["notes"] if note != "settled_by_archiver"]


def identities(doc: dict) -> list:
    return sorted((v["pid"], v["floor"], v["author"], v["verdict"]) for v in doc["verdicts"])


def views(doc: dict) -> list[str]:
    return [view["view"] for view in doc["source"]["views"]]


# --- the fewest requests ------------------------------------------------------------------------


def test_a_vote_thread_is_read_in_one_request_with_edits_and_seconds(serve_site, roster):
    base = serve_site(whole_board(demo_thread()))
    doc = counted(tally(base + VIEWTHREAD, roster))
    assert base.server.requests == [API]
    assert views(doc) == ["api"]
    assert {v["posted_at"][11:] for v in doc["verdicts"] if v["author"] == "白开水"} >= {
        "22:00:00+08:00"
    }
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}
    edited = [v for v in doc["verdicts"] if v["verdict"] == "edited"]
    assert [(v["author"], v["floor"]) for v in edited] == [("老王", 17)]


def test_the_audit_says_which_views_were_read_and_why(serve_site, roster):
    base = serve_site(whole_board(demo_thread()))
    audit = tally(base + VIEWTHREAD, roster, fmt="audit")
    assert audit.exit_code == 0, audit.output
    read = [line for line in audit.stdout.splitlines() if line.startswith("读取：")]
    assert len(read) == 1 and read[0].startswith("读取：手机接口 1 页——")
    assert "第 1 版" in read[0] and "精确到秒" in read[0] and "编辑记录" in read[0]


def test_a_2000_post_thread_takes_two_requests(serve_site, tmp_path):
    thread = big_thread(200)
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    base = serve_site(whole_board(thread))
    doc = counted(tally(f"{base}/forum.php?mod=viewthread&tid={thread.tid}", roster))
    asked = [api_path(thread.tid, ppp=1000, page=n) for n in (1, 2)]
    assert base.server.requests == asked
    assert doc["source"]["posts"] == 2000 and views(doc) == ["api"]


@pytest.mark.parametrize(
    ("api", "why"),
    [
        ("closed", "mobile_is_closed"),
        ("absent", "HTTP 404"),
        ("disabled", "网页而不是 JSON"),
    ],
)
def test_a_board_without_the_api_is_read_from_its_pages(serve_site, roster, api, why):
    base = serve_site(whole_board(demo_thread(), api=api))
    doc = counted(tally(base + VIEWTHREAD, roster))
    assert base.server.requests[0] == API
    assert all(not path.startswith("/api/") for path in base.server.requests[1:])
    assert views(doc) == ["pages"]
    said = doc["source"]["views"][0]["why"]
    assert "手机接口不可用" in said and "改读帖子页" in said and why in said
    assert doc["outcome"]["seat"] == 5


def test_a_board_that_refuses_version_1_is_read_from_version_4_and_the_printable_view(
    serve_site, roster
):
    base = serve_site(whole_board(demo_thread(), api="v1_refused"))
    doc = counted(tally(base + VIEWTHREAD, roster))
    assert base.server.requests == [API, API_V4, PRINTABLE]
    assert views(doc) == ["api", "printable"]
    said = doc["source"]["views"][0]["why"]
    assert "第 1 版" in said and "module_not_exists" in said and "第 4 版" in said
    edited = [v for v in doc["verdicts"] if v["verdict"] == "edited"]
    assert [(v["author"], v["floor"]) for v in edited] == [("老王", 17)]
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}


def test_only_the_thread_pages_holding_later_ballots_are_read(serve_site, tmp_path):
    """Where version 4 is all the board answers: a 200-post thread whose posts after the
    100th are chatter but for two ballots — the API, the printable view (posts 1–100) and
    the two thread pages holding those ballots."""
    thread = big_thread(20)
    for index in range(100, 200):
        post = thread.posts[index]
        thread.posts[index] = replace(post, author="路人", uid=9000, body="围观")
    ballot = thread.posts[136]  # floor 137: page 14
    thread.posts[136] = replace(ballot, author="玩家03", uid=5003, body="投 5号")
    edited = thread.posts[184]  # floor 185: page 19, edited
    thread.posts[184] = replace(
        edited,
        author="玩家04",
        uid=5004,
        body="投 6号",
        edited_at=edited.posted_at.replace(hour=21, minute=59),
    )
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    base = serve_site(whole_board(thread, api="v1_refused"))
    url = f"{base}/forum.php?mod=viewthread&tid={thread.tid}"
    doc = counted(tally(url, roster))
    assert base.server.requests == [
        api_path(thread.tid, ppp=1000, page=1),
        api_path(thread.tid, ppp=1000, page=1, version=4),
        f"/forum.php?mod=viewthread&action=printable&tid={thread.tid}",
        f"/forum.php?mod=viewthread&tid={thread.tid}&page=14",
        f"/forum.php?mod=viewthread&tid={thread.tid}&page=19",
    ]
    assert views(doc) == ["api", "printable", "pages"]
    by_floor = {v["floor"]: v for v in doc["verdicts"]}
    assert by_floor[185]["verdict"] == "edited"
    pages = counted(tally(url, roster, "--view", "pages", cache=tmp_path / "other"))
    assert decisions(doc) == decisions(pages)
    assert identities(doc) == identities(pages)
    plain = serve_site(whole_board(thread))  # a board answering version 1: one request
    url = f"{plain}/forum.php?mod=viewthread&tid={thread.tid}"
    one = counted(tally(url, roster, cache=tmp_path / "v1"))
    assert decisions(one) == decisions(doc) and views(one) == ["api"]


def test_a_thread_whose_later_posts_need_no_edits_is_not_read_past_the_api(serve_site, tmp_path):
    thread = big_thread(20)
    thread.posts[100:] = [
        replace(p, author="路人", uid=9000, body="围观") for p in thread.posts[100:]
    ]
    for index in range(1, 100):  # the first hundred: chatter too
        thread.posts[index] = replace(thread.posts[index], author="路人", uid=9000, body="围观")
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    base = serve_site(whole_board(thread, api="v1_refused"))
    doc = counted(tally(f"{base}/forum.php?mod=viewthread&tid={thread.tid}", roster))
    assert base.server.requests == [
        api_path(thread.tid, ppp=1000, page=1),
        api_path(thread.tid, ppp=1000, page=1, version=4),
    ]
    assert views(doc) == ["api"] and "不需要编辑记录" in doc["source"]["views"][0]["why"]


def test_lurkers_read_the_game_thread_from_the_api_alone(serve_site, tmp_path):
    db = new_game(tmp_path)
    record_deadlines(db, ROUND1_END, ROUND2_END)
    base = serve_site(whole_board(game_thread(round2_rows())))
    url = f"{base}/forum.php?mod=viewthread&tid={GAME_TID}"
    args = ["lurkers", url, "--round", "2", "--db", str(db), "--cache", str(tmp_path / "c")]
    result = CliRunner().invoke(main, [*args, "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert base.server.requests == [api_path(GAME_TID, ppp=1000, page=1)]
    pages = CliRunner().invoke(main, [*args, "--delay", "0", "--view", "pages", "--refresh"])
    assert pages.stdout == result.stdout


def test_lurkers_read_again_ask_the_board_from_the_last_answer_they_know(serve_site, tmp_path):
    """A 1,500-post game thread: its first answer of 1,000 posts comes from the cache the
    second time (the judge's own, older by design), the second from the board."""
    db = new_game(tmp_path)
    record_deadlines(db, ROUND1_END, ROUND2_END)
    thread = game_thread(round2_rows({seat: 100 for seat in (1, 2, 3, 4, 5, 7, 8, 9, 10)}))
    thread.posts += [replace(thread.posts[-1], pid=90_000 + n) for n in range(600)]
    base = serve_site(whole_board(thread))
    url = f"{base}/forum.php?mod=viewthread&tid={GAME_TID}"
    args = ["lurkers", url, "--round", "2", "--db", str(db), "--cache", str(tmp_path / "c")]
    first = CliRunner().invoke(main, [*args, "--delay", "0"])
    assert first.exit_code == 0, first.output
    assert len(thread.posts) > 1000 and len(base.server.requests) == 2
    thread.posts.append(replace(thread.posts[-1], pid=99_999))
    base.server.requests.clear()
    again = CliRunner().invoke(main, [*args, "--delay", "0"])
    assert again.exit_code == 0, again.output
    assert base.server.requests == [api_path(GAME_TID, ppp=1000, page=2)]


# --- a forum whose pages are cached for guests (页面缓存) ---------------------------------------


def judge_cookies(tmp_path: Path, value: str) -> Path:
    path = tmp_path / "cookies.txt"
    path.write_text(
        f"# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\t{COOKIEPRE}auth\t{value}\n",
        encoding="utf-8",
    )
    return path


def test_a_guest_capped_by_the_page_cache_reads_the_pages_at_the_boards_size(serve_site, roster):
    base = serve_site(whole_board(demo_thread(), threadcaches=True))
    doc = counted(tally(base + VIEWTHREAD, roster))
    # page 1 says 10 posts a page (asked 1000) and 31 floors: pages 2–4 at that size
    assert base.server.requests[0] == API
    assert sorted(base.server.requests[1:]) == [
        api_path(DEMO_TID, ppp=10, page=n) for n in (2, 3, 4)
    ]
    assert views(doc) == ["api"]
    said = doc["source"]["views"][0]["why"]
    assert "每页只给 10 帖" in said and "页面缓存" in said and "--cookies" in said
    assert doc["source"]["pages"] == 4 and doc["outcome"]["seat"] == 5


def test_with_the_judges_cookies_a_capped_forum_is_read_in_one_request(serve_site, roster):
    members = {"judge-session": Viewer(100, "法官大人")}
    board = whole_board(demo_thread(), threadcaches=True, members=members)
    base = serve_site(board)
    cookies = judge_cookies(roster.parent, "judge-session")
    doc = counted(tally(base + VIEWTHREAD, roster, "--cookies", str(cookies)))
    assert base.server.requests == [API]
    assert "以 --cookies 的登录身份读取" in doc["source"]["views"][0]["why"]
    stale = judge_cookies(roster.parent, "expired")
    again = counted(
        tally(base + VIEWTHREAD, roster, "--cookies", str(stale), cache=roster.parent / "x")
    )
    assert "cookies 可能已失效" in again["source"]["views"][0]["why"]
    assert decisions(again) == decisions(doc)


# --- the same tally whichever plan --------------------------------------------------------------


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
def test_the_same_tally_whichever_plan_reads_it(serve_site, roster, charset):
    done = {}
    plans = {
        "auto": ("open", "auto"),
        "api": ("open", "api"),
        "version 4": ("v1_refused", "auto"),
        "pages": ("open", "pages"),
        "printable": ("open", "printable"),
    }
    for plan, (api, view) in plans.items():
        base = serve_site(whole_board(renumbered_demo(), charset=charset, api=api))
        done[plan] = counted(
            tally(base + VIEWTHREAD, roster, "--view", view, cache=roster.parent / plan)
        )
    for plan in ("api", "version 4", "pages", "printable"):
        assert decisions(done[plan]) == decisions(done["auto"]), plan
    # pids and the renumbered floors agree wherever the view shows them
    assert identities(done["api"]) == identities(done["auto"]) == identities(done["pages"])
    assert identities(done["version 4"]) == identities(done["auto"])
    by_author = {v["author"]: v for v in done["auto"]["verdicts"] if v["verdict"] == "late"}
    assert by_author["花生米"]["floor"] == 26  # 27 before the deletion
    verdicts = {(v["author"], v["verdict"]) for v in done["auto"]["verdicts"]}
    assert {("老王", "edited"), ("广告机器人", "not_player"), ("白开水", "counted")} <= verdicts
    quoting = next(v for v in done["auto"]["verdicts"] if v["author"] == "夜猫子")
    assert (quoting["verdict"], quoting["target"]) == ("counted", 5)
    seconds = {
        plan: sorted(v["posted_at"] for v in doc["verdicts"] if "T22:00:0" in v["posted_at"])
        for plan, doc in done.items()
    }
    # the printable view's minutes are confirmed from the archiver
    assert len({tuple(found) for found in seconds.values()}) == 1
    assert seconds["auto"] == ["2019-05-12T22:00:00+08:00", "2019-05-12T22:00:01+08:00"]
    assert views(done["auto"]) == ["api"]
    assert views(done["version 4"]) == ["api", "printable"]
    assert views(done["printable"]) == ["printable", "archiver"]
    assert views(done["pages"]) == ["pages"]


# --- views that disagree are not mixed ------------------------------------------------------------


def test_a_printable_view_that_disagrees_sends_the_plan_to_the_thread_pages(serve_site, roster):
    thread = demo_thread()
    board = whole_board(thread, api="v1_refused")
    changed = replace(thread, posts=list(thread.posts))
    changed.posts[4] = replace(changed.posts[4], author="冒名者")
    other = whole_board(changed)

    def site(path: str) -> Response:
        return other(path) if "action=printable" in path else board(path)

    base = serve_site(site)
    doc = counted(tally(base + VIEWTHREAD, roster))
    assert views(doc) == ["pages"]
    why = doc["source"]["views"][0]["why"]
    assert "不一致" in why and "打印版第 5 帖" in why and "冒名者" in why
    assert doc["outcome"]["seat"] == 5


def test_a_thread_page_that_disagrees_sends_the_plan_to_the_thread_pages(serve_site, tmp_path):
    thread = big_thread(20)
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    board = whole_board(thread, api="v1_refused")
    moved = replace(thread, posts=list(thread.posts))
    moved.posts[150] = FakePost(999_999, "玩家09", 5009, moved.posts[150].posted_at, "投 1号")
    other = whole_board(moved)

    def site(path: str) -> Response:
        if path.endswith("&page=16"):
            return other(path)
        return board(path)

    base = serve_site(site)
    doc = counted(tally(f"{base}/forum.php?mod=viewthread&tid={thread.tid}", roster))
    assert views(doc) == ["pages"]
    assert (
        "不一致" in doc["source"]["views"][0]["why"]
        and "151 楼" in doc["source"]["views"][0]["why"]
    )


# --- the cache and a warm re-tally --------------------------------------------------------------


def spy(monkeypatch, module) -> list:
    """Count the calls of ``module.parse`` (the real one still runs)."""
    calls = []
    real = module.parse

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "parse", counting)
    return calls


@pytest.mark.parametrize(("view", "parsed_again"), [("auto", 1), ("pages", 0)])
def test_a_warm_retally_of_unchanged_pages_parses_none_of_them(
    serve_site, roster, monkeypatch, view, parsed_again
):
    """Thread pages' posts are kept with them; an API answer is kept as its bytes (its
    1,000 posts parse as fast as they would load), so it alone is read again."""
    base = serve_site(whole_board(demo_thread()))
    calls = [spy(monkeypatch, m) for m in (discuz_x, discuz_x_mobile, discuz_x_printable)]
    cold = counted(tally(base + VIEWTHREAD, roster, "--view", view))
    assert sum(map(len, calls)) > 0
    for made in calls:
        made.clear()
    asked = len(base.server.requests)
    warm = counted(tally(base + VIEWTHREAD, roster, "--view", view))
    assert len(base.server.requests) > asked  # every page fetched afresh…
    assert sum(map(len, calls)) == parsed_again  # …and none parsed again but the API's
    assert warm == cold


def test_a_changed_page_is_parsed_again(serve_site, roster, monkeypatch):
    thread = demo_thread()
    base = serve_site(whole_board(thread))
    counted(tally(base + VIEWTHREAD, roster))
    calls = spy(monkeypatch, discuz_x_mobile)
    thread.posts[27] = replace(thread.posts[27], body="投 5号")  # Tommy, late anyway
    doc = counted(tally(base + VIEWTHREAD, roster))
    assert len(calls) == 1
    assert [v["fragment"] for v in doc["verdicts"] if v["author"] == "Tommy"][-1] != "7号"


# --- following a thread, and what a view applies to ---------------------------------------------


def test_a_poll_reads_the_apis_last_page_and_a_deletion_means_reading_again(serve_site):
    from killmod.fetch.http import Fetcher, FetchOptions
    from killmod.fetch.plan import poll
    from killmod.fetch.thread import read_thread

    thread = replace(demo_thread(), keeps_positions=False, positions_dropped=True)
    thread.posts = [post for post in thread.posts if not post.deleted]
    base = serve_site(whole_board(thread))
    with Fetcher(FetchOptions(delay=0)) as fetcher:
        first = read_thread(base + VIEWTHREAD, tz=SHANGHAI, fetcher=fetcher)
        last = thread.posts[-1]
        thread.posts.append(FakePost(99_001, "meer", 2000, last.posted_at, "投 7号"))
        base.server.requests.clear()
        followed = poll(first, fetcher, tz=SHANGHAI)
        # one small page: the known last floor, 30, on page 2 of 29 a page, 28 places after it
        assert base.server.requests == [api_path(DEMO_TID, ppp=29, page=2)]
        assert [post.pid for post in followed.posts][-1] == 99_001
        assert followed.posts[:-1] == first.posts  # edits read before are kept
        del thread.posts[3]  # a moderator deletes floor 4: every later floor moves up
        assert poll(followed, fetcher, tz=SHANGHAI) is None


def test_a_view_is_for_a_url_not_saved_pages(tmp_path, roster):
    result = CliRunner().invoke(
        main,
        ["tally", str(tmp_path), "--roster", str(roster), "--deadline", "22:00", "--view", "api"],
    )
    assert result.exit_code == 2 and "只用于论坛网址" in result.stderr


def test_view_api_on_another_board_is_bad_usage(serve_site, roster):
    from tests.support.pagebuilder_dz72 import dz72_site

    base = serve_site(dz72_site(demo_thread()))
    result = tally(f"{base}/viewthread.php?tid={DEMO_TID}", roster, "--view", "api")
    assert result.exit_code == 2 and "只用于 Discuz! X 的帖子网址" in result.stderr
