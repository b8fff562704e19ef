"""The judge's page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium), against the tests' local board.

A whole 1.2 day: the game imported from a roster file through the page's own field, the
deal, 登录论坛 through the board's own form with its captcha (a wrong code refused beside
its field), the night, the vote thread pasted, the live count changing when a ballot is
posted on the board, a nickname made a seat's alias from the count, a ruling that makes a
tie, 记录 with the evidence bundle attached, 下载证据包 (the downloaded zip checked by
``killmod verify``), 复制 (the clipboard's text checked), 发到论坛 after its confirmation
(the bundle attached to the reply), the tie's lottery made and revealed, the next night
read from the judge's 站内短信 and recorded, 历程, 撤销, the other steps' forms, a
substitute at a phone's width and his notice sent by 站内短信 after its confirmation.
Then a day skipped and undone, and a recorded vote recorded again after an alias, once
what changes is shown.  The 新游戏 form is driven once on its own (its refusal beside the
seat at fault, then the game made).

The screenshots it takes are the judge's guide's (docs/guide/images/): set
``KILLMOD_GUIDE_SHOTS`` to a folder to keep them there.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.web.app import create_app
from tests.support.gamefiles import JUDGE, TID, name, seats_of
from tests.support.pagebuilder import SHANGHAI
from tests.support.webpage import (
    PLAYERS,
    SUBSTITUTE,
    board_for_a_12_game,
    post_ballot,
    roster_file,
    vote_thread,
)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1000,1400",
)
REFRESH = 2  # seconds between two counts of the open vote (15 on a real page)
PHONE = 390  # CSS pixels: a phone's width

pytestmark = pytest.mark.slow


@pytest.fixture
def browser(tmp_path: Path):
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        needed = (
            "chromium and chromium-driver are needed (python run.py test installs them as root)"
        )
        if os.environ.get("CI"):
            pytest.fail(needed)  # CI runs the browser test, never skips it
        pytest.skip(needed)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.implicitly_wait(10)  # a click that loads a page returns before the page is there
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def server(tmp_path: Path):
    """The page of a game file not made yet, served by waitress on 127.0.0.1."""
    from waitress.server import create_server

    db = tmp_path / "game" / "killmod.db"
    db.parent.mkdir()
    app = create_app(db, refresh=REFRESH, interval=0)
    served = create_server(app, host="127.0.0.1", port=0, threads=4)
    running = threading.Thread(target=served.run, daemon=True)
    running.start()
    token = app.config["KILLMOD"].token
    yield f"http://127.0.0.1:{served.effective_port}", token, db
    served.close()


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("KILLMOD_GUIDE_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for(check, timeout: float = 20.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"waited {timeout} s for {what}")


class Judge:
    """The browser as the judge uses it: find, read, type, click, and the guide's pictures."""

    def __init__(self, browser, address: str, pictures: Path):
        from selenium.webdriver.common.by import By

        self.browser, self.address, self.pictures, self.by = browser, address, pictures, By

    def go(self, path: str) -> None:
        self.browser.get(self.address + path)

    def find(self, css: str):
        return self.browser.find_element(self.by.CSS_SELECTOR, css)

    def text_of(self, css: str) -> str:
        """The element's text, or "" while the page that has it is still on its way."""
        from selenium.common.exceptions import NoSuchElementException as Missing
        from selenium.common.exceptions import StaleElementReferenceException as Stale

        try:
            return self.browser.find_element(self.by.CSS_SELECTOR, css).text
        except (Missing, Stale):
            return ""

    def value_of(self, css: str) -> str:
        try:
            return self.find(css).get_attribute("value")
        except Exception:
            return ""

    def choose(self, css: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.find(css)).select_by_value(value)

    def shoot(self, picture: str) -> None:
        self.browser.save_screenshot(str(self.pictures / picture))

    def width(self) -> int:
        return self.browser.execute_script("return document.documentElement.scrollWidth")


