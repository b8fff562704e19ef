"""The board's clock is the truth: its zone, its summer time, its ``Date`` (issue 25.1).

Each case runs the real command against a local board (``tests.support``'s Discuz! X3.4
pages and fake board on 127.0.0.1): a judge whose account shows times in another zone
than the game's, a page that does not say its zone among pages that do, the views that
never say it (printable, archiver, the API's edit notices), the 站内短信 inbox in UTC, a
deadline that a summer-time change makes ambiguous, and a ``Date`` header no clock agrees
with.  The headline cases also run ``killmod`` in its own process (marked slow).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.fetch.http import load_cookies
from killmod.game.store import Game
from tests.support.boardgames import BoardGame, board_game, from_pm
from tests.support.gamefiles import JUDGE, TID, vote_thread
from tests.support.gamesteps import console
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
    discuz_x_site,
)
from tests.support.pagebuilder_api import whole_board
from tests.support.pagebuilder_more import discuz_x_archiver_site, with_time_style

GMT7 = timezone(timedelta(hours=7))  # a judge abroad: his account shows times in GMT+7
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"


@dataclass
class Outcome:
    """What a command did: its exit code, the post (stdout) and the notes (stderr)."""

    code: int
    stdout: str
    stderr: str


def in_process(*args: object) -> Outcome:
    """``killmod`` run by click's runner, in this process."""
    done = CliRunner().invoke(main, [str(arg) for arg in args])
    return Outcome(done.exit_code, done.stdout, done.stderr)


def own_process(*args: object) -> Outcome:
    """The installed ``killmod`` program in its own process, as a judge runs it."""
    done = console(*args)
    return Outcome(done.returncode, done.stdout, done.stderr)


RUNNERS = [
    pytest.param(in_process, id="in-process"),
    pytest.param(own_process, id="own-process", marks=pytest.mark.slow),
]


def tally(run: Callable[..., Outcome], source: str, roster: Path, *extra: object) -> Outcome:
    return run(
        "tally",
        source,
        "--roster",
        roster,
        "--deadline",
        "2019-05-12 22:00",
        "--delay",
        0,
        "--format",
        "json",
        *extra,
    )


def counted(done: Outcome) -> dict:
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)


def refused(done: Outcome, *words: str) -> str:
    assert done.code == 1, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, done.stderr
    return done.stderr


def shown_in(thread: FakeThread, zone) -> FakeThread:
    """The same thread as a reader whose account is set to ``zone`` sees it."""
    return replace(thread, now=thread.now.astimezone(zone))


def verdicts(doc: dict) -> list[tuple]:
    return [(v["floor"], v["verdict"], v["posted_at"]) for v in doc["verdicts"]]


# --- a judge whose account shows another zone -------------------------------------------------


def as_judge(game: BoardGame, url: str) -> str:
    """The page at ``url`` as the judge's browser gets it (his cookies)."""
    return requests.get(url, cookies=load_cookies(game.cookies), timeout=10).text


