"""A whole 1.2 day on the judge's page in a real headless Chromium (Debian's ``chromium``
and ``chromium-driver``, driven by Selenium), against the tests' local board: the game
made from the form, the deal, the night, the vote thread pasted, the live count changing
when a ballot is posted on the board, a ruling, 记录, 复制 (the clipboard's text checked),
发到论坛 after its confirmation, 撤销.

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

from killmod.web.app import create_app
from tests.support.boardgames import GAME_TID
from tests.support.gamefiles import TID, name
from tests.support.pagebuilder import SHANGHAI
from tests.support.webpage import (
    PLAYERS,
    SUBSTITUTE,
    board_for_a_12_game,
    judge_cookies,
    post_ballot,
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


def test_a_whole_12_day_in_the_browser(browser, server, serve_site, tmp_path: Path):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, token, db = server
    board = board_for_a_12_game()
    base = serve_site(board)
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    thread = vote_thread(
        board,
        {1: "投5号", 2: "投5号", 3: "投7号", 11: "我看5号最可疑"},
        now - timedelta(minutes=30),
    )
    vote_url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    pictures = shots(tmp_path)

    def find(css: str):
        return browser.find_element(By.CSS_SELECTOR, css)

    def text_of(css: str) -> str:
        """The element's text, or "" while the page that has it is still on its way."""
        try:
            return browser.find_element(By.CSS_SELECTOR, css).text
        except (NoSuchElementException, StaleElementReferenceException):
            return ""

    def shoot(picture: str) -> None:
        browser.save_screenshot(str(pictures / picture))

    # 新游戏: the token becomes a cookie, the address keeps no token
    browser.get(f"{address}/?token={token}")
    assert browser.current_url == f"{address}/new"
    shoot("01-new-game.png")
    find("#rules-form button[type=submit]").click()
    find("textarea[name=judges]").send_keys("法官 900")
    find("textarea[name=substitutes]").send_keys(SUBSTITUTE)
    for seat in range(1, PLAYERS + 1):
        find(f"input[name=name{seat}]").send_keys(name(seat))
        find(f"input[name=uid{seat}]").send_keys(str(5000 + seat))
    shoot("02-roster-form.png")
    find("#roster-form button[type=submit]").click()

    # 发身份
    wait_for(lambda: "已建立游戏文件" in text_of("#done"), what="已建立游戏文件")
    find("#deal-form button").click()
    wait_for(lambda: "已发身份：16 名玩家" in text_of("#done"), what="已发身份：16 名玩家")
    assert len(list((db.parent / "killmod-private").glob("*.txt"))) == PLAYERS
    shoot("03-dealt.png")

    # 登录论坛: the judge's cookies.txt imported (kept 0600 in the private folder)
    browser.get(f"{address}/login")
    find("input[name=cookies]").send_keys(str(judge_cookies(base, tmp_path)))
    find("#cookies-form button").click()
    wait_for(lambda: "已导入" in text_of("#done"), what="已导入")
    assert (db.parent / "killmod-private" / "board-cookies.txt").stat().st_mode & 0o777 == 0o600

    # 今天 → 夜晚: the rule set's night as a form of living seats
    browser.get(f"{address}/")
    shoot("04-today.png")
    find(".steps a.primary").click()
    Select(find("#night-kill")).select_by_value("16")
    find("input[name=at]").send_keys((now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M"))
    shoot("05-night.png")
    find("#night-form button").click()
    asked = browser.find_elements(By.CSS_SELECTOR, "input[name=self_aimed]")
    if asked:  # the deal is random: 16 may be a killer, and his kill is confirmed
        asked[0].click()
        find("#night-form button").click()
    assert "16号" in find("#step-post-text").get_attribute("value")

    # 计票: the vote thread pasted, the deadline a minute away
    deadline = now + timedelta(seconds=45)
    browser.get(f"{address}/vote")
    find("input[name=thread]").send_keys(vote_url)
    box = find("input[name=deadline]")
    box.clear()
    box.send_keys(deadline.strftime("%Y-%m-%d %H:%M:%S"))
    find("#vote-form button").click()

    def count_text() -> str:
        try:
            return find("#count-post-text").get_attribute("value")
        except Exception:
            return ""

    first = wait_for(count_text, what="the count")
    assert "临时票型" in first and "4号" in first  # 4号 has not voted yet
    wait_for(lambda: "还有" in text_of(".clocks .left"), what="the countdown")
    shoot("06-live-count.png")

    # a ballot posted on the board: the live count changes by itself
    post_ballot(thread, 4, "投7号", datetime.now(SHANGHAI).replace(microsecond=0))
    wait_for(lambda: count_text() != first, timeout=15, what="the live count to change")

    # a ruling: 11号's post (“我看5号最可疑”, no ballot) is read as a vote for 5
    row = find("#pid-81005")
    Select(row.find_element(By.CSS_SELECTOR, "select")).select_by_value("5")
    row.find_element(By.CSS_SELECTOR, "button").click()
    wait_for(lambda: "法官裁定" in text_of("#pid-81005"), what="the ruling")

    # after the deadline: the final count, 记录 after its confirmation
    wait_for(lambda: "截止后的计票公告" in text_of("#count"), timeout=90, what="the deadline")
    shoot("07-final-count.png")
    find("#record-form button").click()
    wait_for(lambda: "确认记录第" in text_of("h1"), what="确认记录第")
    shoot("08-confirm-record.png")
    find("#confirm-record button").click()
    announcement = find("#step-post-text").get_attribute("value")
    assert "5号" in announcement and "被投出局" in announcement

    # 复制: the clipboard holds the post, byte for byte
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": address, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    find("#step-post button.copy").click()
    wait_for(lambda: "已复制" in text_of("#step-post .copied"), what="已复制")
    copied = browser.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], e => arguments[0]('ERR ' + e))"
    )
    assert copied == announcement

    # 发到论坛: what and where first, then once
    find("#post-form button").click()
    wait_for(
        lambda: "将以 法官（uid 900）的身份回复帖子" in text_of("#where"),
        what="将以 法官（uid 900）的身份回复帖子",
    )
    shoot("09-confirm-post.png")
    assert board.replies == []
    find("#confirm-post button").click()
    wait_for(lambda: "已回复帖子" in text_of("#done"), what="已回复帖子")
    assert [(tid, text) for tid, _, text in board.replies] == [(TID, announcement)]

    # 历程 with its picture, then 撤销 after its confirmation
    browser.get(f"{address}/history")
    assert find("#chart").get_attribute("src").startswith("data:image/png;base64,")
    shoot("10-history.png")
    browser.get(f"{address}/undo")
    wait_for(lambda: "第 1 轮" in text_of("#undo-title"), what="第 1 轮")
    find("#undo-form button").click()
    wait_for(lambda: "已撤销" in text_of("#undone"), what="已撤销")
    shoot("11-undone.png")
    assert GAME_TID

    # a phone's width: the page still reads
    browser.set_window_size(390, 900)
    browser.get(f"{address}/")
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390
    shoot("12-phone.png")