def test_the_roster_form_in_the_browser(browser, server, tmp_path: Path):
    """新游戏 from the form: the seats' names filled in by one script (typing 48 fields a key
    at a time took a minute), the judge typed; a name twice is refused beside the seat,
    then the game is made."""
    address, token, _ = server
    judge = Judge(browser, address, shots(tmp_path))
    judge.go(f"/?token={token}")
    assert browser.current_url == f"{address}/new"  # no game yet; the token left the address
    judge.shoot("01-new-game.png")
    judge.find("#rules-form button[type=submit]").click()
    judge.find("textarea[name=judges]").send_keys(f"{JUDGE[0]} {JUDGE[1]}")
    judge.find("textarea[name=substitutes]").send_keys(SUBSTITUTE)
    seats = {f"name{seat}": name(seat) for seat in range(1, PLAYERS + 1)}
    seats |= {f"uid{seat}": str(5000 + seat) for seat in range(1, PLAYERS + 1)}
    seats["name3"] = name(2)  # a slip: 3号 written as 2号's name
    browser.execute_script(
        "for (const [field, value] of Object.entries(arguments[0]))"
        " document.querySelector(`[name=${field}]`).value = value;",
        seats,
    )
    judge.find("#roster-form button[type=submit]").click()
    wait_for(lambda: "重复" in judge.text_of("#error-name3"), what="the refusal beside 3号")
    judge.browser.execute_script("document.querySelector('[name=name3]').scrollIntoView()")
    judge.shoot("02-roster-form.png")
    box = judge.find("input[name=name3]")
    box.clear()
    box.send_keys(name(3))
    judge.find("#roster-form button[type=submit]").click()
    wait_for(lambda: "已建立游戏文件" in judge.text_of("#done"), what="已建立游戏文件")
    assert "16 名玩家" in judge.text_of("#done")