@pytest.fixture
def game(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", dict.fromkeys(range(1, 9), "水民"))


def late_ballot_thread() -> FakeThread:
    """Seats 1–3 vote 5 before the deadline; seat 4 votes 6 at 22:00:30, after it."""
    rows = [(seat, f"21:5{seat}:00", "投5号") for seat in (1, 2, 3)]
    return vote_thread([*rows, (4, "22:00:30", "投6号")])


@pytest.mark.parametrize("run", RUNNERS)
def test_a_judge_whose_account_shows_gmt7_gets_the_boards_moments(game: BoardGame, run):
    game.board.add_thread(late_ballot_thread())
    game.board.members[JUDGE[1]].zone = GMT7  # the judge's 时区 setting on the board
    page = as_judge(game, game.thread_url(TID))
    assert "GMT+7, " in page and "2024-3-1 21:00:30" in page  # what he sees: 21:00:30
    done = run(
        "tally",
        game.thread_url(TID),
        "--db",
        game.db,
        "--deadline",
        "2024-03-01 22:00",
        "--cookies",
        game.cookies,
        "--format",
        "json",
    )
    doc = counted(done)
    late = [v for v in doc["verdicts"] if v["author"] == "玩家4"]
    assert [(v["verdict"], v["posted_at"]) for v in late] == [("late", "2024-03-01T22:00:30+08:00")]
    assert (doc["outcome"]["kind"], doc["outcome"]["seat"]) == ("eliminated", 5)


def test_every_view_of_a_gmt7_board_reads_the_moments_the_gmt8_board_shows(
    serve_site, roster: Path
):
    same = counted(tally(in_process, serve_site(whole_board(demo_thread())) + VIEWTHREAD, roster))
    shifted = serve_site(whole_board(shown_in(demo_thread(), GMT7)))
    for view in ("auto", "pages", "printable"):
        asked = len(shifted.server.requests)
        doc = counted(tally(in_process, shifted + VIEWTHREAD, roster, "--view", view))
        if view == "auto":  # version 1's answer shows its zone beside its seconds: its edit
            # notice (floor 17's, shown at 15:20 in GMT+7) is placed without a page read for it
            assert [v["view"] for v in doc["source"]["views"]] == ["api"]
            assert verdicts(doc) == verdicts(same)
            assert len(shifted.server.requests) - asked == 1
        assert doc["counts"] == same["counts"] and doc["outcome"] == same["outcome"]


def test_where_version_1_is_refused_the_printable_view_is_read_in_the_apis_zone(
    serve_site, roster: Path
):
    same = counted(tally(in_process, serve_site(whole_board(demo_thread())) + VIEWTHREAD, roster))
    shifted = serve_site(whole_board(shown_in(demo_thread(), GMT7), api="v1_refused"))
    doc = counted(tally(in_process, shifted + VIEWTHREAD, roster))
    # version 4 shows no edit notice: the printable view's (GMT+7, no zone of its own) is
    # read in the zone the API's answer showed, no view disagrees, none falls back
    assert [v["view"] for v in doc["source"]["views"]] == ["api", "printable"]
    assert verdicts(doc) == verdicts(same)
    assert [path.split("?")[0] for path in shifted.server.requests] == [
        "/api/mobile/index.php",  # version 1: module_not_exists
        "/api/mobile/index.php",  # version 4
        "/forum.php",  # the printable view, no page read for the zone
    ]
    assert "action=printable" in shifted.server.requests[-1]


def test_an_api_page_with_an_edit_notice_is_placed_by_the_zone_another_page_showed(
    serve_site, roster: Path
):
    # A guest capped at 10 posts a page: floor 17's edit notice is on page 2, whose times
    # show no clock ("5 小时前"); page 4 holds the newest post, which lastpost shows.
    same = counted(tally(in_process, serve_site(whole_board(demo_thread())) + VIEWTHREAD, roster))
    shifted = serve_site(whole_board(shown_in(demo_thread(), GMT7), threadcaches=True))
    doc = counted(tally(in_process, shifted + VIEWTHREAD, roster))
    assert verdicts(doc) == verdicts(same)
    assert all(path.startswith("/api/mobile/") for path in shifted.server.requests)
    assert len(shifted.server.requests) == 4


def test_an_api_read_that_shows_no_zone_reads_the_thread_page_for_it_once(serve_site, roster: Path):
    site = whole_board(shown_in(demo_thread(), GMT7), threadcaches=True)

    def no_lastpost(path: str) -> Response:  # no answer shows a clock beside its seconds
        response = site(path)
        if path.startswith("/api/mobile/"):
            return replace(
                response, body=re.sub(rb'"lastpost":"[^"]*"', b'"lastpost":""', response.body)
            )
        return response

    same = counted(tally(in_process, serve_site(whole_board(demo_thread())) + VIEWTHREAD, roster))
    base = serve_site(no_lastpost)
    doc = counted(tally(in_process, base + VIEWTHREAD, roster))
    assert verdicts(doc) == verdicts(same)
    assert base.server.requests.count(VIEWTHREAD) == 1  # its footer says GMT+7, once
    assert len(base.server.requests) == 5


def test_the_archiver_alone_reads_its_boards_zone_from_the_thread_page(serve_site, roster):
    ours = counted(
        tally(in_process, serve_site(discuz_x_archiver_site(demo_thread())) + ARCHIVER, roster)
    )
    asked: list[str] = []
    site = discuz_x_archiver_site(shown_in(demo_thread(), GMT7))

    def logged(path: str) -> Response:
        asked.append(path)
        return site(path)

    doc = counted(tally(in_process, serve_site(logged) + ARCHIVER, roster))
    assert verdicts(doc) == verdicts(ours)
    assert asked.count(VIEWTHREAD) == 1  # its footer says GMT+7, once


ARCHIVER = f"/archiver/?tid-{DEMO_TID}.html"


def without_zone(site, page: int):
    """``site`` with the footer's zone taken out of thread page ``page`` (a proxy's rewrite)."""

    def serve(path: str) -> Response:
        response = site(path)
        if path.endswith(f"&page={page}"):
            body = re.sub(rb"GMT[+-]?\d*, ", b"", response.body)
            return replace(response, body=body)
        return response

    return serve


def test_a_page_that_does_not_say_its_zone_among_pages_that_do_is_refused(serve_site, roster):
    base = serve_site(without_zone(discuz_x_site(demo_thread()), 2))
    stderr = refused(tally(in_process, base + VIEWTHREAD, roster, "--view", "pages"))
    assert "没有注明时间是哪个时区的" in stderr and "UTC+08:00" in stderr
    assert "page=2" in stderr or "第 2 页" in stderr


def test_a_board_that_says_its_zone_nowhere_is_read_in_the_games(serve_site, roster):
    site = discuz_x_site(with_time_style(demo_thread(), "absolute"))

    def no_zone_at_all(path: str) -> Response:
        response = site(path)
        return replace(response, body=re.sub(rb"GMT[+-]?\d*, ", b"", response.body))

    ours = counted(tally(in_process, serve_site(site) + VIEWTHREAD, roster, "--view", "pages"))
    doc = counted(
        tally(in_process, serve_site(no_zone_at_all) + VIEWTHREAD, roster, "--view", "pages")
    )
    assert verdicts(doc) == verdicts(ours)


# --- the inbox on the judge's clock -------------------------------------------------------------

NIGHT_ROLES = {
    seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)
}


