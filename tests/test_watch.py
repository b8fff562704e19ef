"""`killmod watch`: polls with a fake clock, running counts, the final announcement, Ctrl-C."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from click.testing import CliRunner

import killmod.commands.watch as watch_command
from killmod.commands.cli import main
from killmod.core.errors import TallyFailed
from killmod.fetch.http import FetchOptions
from killmod.usecases.tally import tally
from killmod.usecases.watch import watch
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
    discuz_x_site,
    login_page,
)
from tests.support.pagebuilder_api import API_PATH, api_path, whole_board
from tests.support.pagebuilder_more import with_time_style

DEADLINE = datetime(2019, 5, 12, 22, 0, tzinfo=SHANGHAI)


def at(hh_mm_ss: str) -> datetime:
    hour, minute, second = map(int, hh_mm_ss.split(":"))
    return DEADLINE.replace(hour=hour, minute=minute, second=second)


class Board:
    """The demo vote thread up to floor 25, three more posts arriving while it is watched."""

    ARRIVING = (
        (at("21:58:00"), FakePost(95001, "小透明", 2015, at("21:57:30"), "投 5号")),
        (at("22:00:00"), FakePost(95002, "白开水", 2011, at("22:00:00"), "改票：投 5号")),
        (at("22:01:00"), FakePost(95003, "花生米", 2006, at("22:00:01"), "改票：投 7号")),
    )

    def __init__(self, start: datetime) -> None:
        demo = with_time_style(demo_thread(), "absolute")
        self.thread = FakeThread(demo.tid, demo.title, demo.posts[:25], start, keeps_positions=True)
        self.site = discuz_x_site(self.thread)
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self.thread.now

    def sleep(self, seconds: float) -> None:
        """Time passes: the board's clock moves on and the posts due by then arrive."""
        self.slept.append(seconds)
        self.thread.now += timedelta(seconds=seconds)
        for due, post in self.ARRIVING:
            if due <= self.thread.now and post not in self.thread.posts:
                self.thread.posts.append(post)


def url(base: str) -> str:
    return f"{base}/forum.php?mod=viewthread&tid={demo_thread().tid}"


def run_watch(board: Board, base: str, roster: Path, **changes):
    fetching = FetchOptions(delay=0, retries=0, cache=roster.parent / "cache", view="pages")
    return watch(
        url(base),
        deadline="22:00",
        roster=roster,
        fetching=changes.pop("fetching", fetching),
        now=board.now,
        sleep=changes.pop("sleep", board.sleep),
        **changes,
    )


def test_a_running_count_on_each_new_ballot_then_the_final_count(serve_site, roster):
    board = Board(at("21:57:00"))
    base = serve_site(board.site)
    updates = []
    for update in run_watch(board, base, roster):
        updates.append(update)
        base.server.requests.append("--")  # marks where each update was given
    assert [u.kind for u in updates] == ["running", "running", "running", "final"]
    first, second, third, final = updates
    assert first.new == () and first.remaining == timedelta(minutes=3)
    assert [(v.author, v.target) for v in second.new] == [("小透明", 5)]
    assert [(v.author, v.target) for v in third.new] == [("白开水", 5)]
    assert third.remaining == timedelta(0)
    assert board.slept == [60, 60, 60, 60]  # polls at 21:57, 21:58, 21:59, 22:00; final at 22:01
    # the final count is the tally's: the 22:00:01 change is late
    reference = FetchOptions(delay=0, view="pages")
    assert final.result == tally(url(base), deadline="22:00", roster=roster, fetching=reference)
    late = {v.author: v.verdict for v in final.result.verdicts if v.posted_at > DEADLINE}
    assert late == {"花生米": "late"}
    # after the first poll, only the last page known is fetched again
    polls = "\n".join(base.server.requests).split("--")
    second_poll = polls[1].split()
    assert second_poll == [f"{url('')}&page=3"]


