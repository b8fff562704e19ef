"""The judge's page for the steps issue 28 left to the terminal: the threads recorded (``thread``),
a day skipped (``night --skip-day``), a substitute's notice sent (``sub --send``), a recorded
vote recorded again (``tally --record --replace``), the unrecorded lurkers' count posted, an
unknown name made an alias from the count, and the night's button named as the rule set names
it — each through the use case its command calls, its text the command's to the byte, its
refusals beside their fields with nothing recorded."""

from __future__ import annotations

import re
from pathlib import Path

import killmod.web.day as day_page
from killmod.game.store import Game
from tests.support.gamefiles import new_game
from tests.support.webday import (
    DEADLINE,
    FIVE_OUT,
    READ_AT,
    Day,
    done_note,
    error_beside,
    read_at_one_moment,
    run,
)
from tests.support.webpage import SUBSTITUTE, let_in, roster_form, text_box

# A V4.0 game of 16 (version 64C65), dealt.
V4_ROLES = (
    dict.fromkeys(range(1, 6), "杀手")
    | {6: "警察", 7: "医生", 8: "狙击手", 9: "花蝴蝶", 10: "森林老人"}
    | dict.fromkeys(range(11, 17), "平民")
)

# --- 游戏帖和投票帖 (killmod thread) ---------------------------------------------------------