def night_from_pm(run, game: BoardGame, *more: object) -> Outcome:
    return run(*from_pm(game.game_url), "--cookies", game.cookies, "--db", game.db, *more)


@pytest.mark.parametrize("run", RUNNERS)
def test_the_inbox_shown_in_utc_gives_the_nights_letters(tmp_path: Path, serve_site, run):
    game = board_game(tmp_path, serve_site, "1.2", NIGHT_ROLES)
    game.board.members[JUDGE[1]].zone = UTC  # the judge's account shows UTC
    for seat in (1, 2, 3):
        game.player_writes(seat, "杀 7号", datetime(2019, 5, 12, 23, seat, tzinfo=SHANGHAI))
    inbox = as_judge(game, f"{game.base}/home.php?mod=space&do=pm&filter=privatepm")
    assert "GMT, " in inbox and "2019-5-12 15:01" in inbox  # UTC, as the page says
    done = night_from_pm(run, game, "--yes", "--early")
    assert done.code == 0, done.stderr
    assert "读到 3 条站内短信，采用 3 条" in done.stderr
    with Game.open(game.db) as opened:
        (night,) = opened.events("night")
    assert night.data["kill"] == 7
    private = next((game.db.parent / "game-private").glob("night1-inbox*"))
    text = private.read_text(encoding="utf-8")
    assert "本夜从 2019-05-12 22:00:00 到 2019-05-13 08:00:00" in text
    assert "2019-05-12 23:01" in text  # each letter in the game's zone, to the minute


def test_an_inbox_page_that_does_not_say_its_zone_among_pages_that_do_is_refused(
    tmp_path: Path, serve_site
):
    game = board_game(tmp_path, serve_site, "1.2", NIGHT_ROLES)
    game.player_writes(1, "杀 7号", datetime(2019, 5, 12, 23, 1, tzinfo=SHANGHAI))
    board = game.board

    class Proxy:
        """The board behind a proxy that strips the zone from a conversation's page."""

        def handle(self, method: str, path: str, headers: dict, body: bytes) -> Response:
            response = board.handle(method, path, headers, body)
            if "subop=view" in path:
                return replace(response, body=re.sub(rb"GMT[+-]?\d*, ", b"", response.body))
            return response

    proxy = Proxy()
    board_url = serve_site(proxy)
    done = in_process(
        *from_pm(f"{board_url}/forum.php?mod=viewthread&tid=9200"),
        "--cookies",
        game.cookies,
        "--db",
        game.db,
        "--yes",
        "--early",
    )
    assert done.code != 0
    assert "没有注明时间是哪个时区的" in done.stderr and "UTC+08:00" in done.stderr
    with Game.open(game.db) as opened:
        assert opened.events("night") == []