class ApiBoard(Board):
    """The same thread on a board that also serves the mobile API."""

    def __init__(self, start: datetime) -> None:
        super().__init__(start)
        self.site = whole_board(self.thread)


def test_on_a_board_with_the_api_each_poll_reads_only_its_last_page(serve_site, roster):
    board = ApiBoard(at("21:57:00"))
    base = serve_site(board.site)
    updates = []
    fetching = FetchOptions(delay=0, retries=0, cache=roster.parent / "cache")
    for update in run_watch(board, base, roster, fetching=fetching):
        updates.append(update)
        base.server.requests.append("--")
    assert [u.kind for u in updates] == ["running", "running", "running", "final"]
    assert [(v.author, v.target) for v in updates[1].new] == [("小透明", 5)]
    assert [(v.author, v.target) for v in updates[2].new] == [("白开水", 5)]
    polls = [poll.split() for poll in "\n".join(base.server.requests).split("--")]
    tid = demo_thread().tid
    assert polls[0] == [api_path(tid, ppp=1000, page=1)]  # edits and seconds in one answer
    [asked] = polls[1]  # one small page of the API: a few KB, the last floor known on
    query = dict(parse_qsl(urlsplit(asked).query))
    assert asked.startswith(API_PATH) and query["version"] == "1" and 20 <= int(query["ppp"]) <= 40
    final = updates[-1].result
    assert final == tally(url(base), deadline="22:00", roster=roster, fetching=fetching)
    late = {v.author: v.verdict for v in final.verdicts if v.posted_at > DEADLINE}
    assert late == {"花生米": "late"}


def test_a_failed_poll_is_reported_and_the_watch_goes_on(serve_site, roster):
    board = Board(at("21:58:30"))
    down = {"at": at("21:59:30")}

    def flaky(path: str) -> Response:
        if board.now() == down["at"]:
            return Response(503, {}, b"busy")
        return board.site(path)

    base = serve_site(flaky)
    kinds = [(u.kind, u.message) for u in run_watch(board, base, roster)]
    assert [kind for kind, _ in kinds] == ["running", "failed", "running", "final"]
    assert "HTTP 503" in kinds[1][1]


def test_a_first_read_that_fails_ends_the_watch(serve_site, roster):
    board = Board(at("21:57:00"))
    base = serve_site(lambda path: login_page())
    with pytest.raises(TallyFailed):
        next(run_watch(board, base, roster))


def test_started_after_the_grace_period_it_gives_the_final_count_at_once(serve_site, roster):
    board = Board(at("22:05:00"))
    base = serve_site(board.site)
    assert [u.kind for u in run_watch(board, base, roster)] == ["final"]
    assert board.slept == []


def cli(board: Board, base: str, roster: Path, monkeypatch, *extra: str):
    monkeypatch.setattr(watch_command, "now", board.now)
    monkeypatch.setattr(watch_command, "sleep", board.sleep)
    args = [url(base), "--deadline", "22:00", "--roster", str(roster), "--delay", "0"]
    args += ["--cache", str(roster.parent / "cache"), *extra]
    return CliRunner().invoke(main, ["watch", *args])


def test_the_command_prints_running_counts_then_the_announcement(serve_site, roster, monkeypatch):
    board = Board(at("21:57:00"))
    base = serve_site(board.site)
    result = cli(board, base, roster, monkeypatch)
    assert result.exit_code == 0, result.output
    running = result.stderr  # the running counts are the judge's: never in the post
    assert "[21:57:00] 距截止还有 3 分 0 秒" in running
    assert "新票：26楼 小透明（16号）5号 预言家本家" in running
    assert "[22:00:00] 已截止，1 分 0 秒后公布最终结果" in running
    assert "临时票型（非最终结果）：5号 预言家本家 5 票" in running
    # the provisional count: a player who has not voted is no self vote yet
    assert "还没有投票（截止时仍未投票的视为自投）：9号 小明、14号 老王" in running
    assert "小明 1 票" not in running and "老王 1 票" not in running
    # stdout is the final announcement alone: tally's BBCode
    args = [url(base), "--deadline", "22:00", "--roster", str(roster), "--delay", "0"]
    final = CliRunner().invoke(main, ["tally", *args, "--cache", str(roster.parent / "cache")])
    assert result.stdout == final.stdout


