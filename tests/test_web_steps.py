"""The judge's page for the steps a day may need besides the vote and the night — 抽签, 替补,
出局, 请假, 处罚, 潜水 — through Flask's test client against the tests' local board: each
post the same, to the byte, as the command prints for the same step (a twin of the game
file takes the command), each refusal shown beside the field at fault with nothing
recorded."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from pathlib import Path

import killmod.usecases.lottery as lottery_usecase
from tests.support.boardgames import GAME_TID, uid
from tests.support.gamefiles import JUDGE, name, seats_of
from tests.support.pagebuilder import SHANGHAI, FakePost
from tests.support.webday import FIVE_OUT, OPENED, TIE, Day, error_beside, run
from tests.support.webpage import judge_cookies, text_box


def steady_lots(monkeypatch) -> None:
    """The lots and the salt the same for the page and the command (secrets otherwise)."""
    monkeypatch.setattr(lottery_usecase.secrets, "token_hex", lambda n: "5a" * n)
    monkeypatch.setattr(lottery_usecase.secrets, "SystemRandom", lambda: random.Random(4))


# --- 抽签 --------------------------------------------------------------------------------


def test_a_tie_is_drawn_on_the_page_as_lottery_make_and_reveal_print(
    tmp_path: Path, serve_site, monkeypatch
):
    day = Day(tmp_path, serve_site, TIE)
    day.record_vote()
    steady_lots(monkeypatch)
    today = day.page.get("/").get_data(as_text=True)
    assert "第 1 轮平票：抽签" in today and 'href="/lottery"' in today
    twin = day.twin()

    made = day.page.post("/lottery/make", {"round": "1"})
    assert made.status_code == 200, made.get_data(as_text=True)
    printed = run("lottery", "make", "--round", 1, "--db", twin)
    assert printed.exit_code == 0, printed.output
    post = text_box(made.get_data(as_text=True), "step-post")
    assert post == printed.stdout
    assert "签位承诺（SHA-256）" in post and "号签：" not in post  # the lots stay private
    (lots_file,) = day.private.glob("round1-lottery-private*.txt")
    private = day.page.get("/private").get_data(as_text=True)
    assert "1 号签：" in private
    assert "1 号签：" not in day.page.get("/lottery").get_data(as_text=True)
    assert "第 1 轮平票：公布抽签结果" in day.page.get("/").get_data(as_text=True)
    again = day.page.post("/lottery/make", {"round": "1"})
    assert again.status_code == 422 and "已经做过签了" in again.get_data(as_text=True)
    assert [lots_file] == list(day.private.glob("round1-lottery-private*.txt"))

    # a lot that is not drawn: beside its field, nothing recorded
    refused = day.page.post("/lottery/reveal", {"round": "1", "lot": "9"})
    assert refused.status_code == 422
    assert error_beside(refused.get_data(as_text=True), "lot") == "签号应为 1–2，收到 9"
    assert "已做签，等待第四人抽签" in day.status()

    revealed = day.page.post("/lottery/reveal", {"round": "1", "lot": "2"})
    assert revealed.status_code == 200, revealed.get_data(as_text=True)
    printed = run("lottery", "reveal", "--round", 1, "--lot", 2, "--db", twin)
    assert printed.exit_code == 0, printed.output
    assert text_box(revealed.get_data(as_text=True), "step-post") == printed.stdout
    assert "抽签" not in day.page.get("/").get_data(as_text=True).split('class="steps"')[1][:200]


# --- 替补 --------------------------------------------------------------------------------


def test_a_substitution_is_what_sub_prints_and_its_refusals_sit_beside_their_fields(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    twin = day.twin()
    dead = day.page.post("/sub", {"seat": "16", "name": "替补甲", "at": "2024-03-01 20:00"})
    assert dead.status_code == 422
    assert "已出局，不能替补" in error_beside(dead.get_data(as_text=True), "seat")
    taken = day.page.post("/sub", {"seat": "3", "name": name(4)})
    assert "已经在本局的座位上" in error_beside(taken.get_data(as_text=True), "name")
    late = day.page.post("/sub", {"seat": "3", "name": "替补甲", "at": "下下周"})
    assert late.status_code == 422
    error_beside(late.get_data(as_text=True), "at")
    assert "替补甲" not in day.status().split("替补剩")[0]  # nothing recorded
    assert not list(day.private.glob("*替补甲*"))

    done = day.page.post("/sub", {"seat": "3", "name": "替补甲", "at": "2024-03-01 20:00"})
    assert done.status_code == 200, done.get_data(as_text=True)
    printed = run("sub", 3, "替补甲", "--at", "2024-03-01 20:00", "--db", twin)
    assert printed.exit_code == 0, printed.output
    html = done.get_data(as_text=True)
    assert text_box(html, "step-post") == printed.stdout
    assert "3号：替补甲 接替 玩家3，身份不变。" in html
    assert len(list(day.private.glob("*替补甲*"))) == 1  # the substitute's notice
    assert f'value="{day.game_url}"'.replace("&", "&amp;") in html  # posted to the game thread


# --- 出局 --------------------------------------------------------------------------------


def test_the_judges_decision_is_what_out_prints(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    twin = day.twin()
    form = day.page.get("/out").get_data(as_text=True)
    assert "立判出局" in form and 'value="16"' not in form  # living seats only
    dead = day.page.post("/out", {"seat": "16", "reason": "conduct"})
    assert "已出局" in error_beside(dead.get_data(as_text=True), "seat")
    bad_time = day.page.post("/out", {"seat": "3", "reason": "conduct", "at": "某天"})
    error_beside(bad_time.get_data(as_text=True), "at")
    assert "3号 玩家3（第 1 轮" not in day.status()

    decided = {"seat": "3", "reason": "conduct", "note": "辱骂他人", "at": "2024-03-01 20:00"}
    done = day.page.post("/out", decided)
    assert done.status_code == 200, done.get_data(as_text=True)
    printed = run(
        "out", 3, "--reason", "conduct", "--note", "辱骂他人", "--at", "2024-03-01 20:00",
        "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert text_box(done.get_data(as_text=True), "step-post") == printed.stdout


# --- 请假, 处罚 -----------------------------------------------------------------------------


def test_a_leave_and_a_penalty_say_what_the_commands_say(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    twin = day.twin()
    bad_day = day.page.post("/leave", {"seat": "4", "day": "后天吧"})
    assert "无法识别的日期" in error_beside(bad_day.get_data(as_text=True), "day")
    left = day.page.post("/leave", {"seat": "4", "day": "2024-03-02", "note": "出差"})
    assert left.status_code == 200, left.get_data(as_text=True)
    printed = run("leave", 4, "--day", "2024-03-02", "--note", "出差", "--db", twin)
    assert printed.exit_code == 0, printed.output
    html = left.get_data(as_text=True)
    shown = re.search(r'<div class="done" role="status" id="done">(.*?)</div>', html, re.S)[1]
    assert shown == printed.stderr.rstrip("\n")
    twice = day.page.post("/leave", {"seat": "4", "day": "2024-03-03"})
    assert "已经请过假" in error_beside(twice.get_data(as_text=True), "seat")

    empty = day.page.post("/penalty", {"seat": "2", "round": "1", "kind": "extra", "choice": " "})
    assert "对立阵营选择的处罚" in error_beside(empty.get_data(as_text=True), "choice")
    chosen = {"seat": "2", "round": "1", "kind": "extra", "choice": "多杀一人", "reason": "诈尸"}
    punished = day.page.post("/penalty", chosen)
    assert punished.status_code == 200, punished.get_data(as_text=True)
    printed = run(
        "penalty", 2, "--round", 1, "--kind", "extra", "--choice", "多杀一人",
        "--reason", "诈尸", "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    html = punished.get_data(as_text=True)
    shown = re.search(r'<div class="done" role="status" id="done">(.*?)</div>', html, re.S)[1]
    assert shown == printed.stderr.rstrip("\n")
    assert "杀手" not in shown and "好人" not in shown  # never the violator's camp


# --- 潜水 --------------------------------------------------------------------------------


def test_the_lurkers_count_and_its_warnings_are_what_lurkers_prints(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    day.record_vote()
    thread = day.board.threads[GAME_TID].thread
    pid = 80002
    for seat in range(1, 16):
        for n in range(3 if seat > 3 else seat - 1):  # 1, 2 and 3 post too little
            moment = OPENED - timedelta(hours=5) + timedelta(minutes=seat * 5 + n)
            thread.posts.append(
                FakePost(pid, name(seat), uid(seat), moment, f"发言{n}", time_style="absolute")
            )
            pid += 1
    thread.now = OPENED
    twin = day.twin()
    form = day.page.get("/lurkers").get_data(as_text=True)
    assert f'value="{day.game_url}"'.replace("&", "&amp;") in form and 'value="1"' in form

    not_yet = day.page.post("/lurkers/count", {"source": day.game_url, "round": "2"})
    assert not_yet.status_code == 422
    assert "第 2 轮的投票还没有记录" in error_beside(not_yet.get_data(as_text=True), "to")

    counted = day.page.post("/lurkers/count", {"source": day.game_url, "round": "1"})
    assert counted.status_code == 200, counted.get_data(as_text=True)
    printed = run("lurkers", day.game_url, "--round", 1, "--db", twin)
    assert printed.exit_code == 0, printed.output
    html = counted.get_data(as_text=True)
    assert text_box(html, "lurkers-post") == printed.stdout
    assert len(list(day.private.glob("round1-prod-*.txt"))) == 3  # a reminder to each lurker
    assert "记录第 1 轮的潜水警告（3 人）" in html
    warned = re.compile(r"(?<!\d)1号 1 次")
    assert not warned.search(day.status())  # counted, nothing recorded

    recorded = day.page.post("/lurkers/record", {"source": day.game_url, "round": "1"})
    assert recorded.status_code == 200, recorded.get_data(as_text=True)
    printed = run("lurkers", day.game_url, "--round", 1, "--record", "--db", twin)
    assert printed.exit_code == 0, printed.output
    assert text_box(recorded.get_data(as_text=True), "step-post") == printed.stdout
    assert warned.search(day.status())
    twice = day.page.post("/lurkers/record", {"source": day.game_url, "round": "1"})
    assert twice.status_code == 422 and "已经记录过" in twice.get_data(as_text=True)


def test_an_alias_is_recorded_as_alias_says(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    twin = day.twin()
    seat_like = day.page.post("/alias", {"seat": "4", "alias": "5号"})
    assert seat_like.status_code == 422
    assert "不能作别名" in error_beside(seat_like.get_data(as_text=True), "alias")
    done = day.page.post("/alias", {"seat": "4", "alias": "四哥"})
    assert done.status_code == 200, done.get_data(as_text=True)
    printed = run("alias", 4, "四哥", "--db", twin)
    html = done.get_data(as_text=True)
    shown = re.search(r'<div class="done" role="status" id="done">(.*?)</div>', html, re.S)[1]
    assert shown == printed.stderr.splitlines()[0]
    assert 'href="/vote?count=1"' in html or 'id="hint"' in html


def test_todays_buttons_reach_every_step(tmp_path: Path, serve_site):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    today = day.page.get("/").get_data(as_text=True)
    for address in ("/lurkers", "/sub", "/out", "/leave", "/alias", "/penalty"):
        assert f'href="{address}"' in today
        assert day.page.get(address).status_code == 200


# --- 夜晚 from the inbox ------------------------------------------------------------------


def test_a_night_read_from_the_inbox_is_checked_then_recorded_as_night_from_pm_records_it(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    day.record_vote()  # 5 out: next is night 2, from the vote's deadline on
    cookies = judge_cookies(day.base, tmp_path)
    killers = [seat for seat in seats_of(day.db, "杀手") if seat not in (5, 16)]
    target = next(seat for seat in range(1, 16) if seat not in (5, *killers))
    letter_at = datetime(2024, 3, 1, 23, 0, tzinfo=SHANGHAI)
    day.board.write(uid(killers[0]), JUDGE[1], f"杀{target}号", letter_at)
    twin = day.twin()
    until = "2024-03-02 08:00"
    reading = {"night": "2", "until": until, "board": day.game_url}

    unsigned = day.page.post("/night/inbox", reading)
    assert unsigned.status_code == 422 and "还没有登录论坛" in unsigned.get_data(as_text=True)
    imported = day.page.post("/login/cookies", {"cookies": (cookies.open("rb"), "cookies.txt")})
    assert imported.status_code == 200
    future = day.page.post("/night/inbox", {**reading, "until": "2099-01-01 08:00"})
    assert "还没到" in error_beside(future.get_data(as_text=True), "early")

    read = day.page.post("/night/inbox", reading)
    assert read.status_code == 200, read.get_data(as_text=True)
    html = read.get_data(as_text=True)
    assert "仅法官可见" in html and f"杀{target}号" in html
    assert re.search(rf'<option value="{target}" selected>', html)  # the form filled in
    assert "第 2 夜：读到 1 条站内短信，采用 1 条，不计 0 条。" in html
    (kept,) = day.private.glob("night2-inbox*.txt")
    assert "下一步：第 2 轮的夜晚" in day.status()  # nothing recorded

    night = day.page.post("/night", {"night": "2", "kill": str(target), "at": "2024-03-02 08:30"})
    assert night.status_code == 200, night.get_data(as_text=True)
    printed = run(
        "night", "--round", 2, "--from-pm", "--board", day.game_url, "--until", until,
        "--at", "2024-03-02 08:30", "--cookies", cookies, "--yes", "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert text_box(night.get_data(as_text=True), "step-post") == printed.stdout
    (theirs,) = (twin.parent / "killmod-private").glob("night2-inbox*.txt")
    assert kept.read_text(encoding="utf-8") == theirs.read_text(encoding="utf-8")
