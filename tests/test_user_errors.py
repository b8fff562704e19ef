"""Every user-facing error: a Chinese message, the right exit code, never a traceback.

A few cases run the installed ``killmod`` console script in a subprocess (what a judge
runs); the rest go through click's CliRunner.  Exit codes (README): 1 the tally could not
be done (a page failed, a login or error page, the host unreachable); 2 bad usage or input
(roster, deadline, rulings, an unknown forum format, an unknown seat).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.pagebuilder import (
    DEMO_TID,
    LOGIN_MESSAGE,
    NO_THREAD_MESSAGE,
    demo_thread,
    discuz_x_site,
    login_page,
)
from tests.support.pagebuilder_dz72 import dz72_login_page

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PAGES = str(ROOT / "examples" / "day1")
KILLMOD = Path(sys.executable).parent / "killmod"
CJK = re.compile("[\u4e00-\u9fff]")


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch) -> None:
    """Fetched pages are cached in the user cache directory: the tests' own, here."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))


@pytest.fixture
def game(tmp_path: Path, roster: Path) -> Path:
    db = tmp_path / "game.db"
    assert (
        CliRunner().invoke(main, ["init", "--roster", str(roster), "--db", str(db)]).exit_code == 0
    )
    return db


def cli(*args: str):
    """Run in-process; the result's exception must be the command's own exit."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"uncaught {result.exception!r}"
    )
    return result


def console(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run the installed console script, as a judge does."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [str(KILLMOD), *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def assert_user_error(output: str, code: int, expected_code: int, *words: str) -> None:
    """A Chinese ``错误：…`` message carrying ``words``, the exit code, no traceback."""
    assert code == expected_code, output
    assert "Traceback" not in output, output
    assert "错误：" in output, output
    message = output[output.index("错误：") :]
    assert CJK.search(message.removeprefix("错误：")), output
    for word in words:
        assert word in output, f"{word!r} not in {output!r}"


def assert_console_error(done: subprocess.CompletedProcess, code: int, *words: str) -> None:
    assert done.stdout == "", "nothing may be printed as a result"
    assert_user_error(done.stderr, done.returncode, code, *words)


def free_port() -> int:
    """A local port nobody listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def demo_url(base: str, tid: int = DEMO_TID) -> str:
    return f"{base}/forum.php?mod=viewthread&tid={tid}"


# --- the real console script ----------------------------------------------------------------


@pytest.mark.slow
def test_console_bad_roster_names_the_file_line_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('rules = "1.2"\n[[players]]\nseat = 1\nname = "a"\ncolour = "red"\n', "utf-8")
    done = console(
        "tally", EXAMPLE_PAGES, "--roster", str(bad), "--deadline", "22:00", cwd=tmp_path
    )
    assert_console_error(done, 2, "bad.toml", "第 5 行", "colour")


@pytest.mark.slow
def test_console_dns_failure_names_the_host(tmp_path, roster):
    url = "http://killmod-test.invalid/forum.php?mod=viewthread&tid=1"
    done = console("tally", url, "--roster", str(roster), "--deadline", "22:00", cwd=tmp_path)
    assert_console_error(done, 1, "无法连接论坛", "killmod-test.invalid")


@pytest.mark.slow
def test_console_tls_error_to_a_plain_http_port(serve_site, tmp_path, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    url = demo_url(base.replace("http://", "https://"))
    done = console("tally", url, "--roster", str(roster), "--deadline", "22:00", cwd=tmp_path)
    assert_console_error(done, 1, "无法建立安全连接（TLS 错误）", url)


@pytest.mark.slow
def test_console_unknown_seat_for_a_substitute(tmp_path, game):
    done = console("sub", "99", "新人", "--db", str(game), cwd=tmp_path)
    assert_console_error(done, 2, "没有 99 号座位")


@pytest.mark.slow
def test_console_login_page(serve_site, tmp_path, roster):
    base = serve_site(lambda path: login_page())
    done = console(
        "tally", demo_url(base), "--roster", str(roster), "--deadline", "22:00", cwd=tmp_path
    )
    assert_console_error(done, 1, "论坛返回了提示页面", LOGIN_MESSAGE)


# --- in process -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deadline", "words"),
    [
        ("明天吧", "无法识别的截止时间"),
        ("25点", "不存在"),
        ("2019-02-30 22:00", "截止时间"),
        ("", "截止时间"),
    ],
)
def test_bad_deadline(roster, deadline, words):
    result = cli("tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", deadline)
    assert_user_error(result.output, result.exit_code, 2, words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("this is not toml", "TOML 格式错误"),
        ('rules = "9.9"\n[[players]]\nseat = 1\nname = "a"\n', "rules"),
        (
            'rules = "1.2"\n[[players]]\nseat = 1\nname = "a"\n[[players]]\nseat = 1\nname = "b"\n',
            "seat",
        ),
        ('rules = "1.2"\n[[players]]\nseat = "one"\nname = "a"\n', "seat"),
        ('rules = "1.2"\n', "players"),
    ],
)
def test_bad_roster(tmp_path, text, words):
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    result = cli("tally", EXAMPLE_PAGES, "--roster", str(bad), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 2, "bad.toml", words)


def test_roster_that_is_not_utf8(tmp_path):
    bad = tmp_path / "gbk.toml"
    bad.write_bytes('rules = "1.2"\n[[players]]\nseat = 1\nname = "阿狸"\n'.encode("gbk"))
    result = cli("tally", EXAMPLE_PAGES, "--roster", str(bad), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 2, "UTF-8")