def test_ctrl_c_stops_cleanly(serve_site, roster, monkeypatch):
    board = Board(at("21:57:00"))
    base = serve_site(board.site)

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    board.sleep = interrupted
    result = cli(board, base, roster, monkeypatch)
    assert result.exit_code == 130
    assert result.stderr.strip().endswith("已停止")
    assert "距截止还有" in result.stderr and result.stdout == ""


def test_seats_can_come_from_the_game_file(serve_site, roster, monkeypatch):
    board = Board(at("21:59:00"))
    base = serve_site(board.site)
    db = roster.parent / "game.db"
    assert (
        CliRunner().invoke(main, ["init", "--roster", str(roster), "--db", str(db)]).exit_code == 0
    )
    monkeypatch.setattr(watch_command, "now", board.now)
    monkeypatch.setattr(watch_command, "sleep", board.sleep)
    args = [url(base), "--deadline", "22:00", "--db", str(db), "--delay", "0"]
    result = CliRunner().invoke(main, ["watch", *args, "--cache", str(roster.parent / "c")])
    assert result.exit_code == 0, result.output
    assert "距截止还有 1 分 0 秒" in result.stderr and "第 1 轮" in result.stdout


def test_the_running_count_names_non_voters_by_the_rule_sets_policy(
    serve_site, roster, monkeypatch
):
    """Only 1.2 counts a non-voter as voting for himself (补充说明 4); under X he is not counted."""
    board = Board(at("21:59:00"))
    base = serve_site(board.site)
    assert "还没有投票（截止时仍未投票的视为自投）" in cli(board, base, roster, monkeypatch).stderr
    x_roster = roster.parent / "x.toml"
    x_roster.write_text(
        DEMO_ROSTER_TOML.replace('rules = "1.2"', 'rules = "x"')
        .replace('role = "水民"', "")
        .replace('role = "杀手"', "")
        .replace('role = "检查官"', ""),
        encoding="utf-8",
    )
    board = Board(at("21:59:00"))
    base = serve_site(board.site)
    notes = cli(board, base, x_roster, monkeypatch).stderr  # the running count is a note
    assert "还没有投票（截止时仍未投票的不计票）" in notes and "视为自投" not in notes


def test_from_a_roster_the_notes_say_to_add_a_nickname_to_the_roster(
    serve_site, roster, monkeypatch
):
    """Without a game file there is no ``killmod alias``: the final count's notes say what
    ``tally --roster`` says, to add the nickname to the roster's aliases."""
    demo = with_time_style(demo_thread(), "absolute")
    nickname = FakePost(
        90178, "夜猫子", 2012, at("21:30:00"), "改票：vote kp", time_style="absolute"
    )
    posts = [*demo.posts[:25], nickname, *demo.posts[25:]]  # after 闲云野鹤's 21:15:40
    board = Board(at("22:30:00"))
    board.site = discuz_x_site(FakeThread(demo.tid, demo.title, posts, demo.now))
    base = serve_site(board.site)
    watched = cli(board, base, roster, monkeypatch)
    assert watched.exit_code == 0, watched.output
    assert "「kp」不是名单上的名字" in watched.stderr and "killmod alias" not in watched.stderr
    assert '若是某位玩家的昵称：在名单里他的 aliases 里加上 "kp"，再计票' in watched.stderr
    args = [url(base), "--deadline", "22:00", "--roster", str(roster), "--delay", "0"]
    counted = CliRunner().invoke(main, ["tally", *args, "--cache", str(roster.parent / "c")])
    assert watched.stderr == counted.stderr