def test_a_whole_12_day_in_the_browser(browser, server, serve_site, tmp_path: Path):
    address, token, db = server
    board = board_for_a_12_game()
    board.login_seccode = "always"  # the board asks for its captcha at every login
    base = serve_site(board)
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    thread = vote_thread(
        board,
        {1: "投5号", 2: "投5号", 3: "投7号", 11: "我看5号最可疑", 12: "投阿七", 13: "投5号"},
        now - timedelta(minutes=30),
    )
    vote_url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    judge = Judge(browser, address, shots(tmp_path))
    private = db.parent / "killmod-private"

    # 新游戏 from a roster file, through the page's own import field; 发身份
    judge.go(f"/?token={token}")
    judge.find("#import-form input[name=roster]").send_keys(str(roster_file(tmp_path)))
    judge.find("#import-form button").click()
    wait_for(lambda: "已建立游戏文件" in judge.text_of("#done"), what="已建立游戏文件")
    judge.find("#deal-form button").click()
    wait_for(lambda: "已发身份：16 名玩家" in judge.text_of("#done"), what="已发身份：16 名玩家")
    assert len(list(private.glob("*.txt"))) == PLAYERS
    judge.shoot("03-dealt.png")

    # 登录论坛 through the board's own form: its captcha shown, a wrong code refused beside
    # its field, then signed in; the session kept 0600, the password nowhere
    judge.go("/login")
    judge.find("#start-login input[name=board]").send_keys(f"{base}/")
    judge.find("#start-login button").click()
    picture = judge.find("#captcha").get_attribute("src")
    assert picture.startswith("data:image/png;base64,")
    assert judge.value_of("input[name=name]") == JUDGE[0]  # the roster's judge
    judge.find("input[name=password]").send_keys("secret")
    judge.find("input[name=code]").send_keys("BBBB")
    judge.find("#board-login button").click()
    wait_for(lambda: "验证码填写错误" in judge.text_of("#error-code"), what="the wrong code")
    judge.find("input[name=password]").send_keys("secret")
    judge.find("input[name=code]").send_keys(board.captchas[-1].lower())  # read off the picture
    judge.shoot("04-login-captcha.png")
    judge.find("#board-login button").click()
    wait_for(lambda: "已登录论坛：法官（uid 900）" in judge.text_of("#done"), what="signed in")
    kept = private / "board-cookies.txt"
    assert kept.stat().st_mode & 0o777 == 0o600 and "secret" not in kept.read_text("utf-8")

    # 今天 → 夜晚: the rule set's night as a form of living seats
    judge.go("/")
    assert "潜水统计" in judge.text_of("#other-steps") and "替补" in judge.text_of("#other-steps")
    judge.shoot("05-today.png")
    judge.find(".steps a.primary").click()
    judge.choose("#night-kill", "16")
    judge.find("input[name=at]").send_keys((now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M"))
    judge.shoot("06-night.png")
    judge.find("#night-form button").click()
    asked = browser.find_elements(judge.by.CSS_SELECTOR, "input[name=self_aimed]")
    if asked:  # the deal is random: 16 may be a killer, and his kill is confirmed
        asked[0].click()
        judge.find("#night-form button").click()
    assert "16号" in judge.value_of("#step-post-text")

    # 计票: the vote thread pasted, the deadline under a minute away
    deadline = datetime.now(SHANGHAI).replace(microsecond=0) + timedelta(seconds=40)
    judge.go("/vote")
    judge.find("input[name=thread]").send_keys(vote_url)
    box = judge.find("input[name=deadline]")
    box.clear()
    box.send_keys(deadline.strftime("%Y-%m-%d %H:%M:%S"))
    judge.find("#vote-form button").click()
    first = wait_for(lambda: judge.value_of("#count-post-text"), what="the count")
    assert "临时票型" in first and "4号" in first  # 4号 has not voted yet
    wait_for(lambda: "还有" in judge.text_of(".clocks .left"), what="the countdown")
    judge.shoot("07-live-count.png")

    # a ballot posted on the board: the live count changes by itself
    post_ballot(thread, 4, "投7号", datetime.now(SHANGHAI).replace(microsecond=0))
    wait_for(lambda: judge.value_of("#count-post-text") != first, 15, "the count to change")

    # 记为别名: 12号 voted for “阿七”, a name nobody has; the count offers it as 7号's alias
    wait_for(lambda: "阿七" in judge.text_of("#unknown-names"), what="the unknown name")
    judge.choose("#unknown-names select[name=seat]", "7")
    judge.find("#unknown-names button").click()
    wait_for(lambda: "确认记为别名" in judge.text_of("#confirm-alias"), what="the alias's question")
    judge.shoot("24-alias-from-count.png")
    judge.find("#confirm-alias button").click()
    wait_for(lambda: "「阿七」是 7号 玩家7 的别名" in judge.text_of("#done"), what="the alias")
    wait_for(lambda: "阿七" not in judge.text_of("#count .notes"), what="the recount")

    # a ruling: 11号's post (“我看5号最可疑”, no ballot) is an abstention: 5 and 7 tie
    row = judge.find("#pid-81005")
    from selenium.webdriver.support.ui import Select

    Select(row.find_element(judge.by.CSS_SELECTOR, "select")).select_by_value("abstain")
    row.find_element(judge.by.CSS_SELECTOR, "button").click()
    wait_for(lambda: "法官裁定" in judge.text_of("#pid-81005"), what="the ruling")

    # after the deadline: the final count, 记录 after its confirmation
    wait_for(lambda: "截止后的计票公告" in judge.text_of("#count"), 90, "the deadline")
    judge.shoot("08-final-count.png")
    judge.find("#record-form button").click()
    wait_for(lambda: "确认记录第" in judge.text_of("h1"), what="确认记录第")
    chosen = judge.find("#evidence-choice input[value=attach]")
    assert chosen.is_selected()  # signed in: the bundle goes with the announcement
    judge.shoot("09-confirm-record.png")
    judge.find("#confirm-record button").click()
    announcement = judge.value_of("#step-post-text")
    assert "5号" in announcement and "7号" in announcement and "平票" in announcement
    assert "（证据包：本帖附件。" in announcement

    # 下载证据包: the bundle as killmod evidence writes it, which killmod verify confirms
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    judge.shoot("25-recorded.png")
    judge.find("#evidence-1").click()
    bundle = downloads / "killmod-round1-evidence.zip"
    wait_for(lambda: bundle.exists() and not list(downloads.glob("*.crdownload")), what="the zip")
    checked = CliRunner().invoke(main, ["verify", str(bundle)])
    assert checked.exit_code == 0, checked.output
    assert "结论：一致" in checked.stdout and announcement in checked.stdout

    # 复制: the clipboard holds the post, byte for byte
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": address, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    judge.find("#step-post button.copy").click()
    wait_for(lambda: "已复制" in judge.text_of("#step-post .copied"), what="已复制")
    copied = browser.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], e => arguments[0]('ERR ' + e))"
    )
    assert copied == announcement

    # 发到论坛 as the judge signed in through the form: what and where first, then once
    judge.find("#post-form button").click()
    wait_for(
        lambda: "将以 法官（uid 900）的身份回复帖子" in judge.text_of("#where"),
        what="将以 法官（uid 900）的身份回复帖子",
    )
    assert "，附件 killmod-round1-evidence.zip（" in judge.text_of("#where")
    judge.shoot("10-confirm-post.png")
    assert board.replies == []
    judge.find("#confirm-post button").click()
    wait_for(lambda: "已回复帖子" in judge.text_of("#done"), what="已回复帖子")
    assert [(tid, text) for tid, _, text in board.replies] == [(TID, announcement)]
    ((_, pid, _),) = board.replies
    assert board.attachments_of(pid) == [(bundle.name, bundle.read_bytes())]

    # 抽签: 今天 leads to the tie's lottery; the lots made (the commitment to post, the lots
    # on the 仅法官可见 page), then the drawn lot revealed
    judge.go("/")
    wait_for(lambda: "第 1 轮平票：抽签" in judge.text_of(".steps"), what="the lottery button")
    judge.find(".steps a.primary").click()
    judge.shoot("11-lottery.png")
    judge.find("#make-form button").click()
    commitment = wait_for(lambda: judge.value_of("#step-post-text"), what="the lots")
    assert "签位承诺（SHA-256）" in commitment and "号签：" not in commitment
    judge.shoot("12-lottery-made.png")
    judge.go("/private")
    lots = judge.value_of("#lots-text")
    assert "1 号签：" in lots and "2 号签：" in lots
    judge.go("/")
    judge.find(".steps a.primary").click()  # 公布抽签结果
    judge.find("#reveal-form input[name=lot]").send_keys("1")
    judge.shoot("13-lottery-reveal.png")
    judge.find("#reveal-form button").click()
    drawn = wait_for(lambda: judge.value_of("#step-post-text"), what="the draw")
    out = lots.split("1 号签：")[1].split("号")[0]
    assert "第 1 轮平票抽签结果" in drawn and f"{out}号" in drawn

    # 夜晚 read from the inbox: a killer's 站内短信 on the board, read as the judge, shown
    # with the night's form filled in from it, recorded once the judge has checked it
    killers = [seat for seat in seats_of(db, "杀手") if seat not in (16, int(out))]
    target = next(seat for seat in range(1, PLAYERS) if seat not in (16, int(out), *killers))
    sent = datetime.now(SHANGHAI).replace(microsecond=0)
    board.write(5000 + killers[0], JUDGE[1], f"今晚杀{target}号", sent)
    judge.go("/")
    judge.find(".steps a.primary").click()  # 第 2 轮夜晚
    judge.find("#inbox summary").click()
    until = (sent + timedelta(minutes=10)).strftime("%Y-%m-%d %H:%M")
    judge.find("#inbox-form input[name=until]").send_keys(until)
    judge.find("#inbox-form input[name=early]").click()  # the players' deadline is to come
    judge.find("#inbox-form button").click()
    wait_for(lambda: f"今晚杀{target}号" in judge.text_of("#inbox-reading"), what="the letters")
    assert judge.value_of("#night-kill") == str(target)
    judge.shoot("14-night-inbox.png")
    judge.find("#night-form button").click()
    dawn = wait_for(lambda: judge.value_of("#step-post-text"), what="the dawn post")
    assert f"{target}号" in dawn and "尸体" in dawn

    # 历程 with its picture, then 撤销 after its confirmation
    judge.go("/history")
    assert judge.find("#chart").get_attribute("src").startswith("data:image/png;base64,")
    judge.shoot("15-history.png")
    judge.go("/undo")
    wait_for(lambda: "第 2 轮的夜晚" in judge.text_of("#undo-title"), what="the night to undo")
    judge.find("#undo-form button").click()
    wait_for(lambda: "已撤销" in judge.text_of("#undone"), what="已撤销")
    judge.shoot("16-undone.png")

    # the other steps' forms
    for path, picture in (
        ("/lurkers", "17-lurkers.png"),
        ("/out", "18-out.png"),
        ("/leave", "19-leave.png"),
        ("/penalty", "20-penalty.png"),
        ("/alias", "21-alias.png"),
    ):
        judge.go(path)
        assert judge.find("form button.primary, form button.danger")
        judge.shoot(picture)

    # a phone's width: the page still reads; a substitute takes over 3号 there
    browser.set_window_size(PHONE, 900)
    judge.go("/")
    assert judge.width() <= PHONE
    judge.shoot("22-phone.png")
    judge.go("/sub")
    judge.choose("#sub-form select[name=seat]", "3")
    judge.find("#sub-form input[name=name]").send_keys(SUBSTITUTE)
    judge.find("#sub-form input[name=uid]").send_keys("6000")
    judge.find("#sub-form input[name=send]").click()  # his notice by 站内短信, confirmed first
    judge.shoot("23-phone-sub.png")
    judge.find("#sub-form button").click()
    post = wait_for(lambda: judge.value_of("#step-post-text"), what="the substitution")
    assert SUBSTITUTE in post and "3号" in post
    assert judge.width() <= PHONE
    judge.find("#send-form button").click()
    wait_for(lambda: f"3号 {SUBSTITUTE}（uid 6000）" in judge.text_of("#plan"), what="to whom")
    judge.shoot("26-phone-send.png")
    assert board.pms_to(6000) == []
    judge.find("#confirm-send button").click()
    wait_for(lambda: "站内短信发完" in judge.text_of("#done"), what="the notice sent")
    (letter,) = board.pms_to(6000)
    assert letter.text not in browser.page_source  # the role stays off the page
    assert judge.width() <= PHONE
    for path in ("/login", "/lottery", "/vote"):
        judge.go(path)
        assert judge.width() <= PHONE, path


