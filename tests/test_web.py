"""The judge's page through Flask's test client: the door (token, cookie, Host, CSRF), and a
1.2 day played on it against the tests' local board — every post the same, to the byte,
as the command prints for the same step, and every refusal the command's."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

import killmod.commands.tally as tally_command
import killmod.web.day as day_page
from killmod.commands.cli import main
from killmod.web.app import create_app
from killmod.web.guard import cookie_name
from tests.support.boardgames import GAME_TID
from tests.support.gamefiles import TID
from tests.support.pagebuilder import SHANGHAI
from tests.support.webday import read_at_one_moment
from tests.support.webpage import (
    HOST,
    board_for_a_12_game,
    judge_cookies,
    let_in,
    roster_form,
    text_box,
    vote_thread,
)

BALLOTS = {seat: "投5号" for seat in range(1, 9)} | {9: "投7号", 10: "弃权", 11: "我觉得5号可疑"}
OPENED = datetime(2024, 3, 1, 19, 0, tzinfo=SHANGHAI)
DEADLINE = "2024-03-01 22:00"
# The first night: 16 killed (confirmed as a kill of a killer too: the deal is random).
NIGHT_1 = {"night": "1", "kill": "16", "at": "2024-03-01 18:30", "self_aimed": "yes"}


def run(*args: object):
    return CliRunner().invoke(main, [str(arg) for arg in args])


# --- the door --------------------------------------------------------------------------


def test_a_request_without_the_token_or_its_cookie_is_refused(tmp_path: Path):
    client = create_app(tmp_path / "killmod.db", token="secret-token").test_client()
    refused = client.get("/", headers={"Host": HOST})
    assert refused.status_code == 403
    assert "killmod serve 打印的网址" in refused.get_data(as_text=True)
    wrong = client.get("/?token=guess", headers={"Host": HOST})
    assert wrong.status_code == 403


def test_the_token_becomes_a_cookie_and_leaves_the_address(tmp_path: Path):
    client = create_app(tmp_path / "killmod.db", token="secret-token").test_client()
    first = client.get("/vote?token=secret-token&count=1", headers={"Host": HOST})
    assert first.status_code == 303
    assert first.headers["Location"] == "/vote?count=1"  # no token in the address bar
    cookie = first.headers["Set-Cookie"]
    assert cookie.startswith(f"{cookie_name('secret-token')}=secret-token")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    again = client.get("/", headers={"Host": HOST})
    assert again.status_code == 302  # no game file yet: on to 新游戏
    assert again.headers["Location"] == "/new"


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example:80", "10.0.0.1"])
def test_a_host_other_than_this_machine_is_refused(tmp_path: Path, host: str):
    page = let_in(tmp_path / "killmod.db")
    refused = page.client.get("/new", headers={"Host": host})
    assert refused.status_code == 403
    assert "127.0.0.1" in refused.get_data(as_text=True)
    local = page.client.get(f"/new?token={page.token}", headers={"Host": "localhost:8123"})
    assert local.status_code == 303


def test_a_change_without_the_csrf_token_or_from_another_site_is_refused(tmp_path: Path):
    page = let_in(tmp_path / "killmod.db")
    form = roster_form("wrong")
    refused = page.client.post("/new", data=form, headers={"Host": HOST})
    assert refused.status_code == 403
    assert "CSRF" in refused.get_data(as_text=True)
    foreign = page.client.post(
        "/new",
        data=roster_form(page.csrf),
        headers={"Host": HOST, "Origin": "http://evil.example"},
    )
    assert foreign.status_code == 403
    assert not (tmp_path / "killmod.db").exists()


def test_pages_are_not_cached_framed_or_given_outside_scripts(tmp_path: Path):
    page = let_in(tmp_path / "killmod.db")
    answer = page.get("/new")
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    html = answer.get_data(as_text=True)
    assert f'name="csrf" value="{page.csrf}"' in html  # every form carries its token
    assert (
        "/static/htmx.min.js" in html
        and "http" not in html.split("<body")[0].replace('content="width', "").split("<title>")[0]
    )


def test_a_public_page_refuses_a_roster(tmp_path: Path):
    from killmod.core.model import Player, Roster
    from killmod.web.pages import public

    roster = Roster((Player(1, "a", role="杀手"),), rules="1.2")
    with pytest.raises(TypeError, match="Roster"):
        public({"roster": roster})


# --- a 1.2 day ---------------------------------------------------------------------------


@pytest.fixture
def day(tmp_path: Path, serve_site, monkeypatch):
    board = board_for_a_12_game()
    base = serve_site(board)
    vote_thread(board, BALLOTS, OPENED)
    db = tmp_path / "game" / "killmod.db"
    db.parent.mkdir()
    page = let_in(db)
    made = page.post("/new", roster_form(page.csrf))
    assert made.status_code == 303, made.get_data(as_text=True)
    return page, db, base, board, tmp_path


def test_a_game_made_from_the_form_and_dealt(day):
    page, db, _, _, _ = day
    dealt = page.post("/deal")
    assert dealt.status_code == 200
    html = dealt.get_data(as_text=True)
    assert "已发身份：16 名玩家" in html
    notices = sorted((db.parent / "killmod-private").glob("*.txt"))
    assert len(notices) == 16
    today = page.get("/").get_data(as_text=True)
    assert "杀手" not in today.split("<main>")[1] and "检查官" not in today.split("<main>")[1]
    private = page.get("/private").get_data(as_text=True)
    assert "仅法官可见" in private and "杀手" in private
    again = page.post("/deal")
    assert again.status_code == 422
    assert "本局已经发过身份了" in again.get_data(as_text=True)


def test_the_count_before_and_after_the_deadline_is_what_tally_prints(day, monkeypatch):
    page, db, base, _, _ = day
    assert page.post("/deal").status_code == 200
    assert page.post("/night", NIGHT_1).status_code == 200
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"

    def count_at(moment: datetime):
        """The page's count and the one ``killmod tally`` prints, both at ``moment``."""
        for module in (day_page, tally_command):
            monkeypatch.setattr(module, "now", lambda: moment)
        query = {"thread": url, "deadline": DEADLINE}
        shown = page.get("/vote/count", query_string=query).get_data(as_text=True)
        printed = run("tally", url, "--db", db, "--deadline", DEADLINE)
        assert printed.exit_code == 0, printed.output
        return shown, printed.stdout

    shown, printed = count_at(datetime(2024, 3, 1, 21, 0, tzinfo=SHANGHAI))
    assert text_box(shown, "count-post") == printed
    assert "临时票型" in printed and 'hx-trigger="every 15s"' in shown

    final, printed = count_at(datetime(2024, 3, 2, 9, 0, tzinfo=SHANGHAI))
    assert text_box(final, "count-post") == printed
    assert "hx-trigger" not in final.split('id="count"')[1].split(">")[0]  # no more polling