# --- a deadline summer time makes ambiguous or skips ------------------------------------------


@pytest.fixture
def new_york(tmp_path: Path) -> Path:
    path = tmp_path / "ny.toml"
    path.write_text(
        DEMO_ROSTER_TOML.replace('timezone = "Asia/Shanghai"', 'timezone = "America/New_York"'),
        encoding="utf-8",
    )
    assert 'timezone = "America/New_York"' in path.read_text(encoding="utf-8")
    return path


def fall_back_thread() -> FakeThread:
    """A vote on the night New York's clocks go back: 01:30 is shown twice."""
    ny = timezone(timedelta(hours=-4))
    opening = datetime(2019, 11, 2, 20, 0, tzinfo=ny)
    first = datetime(2019, 11, 3, 5, 20, tzinfo=UTC)  # 01:20 EDT
    second = datetime(2019, 11, 3, 6, 10, tzinfo=UTC)  # 01:10 EST: after the first 01:30
    posts = [
        FakePost(1, "法官大人", 100, opening, "投票帖", time_style="absolute"),
        FakePost(2, "meer", 2000, first, "投5号", time_style="absolute"),
        FakePost(3, "阿狸", 2001, second, "投7号", time_style="absolute"),
    ]
    return FakeThread(8801, "投票帖", posts, datetime(2019, 11, 3, 9, 0, tzinfo=UTC))


@pytest.mark.parametrize("run", RUNNERS)
def test_a_deadline_summer_time_makes_ambiguous_is_refused_naming_both(serve_site, new_york, run):
    url = serve_site(discuz_x_site(fall_back_thread())) + "/forum.php?mod=viewthread&tid=8801"
    args = ("tally", url, "--roster", new_york, "--delay", 0, "--format", "json")
    done = run(*args, "--deadline", "2019-11-03 01:30")
    assert done.code == 2, done.stderr
    assert done.stdout == ""
    for words in ("出现两次", "2019-11-03 01:30 -04:00", "2019-11-03 01:30 -05:00", "UTC 05:30"):
        assert words in done.stderr, done.stderr
    first = counted(Outcome(*_triple(run(*args, "--deadline", "2019-11-03 01:30 -04:00"))))
    second = counted(Outcome(*_triple(run(*args, "--deadline", "2019-11-03 01:30 -05:00"))))
    assert {v["author"]: v["verdict"] for v in first["verdicts"]}["阿狸"] == "late"
    assert {v["author"]: v["verdict"] for v in second["verdicts"]}["阿狸"] == "counted"
    assert first["deadline"] == "2019-11-03T01:30:00-04:00"


def _triple(done: Outcome) -> tuple[int, str, str]:
    return done.code, done.stdout, done.stderr


def test_a_deadline_the_clock_skips_is_refused(serve_site, new_york):
    url = serve_site(discuz_x_site(fall_back_thread())) + "/forum.php?mod=viewthread&tid=8801"
    done = in_process("tally", url, "--roster", new_york, "--deadline", "2019-03-10 02:30")
    assert done.code == 2
    assert "跳过了 2019-03-10 02:30" in done.stderr and "-05:00" in done.stderr


# --- the HTTP Date ------------------------------------------------------------------------------

PROXY_DATE = format_datetime(datetime(1998, 5, 12, 14, 10, tzinfo=UTC), usegmt=True)


def dated(site, date: str, where: Callable[[str], bool] = lambda path: True):
    """``site`` behind a proxy that answers the paths ``where`` picks with its own ``Date``."""

    def serve(path: str) -> Response:
        response = site(path)
        if where(path):
            return replace(response, headers={**response.headers, "Date": date})
        return response

    return serve


def seconds_ago_thread(now: datetime) -> FakeThread:
    """A ballot shown only as "50 秒前" (no exact time in a title) on a board at ``now``."""
    posts = [
        FakePost(1, "法官大人", 100, now - timedelta(hours=2), "投票帖", time_style="absolute"),
        FakePost(2, "meer", 2000, now - timedelta(seconds=50), "投5号", time_style="relative_bare"),
    ]
    return FakeThread(8301, "投票帖", posts, now)