def test_a_day_skipped_then_a_vote_recorded_again_in_the_browser(
    browser, server, serve_site, tmp_path: Path
):
    """跳过白天 confirmed, then undone; the vote recorded, a nickname made an alias from the
    recorded round's count, and the vote recorded again once the judge has seen what
    changes; the threads recorded on 游戏帖和投票帖."""
    address, token, _ = server
    board = board_for_a_12_game()
    base = serve_site(board)
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    ballots = {seat: "投5号" for seat in (1, 2, 3, 7)} | {seat: "投4号" for seat in (4, 8, 9)}
    vote_thread(board, ballots | {6: "投四哥", 5: "弃权"}, now - timedelta(hours=2))
    vote_url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    deadline = (now - timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M:%S")
    judge = Judge(browser, address, shots(tmp_path))

    judge.go(f"/?token={token}")
    judge.find("#import-form input[name=roster]").send_keys(str(roster_file(tmp_path)))
    judge.find("#import-form button").click()
    judge.find("#deal-form button").click()
    wait_for(lambda: "已发身份" in judge.text_of("#done"), what="已发身份")
    judge.go("/night")
    judge.choose("#night-kill", "16")
    judge.find("input[name=at]").send_keys((now - timedelta(hours=3)).strftime("%Y-%m-%d %H:%M"))
    judge.find("#night-form button").click()
    if browser.find_elements(judge.by.CSS_SELECTOR, "input[name=self_aimed]"):
        judge.find("input[name=self_aimed]").click()
        judge.find("#night-form button").click()
    wait_for(lambda: judge.value_of("#step-post-text"), what="the dawn post")

    # 游戏帖和投票帖: the vote thread recorded, so the count needs no address typed
    judge.go("/threads")
    judge.find("#thread-form input[value=vote]").click()
    judge.find("#thread-form input[name=url]").send_keys(vote_url)
    judge.find("#thread-form button").click()
    wait_for(lambda: "已记下第 1 轮的投票帖" in judge.text_of("#done"), what="the vote thread")
    judge.shoot("27-threads.png")

    # 跳过白天: offered on 今天, confirmed on the night's page, then undone
    judge.go("/")
    judge.find("#skip-day-step").click()
    wait_for(lambda: "第 1 轮白天的投票还没有记录" in judge.text_of("#skip-day"), what="the skip")
    judge.choose("#night-kill", "10")
    judge.find("input[name=at]").send_keys(now.strftime("%Y-%m-%d %H:%M"))
    judge.find("input[name=skip_day]").click()
    judge.shoot("28-skip-day.png")
    judge.find("#night-form button").click()
    if browser.find_elements(judge.by.CSS_SELECTOR, "input[name=self_aimed]"):
        assert judge.find("input[name=skip_day]").is_selected()  # kept as ticked
        judge.find("input[name=self_aimed]").click()
        judge.find("#night-form button").click()
    wait_for(lambda: "第 2 轮的夜晚" in judge.text_of("h1"), what="the night recorded")
    judge.go("/undo")
    judge.find("#undo-form button").click()
    wait_for(lambda: "已撤销" in judge.text_of("#undone"), what="已撤销")

    # the vote recorded: 6号's “四哥” is nobody's name, so 5 is out by 4 votes to 3
    judge.go("/vote")
    box = judge.find("input[name=deadline]")
    box.clear()
    box.send_keys(deadline)
    judge.find("#vote-form button").click()
    wait_for(lambda: "截止后的计票公告" in judge.text_of("#count"), what="the final count")
    judge.find("#record-form button").click()
    judge.find("#evidence-choice input[value=ask]").click()
    judge.find("#confirm-record button").click()
    first = wait_for(lambda: judge.value_of("#step-post-text"), what="the announcement")
    assert "5号 玩家5[/b] 得票最高，被投出局" in first

    # 四哥 is 4号: made an alias from the recorded round's count, then the vote recorded again
    judge.go("/vote")
    judge.find("#earlier a").click()
    wait_for(lambda: "四哥" in judge.text_of("#unknown-names"), what="the unknown name")
    judge.choose("#unknown-names select[name=seat]", "4")
    judge.find("#unknown-names button").click()
    judge.find("#confirm-alias button").click()
    wait_for(lambda: "「四哥」是 4号 玩家4 的别名" in judge.text_of("#done"), what="the alias")
    judge.find("#replace-form button").click()
    changes = wait_for(lambda: judge.text_of("#changes"), what="what changes")
    assert "结果：记录的是 5号 玩家5 出局，重新计票是 平票（4号 玩家4、5号 玩家5）" in changes
    judge.shoot("29-replace.png")
    judge.find("#confirm-replace button").click()
    wait_for(lambda: "第 1 轮计票已重新记录" in judge.text_of("h1"), what="recorded again")
    again = judge.value_of("#step-post-text")
    assert "平票" in again and "被投出局" not in again