def test_a_ruling_record_post_and_undo(day, monkeypatch):
    read_at_one_moment(monkeypatch)  # the page and the command read the thread alike
    page, db, base, board, tmp_path = day
    assert page.post("/deal").status_code == 200
    assert page.post("/night", NIGHT_1).status_code == 200
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    monkeypatch.setattr(day_page, "now", lambda: datetime(2024, 3, 2, 9, 0, tzinfo=SHANGHAI))
    vote = {"thread": url, "deadline": DEADLINE, "round": "1"}
    # 11号's “我觉得5号可疑” is no ballot: the judge rules it a vote for 5
    pid = 81011
    ruled = page.post("/vote/rule", {**vote, "pid": str(pid), "choice": "5"}).get_data(as_text=True)
    assert 'value="5" selected' in ruled
    rulings = db.parent / "killmod-private" / "round1-rulings.toml"
    assert f"[pid.{pid}]" in rulings.read_text(encoding="utf-8")
    confirm = page.post("/vote/confirm", vote).get_data(as_text=True)
    assert "确认记录" in confirm and url.replace("&", "&amp;") in confirm
    twin = tmp_path / "twin" / "killmod.db"  # the same game, recorded by the command
    twin.parent.mkdir()
    shutil.copy(db, twin)
    recorded = page.post("/vote/record", vote)
    assert recorded.status_code == 200, recorded.get_data(as_text=True)
    posted_text = text_box(recorded.get_data(as_text=True), "step-post")
    printed = run(
        "tally", url, "--db", twin, "--deadline", DEADLINE, "--rulings", rulings, "--record"
    )
    assert printed.exit_code == 0, printed.output
    # byte for byte, the evidence's hash too: both read the thread at one moment (the hash
    # covers the second each one read it)
    assert posted_text == printed.stdout
    assert "计票证据 SHA-256：" in posted_text
    assert "5号" in posted_text and "被投出局" in posted_text
    # a second tab records the same round: the game file's guard refuses it
    twice = page.post("/vote/record", vote)
    assert twice.status_code == 422
    assert "已经记录" in twice.get_data(as_text=True), twice.get_data(as_text=True)

    # 发到论坛: the judge's cookies imported, what and where shown, then sent once
    cookies = judge_cookies(base, tmp_path)
    imported = page.post("/login/cookies", {"cookies": (cookies.open("rb"), "cookies.txt")})
    assert imported.status_code == 200
    kept = db.parent / "killmod-private" / "board-cookies.txt"
    assert kept.stat().st_mode & 0o777 == 0o600
    key = recorded.get_data(as_text=True).split('name="key" value="')[1].split('"')[0]
    preview = page.post("/post/preview", {"key": key, "thread": url}).get_data(as_text=True)
    assert "将以 法官（uid 900）的身份回复帖子「【1.2 第一天投票帖】」" in preview
    assert board.replies == []
    sent = page.post("/post/send", {"key": key, "thread": url}).get_data(as_text=True)
    assert "已回复帖子" in sent
    assert [(tid, text) for tid, _, text in board.replies] == [(TID, posted_text)]
    again = page.post("/post/send", {"key": key, "thread": url}).get_data(as_text=True)
    assert "这篇已经发过" in again and len(board.replies) == 1

    undo = page.get("/undo").get_data(as_text=True)
    assert "第 1 轮" in undo
    undone = page.post("/undo")
    assert undone.status_code == 200
    assert "已撤销" in undone.get_data(as_text=True)
    assert "计票" in page.get("/").get_data(as_text=True)
    assert GAME_TID  # the game thread stays the night's