@pytest.mark.parametrize("run", RUNNERS)
def test_a_date_from_1998_that_the_pages_clock_denies_is_refused_naming_both(
    serve_site, roster, run
):
    thread = seconds_ago_thread(datetime(2019, 5, 12, 22, 0, 30, tzinfo=SHANGHAI))
    url = (
        serve_site(dated(discuz_x_site(thread), PROXY_DATE)) + "/forum.php?mod=viewthread&tid=8301"
    )
    stderr = refused(tally(run, url, roster, "--view", "pages"))
    assert "HTTP Date（1998-05-12 22:10:00）" in stderr
    assert "页脚上论坛自己的时钟（2019-05-12 22:00:00）" in stderr and "50 秒前" in stderr


def test_the_boards_date_agreeing_with_its_footer_counts_to_the_second(serve_site, roster):
    thread = seconds_ago_thread(datetime(2019, 5, 12, 22, 0, 30, tzinfo=SHANGHAI))
    url = serve_site(discuz_x_site(thread)) + "/forum.php?mod=viewthread&tid=8301"
    doc = counted(tally(in_process, url, roster, "--view", "pages"))
    (ballot,) = [v for v in doc["verdicts"] if v["author"] == "meer"]
    assert (ballot["verdict"], ballot["posted_at"]) == ("counted", "2019-05-12T21:59:40+08:00")


TINY_PROFILE = """
name = "tiny"
url_pattern = "/tiny/"
post = "div.post"
pid = { attribute = "id", regex = 'p(\\d+)' }
author = "span.who"
time = "span.when"
time_format = "board"
body = "div.text"
end = "#foot"
"""


def tiny_board(now: datetime, date: str | None = None):
    """A board no format knows (read by a profile): its page shows no clock of its own, and
    a ballot only as "50 秒前"; its HTTP ``Date`` is ``now`` unless ``date`` says otherwise."""
    page = (
        '<html><head><meta charset="utf-8"></head><body>'
        '<div class="post" id="p1"><span class="who">法官大人</span>'
        '<span class="when">2019-05-12 09:00</span><div class="text">投票帖</div></div>'
        '<div class="post" id="p2"><span class="who">meer</span>'
        '<span class="when">50 秒前</span><div class="text">投5号</div></div>'
        '<div id="foot"></div></body></html>'
    ).encode()
    headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Date": date or format_datetime(now.astimezone(UTC), usegmt=True),
    }
    return lambda path: Response(200, headers, page)


def tiny_tally(base: str, roster: Path, now: datetime) -> Outcome:
    profile = roster.parent / "tiny.toml"
    profile.write_text(TINY_PROFILE, encoding="utf-8")
    return in_process(
        "tally",
        base + "/tiny/1",
        "--roster",
        roster,
        "--profile",
        profile,
        "--deadline",
        f"{now:%Y-%m-%d %H:%M:%S}",
        "--format",
        "json",
        "--delay",
        0,
    )


def test_a_page_without_a_clock_believes_a_date_that_agrees_with_ours(serve_site, roster):
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    doc = counted(tiny_tally(serve_site(tiny_board(now)), roster, now))
    (ballot,) = [v for v in doc["verdicts"] if v["author"] == "meer"]
    assert ballot["posted_at"] == (now - timedelta(seconds=50)).isoformat()


def test_a_page_without_a_clock_refuses_a_date_that_ours_denies(serve_site, roster):
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    done = tiny_tally(serve_site(tiny_board(now, PROXY_DATE)), roster, now)
    stderr = refused(done, "HTTP Date（1998-05-12 22:10:00）", "本机收到回答时的时钟", "50 秒前")
    assert "页面上也没有论坛自己的时钟可以核对" in stderr


def test_a_view_without_a_clock_is_checked_against_the_boards_clock_on_its_other_pages(
    serve_site, roster
):
    # The board's clock is years from ours (the demo board runs in 2019): its thread page
    # shows it twice (Date and footer), and the archiver's Date must agree with that.
    thread = seconds_ago_thread(datetime(2019, 5, 12, 22, 0, 30, tzinfo=SHANGHAI))
    archiver = "/archiver/?tid-8301.html"
    fine = serve_site(discuz_x_archiver_site(thread))
    doc = counted(tally(in_process, fine + archiver, roster))
    (ballot,) = [v for v in doc["verdicts"] if v["author"] == "meer"]
    assert ballot["posted_at"] == "2019-05-12T21:59:40+08:00"
    proxied = dated(discuz_x_archiver_site(thread), PROXY_DATE, lambda p: "/archiver/" in p)
    stderr = refused(tally(in_process, serve_site(proxied) + archiver, roster))
    assert re.search(r"论坛在其他页面上显示的时钟（此刻应为 2019-05-12 22:00:[23]\d）", stderr)


