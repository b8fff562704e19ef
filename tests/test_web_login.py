"""登录论坛 on the judge's page: the judge signs in through the local board's own login form
(modelled on Discuz! X3.4's, with its captcha), the session kept in the private folder
(0600) and the password nowhere; the cookies.txt import still works (tests/test_web.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.fakeboard import FakeBoard
from tests.support.gamefiles import JUDGE
from tests.support.pagebuilder import Response
from tests.support.webpage import let_in

START = "/login/board/start"


def key_of(html: str) -> str:
    return re.search(r'name="key" value="([^"]+)"', html)[1]


def beside(html: str, field: str) -> str:
    found = re.search(
        rf'<span class="field-error" role="alert" id="error-{field}">(.*?)</span>', html
    )
    assert found, html[html.find("<main>") :][:2000]
    return found[1]


def board_with(mode: str) -> FakeBoard:
    board = FakeBoard(login_seccode=mode)
    board.member(JUDGE[0], JUDGE[1], password="correct horse")
    return board


def test_the_judge_signs_in_through_the_boards_form_and_its_captcha(tmp_path: Path, serve_site):
    board = board_with("always")
    base = serve_site(board)
    page = let_in(tmp_path / "killmod.db")
    asked = page.post(START, {"board": f"{base}/forum.php?mod=viewthread&tid=1"})
    assert asked.status_code == 200, asked.get_data(as_text=True)
    html = asked.get_data(as_text=True)
    assert re.search(
        r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="论坛的验证码图片"', html
    )
    assert 'name="password"' in html and 'name="code"' in html
    key = key_of(html)

    wrong = page.post("/login/board", {"key": key, "name": JUDGE[0], "password": "correct horse",
                                       "code": "ABCD"})  # fmt: skip
    assert wrong.status_code == 422
    assert "验证码填写错误" in beside(wrong.get_data(as_text=True), "code")
    assert len(board.captchas) == 2  # a new picture for the next try
    assert not (tmp_path / "killmod-private" / "board-cookies.txt").exists()

    code = board.captchas[-1].lower()  # read from the picture, typed in any case
    done = page.post("/login/board", {"key": key, "name": JUDGE[0], "password": "correct horse",
                                      "code": code})  # fmt: skip
    assert done.status_code == 200, done.get_data(as_text=True)
    assert "已登录论坛：法官（uid 900）" in done.get_data(as_text=True)
    kept = tmp_path / "killmod-private" / "board-cookies.txt"
    assert kept.stat().st_mode & 0o777 == 0o600
    assert "Kq7m_2132_auth" in kept.read_text(encoding="utf-8")
    for path in (tmp_path / "killmod-private").iterdir():
        assert "correct horse" not in path.read_text(encoding="utf-8")
    again = page.post("/login/board", {"key": key, "name": JUDGE[0], "password": "x", "code": "y"})
    assert again.status_code == 422 and "登录已过期" in again.get_data(as_text=True)


def test_a_board_that_asks_for_a_captcha_after_failed_tries(tmp_path: Path, serve_site):
    board = board_with("after_failures")
    base = serve_site(board)
    page = let_in(tmp_path / "killmod.db")
    html = page.post(START, {"board": base + "/"}).get_data(as_text=True)
    assert 'name="code"' not in html  # no captcha until the board asks
    key = key_of(html)
    for left in (4, 3):
        refused = page.post("/login/board", {"key": key, "name": JUDGE[0], "password": "guess"})
        assert refused.status_code == 422
        said = beside(refused.get_data(as_text=True), "password")
        assert f"登录失败，您还可以尝试 {left} 次" in said
    asked = page.post("/login/board", {"key": key, "name": JUDGE[0], "password": "correct horse"})
    html = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "论坛要求输入验证码后继续登录" in html
    assert 'name="password"' not in html and 'name="code"' in html  # name, password sealed
    done = page.post("/login/board", {"key": key, "code": board.captchas[-1]})
    assert "已登录论坛：法官（uid 900）" in done.get_data(as_text=True)
    assert (tmp_path / "killmod-private" / "board-cookies.txt").exists()


def test_a_page_that_is_no_login_form_is_refused_naming_it(tmp_path: Path, serve_site):
    def elsewhere(path: str) -> Response:
        body = "<html><body><p>欢迎光临</p></body></html>".encode()
        return Response(200, {"Content-Type": "text/html; charset=utf-8"}, body)

    base = serve_site(elsewhere)
    page = let_in(tmp_path / "killmod.db")
    empty = page.post(START, {"board": ""})
    assert "请给出论坛网址" in beside(empty.get_data(as_text=True), "board")
    refused = page.post(START, {"board": base + "/"})
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert "没有给出登录表单" in html and "member.php?mod=logging" in html