def test_a_refusal_is_shown_with_nothing_recorded(day):
    page, db, _, _, _ = day
    assert page.post("/deal").status_code == 200
    bad = page.post("/night", {"night": "1", "kill": "99"})
    assert bad.status_code == 422
    html = bad.get_data(as_text=True)
    assert 'class="error"' in html and "什么也没有记录" in html
    assert not list((db.parent / "killmod-private").glob("night*"))
    assert "第 1 轮的夜晚" in page.get("/").get_data(as_text=True)  # still the next step


def test_a_night_aimed_at_its_own_actor_is_confirmed_on_the_form(day):
    from killmod.game.store import Game

    page, db, _, _, _ = day
    assert page.post("/deal").status_code == 200
    roster = Game.open(db).roster()
    inspector = next(p.seat for p in roster.players if p.role == "检查官")
    good = next(p.seat for p in roster.players if p.role == "水民")
    night = {"night": "1", "kill": str(good), "veto": str(inspector), "at": "2024-03-01 08:00"}
    asked = page.post("/night", night)
    assert asked.status_code == 422
    html = asked.get_data(as_text=True)
    assert f"--veto {inspector}：否决权的目标是行使它的玩家本人" in html
    assert 'name="self_aimed"' in html and not Game.open(db).events("night")
    assert page.post("/night", night | {"self_aimed": "yes"}).status_code == 200
    assert [e.round for e in Game.open(db).events("night")] == [1]


# --- refusals beside their fields -------------------------------------------------------


def beside(html: str, field: str) -> str:
    """The refusal shown beside the form's ``field``."""
    import re

    shown = rf'<span class="field-error" role="alert" id="error-{field}"[^>]*>(.*?)</span>'
    found = re.search(shown, html)
    assert found, f"nothing beside {field}: {html[html.find('<main>') :][:2000]}"
    return found[1]


def test_the_roster_forms_refusals_sit_beside_the_seat_at_fault(tmp_path: Path):
    page = let_in(tmp_path / "killmod.db")
    twice = roster_form(page.csrf) | {"name3": "玩家2"}
    refused = page.post("/new", twice)
    assert refused.status_code == 422
    assert "重复" in beside(refused.get_data(as_text=True), "name3")
    assert 'name="name3" aria-label="3号的论坛名" value="玩家2" required aria-invalid="true"' in (
        refused.get_data(as_text=True)
    )
    letters = page.post("/new", roster_form(page.csrf) | {"uid4": "四"})
    assert "4号的 uid 要是数字" in beside(letters.get_data(as_text=True), "uid4")
    zone = page.post("/new", roster_form(page.csrf) | {"timezone": "Mars/Olympus"})
    assert "timezone" in beside(zone.get_data(as_text=True), "timezone")
    assert not (tmp_path / "killmod.db").exists()