# --- what each page says about its zone -------------------------------------------------------


@pytest.mark.parametrize("version", [1, 4])
@pytest.mark.parametrize("zone", [GMT7, UTC, timezone(timedelta(hours=5, minutes=45))])
def test_an_api_answer_shows_its_zone_beside_its_unix_times(zone, version: int):
    from killmod.core.times import BoardClock
    from scrapers import discuz_x_mobile
    from scrapers.charset import decode_html
    from tests.support.pagebuilder_api import render_api_page

    thread = shown_in(demo_thread(), zone)
    answer = render_api_page(thread, 1, ppp=1000, version=version)
    page = discuz_x_mobile.parse(decode_html(answer), tz=SHANGHAI, clock=BoardClock(thread.now))
    assert page.zone.utcoffset(None) == zone.utcoffset(None)
    (edited,) = [post for post in page.posts if post.floor == 17]
    if version == 4:  # no edit notice: nothing on the board's clock to place
        assert not page.local_times and edited.edited_at is None
    else:  # "本帖最后由 老王 于 … 编辑" on the reader's clock, placed in the zone shown
        assert page.local_times
        assert edited.edited_at == datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI)


def test_an_api_answer_whose_texts_show_no_clock_shows_no_zone():
    from scrapers.discuz_x_mobile_zone import shown_zone

    recent = {
        "author": "meer",
        "number": "2",
        "dbdateline": "1557669600",
        "dateline": "5&nbsp;分钟前",
    }
    thread = {"replies": "1", "lastposter": "阿狸", "lastpost": "2019-5-12 22:00"}
    assert shown_zone(thread, [recent]) is None
    # lastpost agrees with the newest post, by its author: GMT+8, to the minute
    thread["lastposter"] = "meer"
    assert shown_zone(thread, [recent]) == timezone(timedelta(hours=8))
    # an answer of the thread's earlier posts holds not the newest, by the same author
    assert shown_zone({**thread, "replies": "1500"}, [recent]) is None
    # readings that disagree show none
    yesterday = {
        "author": "阿狸",
        "number": "1",
        "dbdateline": "1557580000",
        "dateline": "昨天&nbsp;13:06",
    }
    assert shown_zone(thread, [yesterday, recent]) is None


def test_saved_pages_are_read_in_the_zone_they_declare(tmp_path: Path, roster: Path):
    from tests.support.pagebuilder import render_discuz_x_page

    folders = {"gmt8": demo_thread(), "gmt7": shown_in(demo_thread(), GMT7)}
    for name, thread in folders.items():
        (tmp_path / name).mkdir()
        for n in range(1, thread.page_count + 1):
            (tmp_path / name / f"p{n}.html").write_bytes(render_discuz_x_page(thread, n))
    args = ("--roster", roster, "--deadline", "2019-05-12 22:00", "--format", "json")
    ours, theirs = (counted(in_process("tally", tmp_path / name, *args)) for name in folders)
    assert verdicts(theirs) == verdicts(ours)


@pytest.mark.parametrize(
    ("label", "minutes"),
    [("GMT+8", 480), ("GMT", 0), ("GMT-5", -300), ("GMT-3.5", -210), ("GMT+5.75", 345)],
)
def test_the_footer_names_the_zone_as_discuz_prints_its_timeoffset(label, minutes):
    from scrapers.base import board_clock, declared_zone

    html = f"<p>玩家引用：GMT+9, 2019-5-12 23:00</p><div id='ft'>{label}, 2019-5-12 21:58</div>"
    zone = declared_zone(html)
    assert zone.utcoffset(None) == timedelta(minutes=minutes)  # the footer's, not the post's
    assert board_clock(html) == datetime(2019, 5, 12, 21, 58, tzinfo=zone)
    assert declared_zone("<p>no footer</p>") is None