def test_a_vote_thread_recorded_on_the_page_is_what_thread_vote_records(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    twin = day.twin()
    listed = day.page.get("/threads").get_data(as_text=True)
    assert day.game_url.replace("&", "&amp;") in listed and "第 1 轮投票帖" not in listed
    other = day.page.post("/threads", {"kind": "vote", "round": "1", "url": day.game_url})
    assert other.status_code == 422
    assert "游戏帖" in error_beside(other.get_data(as_text=True), "url")
    letters = day.page.post("/threads", {"kind": "vote", "round": "一", "url": day.vote_url})
    assert "轮次要是数字" in error_beside(letters.get_data(as_text=True), "round")
    assert "第 1 轮投票帖" not in day.status()  # nothing recorded

    done = day.page.post("/threads", {"kind": "vote", "round": "1", "url": day.vote_url})
    assert done.status_code == 200, done.get_data(as_text=True)
    printed = run("thread", "vote", day.vote_url, "--round", 1, "--db", twin)
    assert printed.exit_code == 0, printed.output
    assert done_note(done.get_data(as_text=True)) == printed.stderr.rstrip("\n").replace(
        "&", "&amp;"
    )
    assert f"第 1 轮投票帖：{day.vote_url}" in day.status()
    again = day.page.post("/threads", {"kind": "vote", "round": "1", "url": day.vote_url})
    assert "没有改动" in error_beside(again.get_data(as_text=True), "url")
    # the count and the post to the board take it without the judge pasting it again
    vote = day.page.get("/vote").get_data(as_text=True)
    assert f'name="thread" value="{day.vote_url}"'.replace("&", "&amp;") in vote
    assert "游戏帖和投票帖" in day.page.get("/").get_data(as_text=True)
    undone = day.page.post("/undo")
    assert "第 1 轮的投票帖" in undone.get_data(as_text=True)
    assert "第 1 轮投票帖" not in day.status()


# --- 潜水: the count posted unrecorded --------------------------------------------------------


def test_the_lurkers_count_not_recorded_is_posted_as_lurkers_post_posts_it(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    day.record_vote()
    day.sign_in()
    assert 'id="skip-day-step"' not in day.page.get("/").get_data(as_text=True)  # night next
    counted = day.page.post("/lurkers/count", {"source": day.game_url, "round": "1"})
    html = counted.get_data(as_text=True)
    assert counted.status_code == 200, html
    text = text_box(html, "lurkers-post")
    form = html.split('id="lurkers-post-form"')[1]
    key = form.split('name="key" value="')[1].split('"')[0]
    assert f'value="{day.game_url}"'.replace("&", "&amp;") in form  # the game thread
    preview = day.page.post("/post/preview", {"key": key, "thread": day.game_url})
    assert "内容是下面的潜水统计" in preview.get_data(as_text=True)
    sent = day.page.post("/post/send", {"key": key, "thread": day.game_url})
    assert "已回复帖子" in sent.get_data(as_text=True)
    ((_, _, message),) = day.board.replies
    assert message == text
    assert "1号 1 次" not in day.status()  # posted, still not recorded


# --- the night's button ---------------------------------------------------------------------


def test_todays_night_button_names_the_night_as_status_does(tmp_path: Path):
    db = new_game(tmp_path, "v4", V4_ROLES)
    page = let_in(db)
    today = page.get("/").get_data(as_text=True)
    assert '<a class="button primary" href="/night">第 0 夜</a>' in today
    assert "接下来是第 0 夜" in run("status", "--db", db).stdout


# --- 跳过白天 (night --skip-day) -------------------------------------------------------------


def a_civilian(db: Path, besides: tuple[int, ...] = ()) -> int:
    """A living 水民's seat (read from the game file, as only the test may)."""
    from killmod.game.store import Game

    with Game.open(db) as opened:
        roster = opened.roster()
    return next(p.seat for p in roster.living if p.role == "水民" and p.seat not in besides)


def test_a_day_is_skipped_only_once_the_judge_confirms_it_as_night_skip_day_records_it(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)  # night 1 recorded: day 1's vote comes next
    target = a_civilian(day.db)
    twin = day.twin()
    today = day.page.get("/").get_data(as_text=True)
    assert 'href="/night?skip=1" id="skip-day-step">跳过第 1 轮白天，记录第 2 轮的夜晚……' in today
    assert "跳过第 1 轮的白天" in day.page.get("/vote").get_data(as_text=True)
    asked = day.page.get("/night?skip=1").get_data(as_text=True)
    assert "第 1 轮白天的投票还没有记录" in asked and 'name="night" value="2"' in asked
    assert 'name="skip_day" value="yes" required' in asked

    night = {"night": "2", "kill": str(target), "at": "2024-03-02 08:00"}
    plain = day.page.post("/night", night)  # the normal night form: the day is not over
    assert plain.status_code == 422
    assert "第 1 轮白天的投票还没有记录" in plain.get_data(as_text=True)
    unconfirmed = day.page.post("/night", night | {"skip": "1"})
    assert unconfirmed.status_code == 422
    assert "请先勾选确认" in error_beside(unconfirmed.get_data(as_text=True), "skip_day")
    assert "下一步：第 1 轮白天投票" in day.status()  # nothing recorded

    done = day.page.post("/night", night | {"skip": "1", "skip_day": "yes"})
    html = done.get_data(as_text=True)
    assert done.status_code == 200, html
    printed = run(
        "night", "--round", 2, "--kill", target, "--at", "2024-03-02 08:00", "--skip-day",
        "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert text_box(html, "step-post") == printed.stdout
    status = day.status()
    assert "第 1 轮没有投票：法官决定跳过白天（记录第 2 轮的夜晚时）" in status
    assert status == run("status", "--db", twin).stdout
    assert "跳过第 2 轮白天，记录第 3 轮的夜晚" in day.page.get("/").get_data(as_text=True)
    assert day.page.post("/undo").status_code == 200  # the night and the skip, together
    assert "下一步：第 1 轮白天投票" in day.status()


# --- 替补 with 站内短信 (sub --send) ----------------------------------------------------------


def test_the_substitutes_notice_is_sent_after_its_confirmation_as_sub_send_sends_it(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    form = {"seat": "3", "name": SUBSTITUTE, "at": "2024-03-01 20:00", "send": "yes"}
    form["board"] = day.game_url
    no_uid = day.page.post("/sub", form)
    assert no_uid.status_code == 422
    assert "站内短信只按 uid 发" in error_beside(no_uid.get_data(as_text=True), "uid")
    unsigned = day.page.post("/sub", form | {"uid": "6000"})
    assert "还没有登录论坛" in error_beside(unsigned.get_data(as_text=True), "send")
    assert SUBSTITUTE not in day.status().split("替补剩")[0]  # nothing recorded
    cookies = day.sign_in()
    no_board = day.page.post("/sub", form | {"uid": "6000", "board": ""})
    assert "论坛网址" in error_beside(no_board.get_data(as_text=True), "board")
    twin = day.twin()

    done = day.page.post("/sub", form | {"uid": "6000"})
    html = done.get_data(as_text=True)
    assert done.status_code == 200, html
    key = html.split('id="send-form"')[1].split('name="key" value="')[1].split('"')[0]
    preview = day.page.post("/send/preview", {"key": key}).get_data(as_text=True)
    assert "将以 法官（uid 900）的身份发 1 条站内短信" in preview
    assert f"3号 {SUBSTITUTE}（uid 6000）" in preview
    assert day.board.pms_to(6000) == []  # nothing sent before the judge confirms
    sent = day.page.post("/send/send", {"key": key}).get_data(as_text=True)
    assert "站内短信发完：这次发出 1 条，共 1 位玩家都已收到" in sent
    (letter,) = day.board.pms_to(6000)
    (notice,) = day.private.glob(f"*{SUBSTITUTE}*.txt")
    assert letter.text == notice.read_text(encoding="utf-8").rstrip("\n")
    assert letter.text not in sent and letter.text not in preview  # the role stays private
    again = day.page.post("/send/preview", {"key": key}).get_data(as_text=True)
    assert "另有 1 条之前已发过" in again and len(day.board.pms_to(6000)) == 1

    printed = run(
        "sub", 3, SUBSTITUTE, "--uid", 6000, "--at", "2024-03-01 20:00", "--send",
        "--board", day.game_url, "--cookies", cookies, "--interval", 0, "--yes", "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert text_box(html, "step-post") == printed.stdout
    assert day.board.pms_to(6000)[-1].text == letter.text  # the same notice


# --- 记为别名 from the count, and 重新记录 (alias; tally --record --replace) --------------------

# 6号 votes with a nickname nobody has: 5 is out by 4 votes to 3, unless 四哥 is 4号 — a tie.
NICKNAME = (
    {seat: "投5号" for seat in (1, 2, 3, 7)}
    | {seat: "投4号" for seat in (4, 8, 9)}
    | {6: "投四哥", 5: "弃权"}
)


def count_page(day: Day, **more: str) -> str:
    query = {"thread": day.vote_url, "deadline": DEADLINE, **more}
    return day.page.get("/vote/count", query_string=query).get_data(as_text=True)


def test_an_unknown_name_becomes_an_alias_from_the_count_and_is_counted_again(
    tmp_path: Path, serve_site, monkeypatch
):
    read_at_one_moment(monkeypatch)
    monkeypatch.setattr(day_page, "now", lambda: READ_AT)
    day = Day(tmp_path, serve_site, NICKNAME)
    twin = day.twin()
    counted = count_page(day)
    assert "「四哥」不是名单上的名字，未计入。记为别名并重新计票：点下面的“记为别名”" in counted
    assert "killmod alias" not in counted
    form = counted.split('id="unknown-names"')[1].split("</form>")[0]
    assert 'name="alias" value="四哥"' in form and 'action="/vote/alias/confirm"' in form

    vote = {"thread": day.vote_url, "deadline": DEADLINE, "round": "1", "alias": "四哥"}
    asked = day.page.post("/vote/alias/confirm", vote | {"seat": "4"}).get_data(as_text=True)
    assert "确认记为别名" in asked and '<option value="4" selected>' in asked
    unchosen = day.page.post("/vote/alias", vote | {"seat": ""})
    assert unchosen.status_code == 422
    assert "请选择座位" in error_beside(unchosen.get_data(as_text=True), "seat")
    taken = day.page.post("/vote/alias", vote | {"seat": "4", "alias": "玩家5"})
    assert "玩家5" in error_beside(taken.get_data(as_text=True), "alias")
    assert "四哥" not in run("status", "--db", day.db).stdout  # nothing recorded

    done = day.page.post("/vote/alias", vote | {"seat": "4"})
    html = done.get_data(as_text=True)
    assert done.status_code == 200, html
    printed = run("alias", 4, "四哥", day.vote_url, "--deadline", DEADLINE, "--db", twin)
    assert printed.exit_code == 0, printed.output
    assert done_note(html) == printed.stderr.splitlines()[0]
    assert 'hx-get="/vote/count?' in html  # the vote counted again, below
    again = count_page(day, round="1")
    assert text_box(again, "count-post") == printed.stdout
    assert "「四哥」" not in again.split("逐帖结果")[0] and "4号 玩家4[/b]：4 票" in again


def test_a_recorded_vote_is_recorded_again_once_the_judge_has_seen_what_changes(
    tmp_path: Path, serve_site, monkeypatch
):
    read_at_one_moment(monkeypatch)
    monkeypatch.setattr(day_page, "now", lambda: READ_AT)
    day = Day(tmp_path, serve_site, NICKNAME)
    vote = {"thread": day.vote_url, "deadline": DEADLINE, "round": "1"}
    recorded = day.page.post("/vote/record", vote)
    first = text_box(recorded.get_data(as_text=True), "step-post")
    assert "5号 玩家5[/b] 得票最高，被投出局" in first
    shown = day.page.get("/vote").get_data(as_text=True)  # round 2's page points to round 1
    assert 'href="/vote?round=1&amp;count=1"' in shown
    assert 'id="replace-form"' in count_page(day, round="1")
    elsewhere = day.page.post("/alias", {"seat": "4", "alias": "小四"}).get_data(as_text=True)
    assert 'href="/vote?round=1&amp;count=1">按新的别名重新计票，重新记录第 1 轮' in elsewhere
    done = day.page.post("/vote/alias", vote | {"alias": "四哥", "seat": "4"})
    assert done.status_code == 200, done.get_data(as_text=True)
    recounted = count_page(day, round="1")  # counted on the state it was counted on
    assert "与记录不同" in recounted and "点下面的“重新记录第 1 轮……”" in recounted
    assert "--replace" not in recounted
    twin = day.twin()  # the alias recorded: the command replaces from here
    private = sorted(day.private.rglob("*"))

    asked = day.page.post("/vote/replace/confirm", vote)
    html = asked.get_data(as_text=True)
    assert asked.status_code == 200, html
    changes = re.search(r'<pre id="changes">(.*?)</pre>', html, re.S)[1]
    assert changes.startswith("重新记录第 1 轮会改变")
    assert "· 结果：记录的是 5号 玩家5 出局，重新计票是 平票（4号 玩家4、5号 玩家5）" in changes
    assert "· 投票 6号 玩家6：记录的是 未投票，视为自投" in changes
    assert text_box(html, "standing-post") == first
    with Game.open(day.db) as opened:  # the preview recorded nothing, wrote nothing
        assert len(opened.tallies()) == 1 and not opened.events("tally_replaced")
    assert sorted(day.private.rglob("*")) == private

    again = day.page.post("/vote/replace", vote | {"evidence": "ask"})
    html = again.get_data(as_text=True)
    assert again.status_code == 200, html
    printed = run(
        "tally", "--round", 1, "--deadline", DEADLINE, "--record", "--replace", "--db", twin
    )
    assert printed.exit_code == 0, printed.output
    assert text_box(html, "step-post") == printed.stdout
    assert "平票" in printed.stdout and "被投出局" not in printed.stdout
    assert "第 1 轮计票已重新记录" in html
    twice = count_page(day, round="1")
    assert 'id="replace-form"' in twice  # still the latest: it may be recorded again
    assert day.page.post("/undo").status_code == 200  # the old record stands again
    with Game.open(day.db) as opened:
        assert len(opened.tallies()) == 1


def test_before_the_deal_a_substitutes_notice_cannot_be_sent_and_nothing_is_recorded(
    tmp_path: Path,
):
    db = tmp_path / "killmod.db"
    page = let_in(db)
    assert page.post("/new", roster_form(page.csrf)).status_code == 303  # not dealt
    form = {"seat": "3", "name": SUBSTITUTE, "uid": "6000", "send": "yes"}
    refused = page.post("/sub", form | {"board": "http://127.0.0.1:1/"})
    assert refused.status_code == 422
    assert "本局还没有发身份" in error_beside(refused.get_data(as_text=True), "send")
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(
        "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tauth\tx\n", encoding="utf-8"
    )
    printed = run("sub", 3, SUBSTITUTE, "--uid", 6000, "--send", "--board", "http://127.0.0.1:1/",
                  "--cookies", cookies, "--db", db)  # fmt: skip
    assert printed.exit_code == 2 and "本局还没有发身份" in printed.output
    assert SUBSTITUTE not in run("status", "--db", db).stdout.split("替补剩")[0]