def test_a_deadline_the_vote_cannot_read_is_refused_beside_its_field(day):
    page, _, base, _, _ = day
    assert page.post("/deal").status_code == 200
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    vote = {"thread": url, "deadline": "下周某天", "round": "1"}
    confirmed = page.post("/vote/confirm", vote)
    assert confirmed.status_code == 422
    assert "无法识别的截止时间" in beside(confirmed.get_data(as_text=True), "deadline")
    counted = page.get("/vote/count", query_string=vote).get_data(as_text=True)
    assert 'id="error-deadline" hx-swap-oob="true"' in counted  # htmx puts it by the field
    assert "hx-trigger" not in counted.split(">")[0]  # and asks no more until it is fixed
    opened = page.post("/vote/open", {"deadline": "2001-01-01 22:00"})
    assert "已经过去" in beside(opened.get_data(as_text=True), "open_deadline")


# --- summer time --------------------------------------------------------------------------------

# New York's clocks go back at 02:00 EDT on 2030-11-03: 01:30 is shown twice.
FALL_BACK = "2030-11-03 01:30"


def fall_back_vote(serve_site) -> str:
    """A vote thread of that night: 阿狸's ballot at 01:10 EST (06:10 UTC) is late for the
    first 01:30 (EDT, 05:30 UTC) and in time for the second (EST, 06:30 UTC)."""
    from datetime import UTC, timedelta, timezone

    from tests.support.pagebuilder import FakePost, FakeThread, discuz_x_site

    edt = timezone(timedelta(hours=-4))
    posts = [
        FakePost(1, "法官大人", 100, datetime(2030, 11, 2, 20, tzinfo=edt), "投票帖"),
        FakePost(2, "meer", 2000, datetime(2030, 11, 3, 5, 20, tzinfo=UTC), "投5号"),
        FakePost(3, "阿狸", 2001, datetime(2030, 11, 3, 6, 10, tzinfo=UTC), "投7号"),
    ]
    for post in posts:
        post.time_style = "absolute"
    thread = FakeThread(8801, "投票帖", posts, datetime(2030, 11, 3, 9, 0, tzinfo=UTC))
    return serve_site(discuz_x_site(thread)) + "/forum.php?mod=viewthread&tid=8801"


@pytest.mark.slow
def test_a_remembered_deadline_in_the_hour_summer_time_repeats_carries_its_offset(
    tmp_path: Path, serve_site
):
    """The page filled its form with the wall time alone, which it then refused as
    ambiguous: the command took `--deadline "2030-11-03 01:30 -05:00"`, the page did not."""
    from tests.support.gamesteps import console
    from tests.support.pagebuilder import DEMO_ROSTER_TOML

    roster = tmp_path / "ny.toml"
    roster.write_text(
        DEMO_ROSTER_TOML.replace('"Asia/Shanghai"', '"America/New_York"'), encoding="utf-8"
    )
    db = tmp_path / "game.db"
    url = fall_back_vote(serve_site)
    assert console("init", "--roster", roster, "--db", db).returncode == 0
    assert console("night", "--round", 1, "--kill", 16, "--db", db).returncode == 0
    opened = console(
        "open", "--deadline", f"{FALL_BACK} -05:00", "--thread", url, "--round", 1, "--db", db
    )
    assert opened.returncode == 0, opened.stderr
    shown = f"{FALL_BACK}:00 -05:00"  # the second 01:30, as the commands write it
    assert shown in opened.stderr
    status = console("status", "--db", db)
    assert f'--deadline "{shown}"' in status.stdout, status.stdout
    alone = console("tally", url, "--db", db, "--deadline", f"{FALL_BACK}:00")
    assert alone.returncode == 2 and "出现两次" in alone.stderr  # the wall time alone is refused

    page = let_in(db)
    form = page.get("/vote").get_data(as_text=True)
    assert f'name="deadline" value="{shown}"' in form

    def count(deadline: str) -> str:
        asked = {"thread": url, "deadline": deadline, "round": "1"}
        return page.get("/vote/count", query_string=asked).get_data(as_text=True)

    refused = count(f"{FALL_BACK}:00")  # what the form held before
    assert 'id="error-deadline" hx-swap-oob="true"' in refused and "出现两次" in refused
    counted = count(shown)
    assert 'id="error-deadline" hx-swap-oob' not in counted
    assert f"截止：{shown}" in counted
    printed = console("tally", url, "--db", db, "--deadline", shown, "--format", "json")
    assert printed.returncode == 0, printed.stderr
    verdicts = {v["author"]: v["verdict"] for v in json.loads(printed.stdout)["verdicts"]}
    assert verdicts["阿狸"] == "counted"  # the second reading: 01:10 EST is in time