def test_missing_roster(tmp_path):
    result = cli(
        "tally", EXAMPLE_PAGES, "--roster", str(tmp_path / "none.toml"), "--deadline", "22:00"
    )
    assert_user_error(result.output, result.exit_code, 2, "找不到这个文件")


def test_unknown_forum_format(roster):
    result = cli(
        "tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", "22:00", "--forum", "vbb"
    )
    assert_user_error(result.output, result.exit_code, 2, "未知的论坛格式「vbb」", "discuz_x")


def test_a_page_no_format_recognises(tmp_path, roster):
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>hello</p></body></html>", encoding="utf-8")
    result = cli("tally", str(page), "--roster", str(roster), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 1, "无法识别的论坛页面格式", "--forum")


@pytest.mark.slow
def test_unreachable_host(roster):
    url = f"http://127.0.0.1:{free_port()}/forum.php?mod=viewthread&tid=1"
    result = cli("tally", url, "--roster", str(roster), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 1, "无法连接论坛 127.0.0.1", url)
    assert "投票结果" not in result.output


def test_http_404(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    url = f"{base}/no/such/page.php"
    result = cli(
        "tally", url, "--roster", str(roster), "--deadline", "22:00", "--forum", "discuz_x"
    )
    assert_user_error(result.output, result.exit_code, 1, "HTTP 404", "页面不存在", url)


def test_thread_that_does_not_exist(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    result = cli("tally", demo_url(base, tid=1), "--roster", str(roster), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 1, NO_THREAD_MESSAGE)


def test_discuz7_login_page(serve_site, roster):
    base = serve_site(lambda path: dz72_login_page(now=demo_thread().now))
    url = f"{base}/viewthread.php?tid={DEMO_TID}"
    result = cli("tally", url, "--roster", str(roster), "--deadline", "22:00")
    assert_user_error(result.output, result.exit_code, 1, "论坛返回了提示页面", "未登录")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[13\nignore = true\n", "TOML 格式错误"),
        ("[13]\nignore = true\ncolour = 1\n", "colour"),
        ('[13]\ntarget = "everyone"\n', "target"),
        ("[abc]\nignore = true\n", "abc"),
    ],
)
def test_bad_rulings_file(tmp_path, roster, text, words):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text(text, encoding="utf-8")
    result = cli(
        "tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", "2019-05-12 22:00",
        "--rulings", str(rulings),
    )  # fmt: skip
    assert_user_error(result.output, result.exit_code, 2, "rulings.toml", words)


def test_bad_profile_file(tmp_path, roster):
    profile = tmp_path / "board.toml"
    profile.write_text('name = "x"\n', encoding="utf-8")
    result = cli(
        "tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", "22:00",
        "--profile", str(profile),
    )  # fmt: skip
    assert_user_error(result.output, result.exit_code, 2, "board.toml", "缺少这个必需的键")


def test_missing_game_file(tmp_path):
    result = cli("status", "--db", str(tmp_path / "none.db"))
    assert_user_error(result.output, result.exit_code, 2, "找不到游戏文件", "killmod init")


def test_a_file_that_is_not_a_game(tmp_path):
    other = tmp_path / "notes.db"
    other.write_text("just some notes\n", encoding="utf-8")
    result = cli("status", "--db", str(other))
    assert_user_error(result.output, result.exit_code, 2, "不是 killmod 的游戏文件")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["sub", "99", "新人"], "没有 99 号座位"),
        (["sub", "6", "新人"], "已出局"),
        (["night", "--round", "1", "--kill", "99"], "没有 99 号座位，不能被杀"),
        (["night", "--round", "1", "--veto", "99"], "没有 99 号座位"),
        (["night", "--round", "1", "--kill", "6"], "已出局"),
        (["leave", "99", "--day", "2019-05-12"], "没有 99 号座位"),
        (["leave", "1", "--day", "昨天吧"], "无法识别的日期"),
        (["penalty", "99", "--round", "1", "--kind", "cancel", "--choice", "x"], "没有 99 号座位"),
        (["lottery", "reveal", "--round", "1", "--lot", "1"], "还没有做签"),
        (["lottery", "make", "--round", "1"], "没有记录平票"),
        (["status", "--reveal"], "还没有结束"),
    ],
)
def test_game_commands_refuse_bad_seats_and_steps(game, args, words):
    result = cli(*args, "--db", str(game))
    assert_user_error(result.output, result.exit_code, 2, words)


def test_record_without_a_game_file_is_bad_input(roster):
    result = cli("tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", "22:00", "--record")
    assert_user_error(result.output, result.exit_code, 2, "--record", "--db")


def test_bad_templates_folder_and_a_broken_template(tmp_path, roster):
    args = ["tally", EXAMPLE_PAGES, "--roster", str(roster), "--deadline", "2019-05-12 22:00"]
    result = cli(*args, "--templates", str(tmp_path / "none"))
    assert_user_error(result.output, result.exit_code, 2, "模板文件夹不存在")
    (tmp_path / "tally.bbcode.j2").write_text("{% if %}", encoding="utf-8")
    result = cli(*args, "--templates", str(tmp_path))
    assert_user_error(result.output, result.exit_code, 2, "模板 tally.bbcode.j2 出错")


def test_usage_error_is_chinese_with_exit_2():
    result = cli("tally", "--bogus")
    assert_user_error(result.output, result.exit_code, 2, "没有这个选项：--bogus")
