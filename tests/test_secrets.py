"""Secrets stay secret: file permissions, no role in any public post, cookies never shown.

- The game file (and SQLite's files beside it), the private notices of ``deal`` and the
  lottery files of ``lottery make --out`` are readable by their owner only (0600).
- Over random games (Hypothesis: random roles, deaths, votes, ties, lots, kills and vetoes)
  no public output depends on a living player's role: each game is played twice, the
  second time with the roles of the players still alive at the end shuffled among them,
  and every public post must come out the same (the game-over post, which reveals every
  role by design, is left out).  Non-camp roles (水民, 检查官) never appear at all.
- A cookies file's contents are never printed, logged or cached, whatever happens.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
import subprocess
import sys
import types
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import hypothesis.strategies as st
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, assume, given, settings

from killmod.commands.cli import main
from tests.support.forumserver import serve
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    JUDGE,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
    discuz_x_site,
    login_page,
    render_discuz_x_page,
)
from tests.support.publicgames import same_moment

KILLMOD = Path(sys.executable).parent / "killmod"
ROLES = ("杀手",) * 3 + ("水民",) * 12 + ("检查官",)
NAMES = (
    *("meer", "阿狸", "路人甲", "狼人", "预言家", "潜水员", "花生米", "闲云野鹤"),
    *("小明", "Tommy", "星期八", "白开水", "夜猫子", "老王", "红豆", "小透明"),
)
DEADLINE = "2019-05-12 22:00"
COOKIE = "s3cr3t-cookie-value-7f1d2c"


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def cli(*args: object):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def ok(*args: object) -> str:
    """Everything a command that succeeded showed (stdout and stderr)."""
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return result.output


# --- files readable by their owner only ----------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> Path:
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "game.db"
    ok("init", "--roster", roster, "--db", db)
    return db


def test_the_game_file_and_sqlites_files_beside_it_are_0600(game, tmp_path):
    assert mode(game) == 0o600
    example = Path(__file__).resolve().parent.parent / "examples" / "day1"
    ok("tally", example, "--deadline", DEADLINE, "--db", game, "--record", "--round", 1)
    files = sorted(tmp_path.glob("game.db*"))
    assert files[0] == game
    for path in files:  # the WAL and shared-memory files hold the same secrets
        assert mode(path) == 0o600, path


def test_a_game_file_made_under_a_permissive_umask_is_still_0600(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    old = os.umask(0)
    try:
        ok("init", "--roster", roster, "--db", tmp_path / "open.db")
    finally:
        os.umask(old)
    assert mode(tmp_path / "open.db") == 0o600


def test_private_notices_are_0600(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(re.sub(r'role = "[^"]*"\n', "", DEMO_ROSTER_TOML), encoding="utf-8")
    db = tmp_path / "game.db"
    ok("init", "--roster", roster, "--db", db)
    notices = tmp_path / "notices"
    output = ok("deal", "--db", db, "--seed", 5, "--notices", notices)
    files = sorted(notices.iterdir())
    assert len(files) == 16
    assert all(mode(path) == 0o600 for path in files)
    assert not any(role in output for role in ("杀手", "水民", "检查官"))


def test_lottery_files_written_with_out_are_0600(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "game.db"
    ok("init", "--roster", roster, "--db", db)
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")  # a 5–7 tie
    example = Path(__file__).resolve().parent.parent / "examples" / "day1"
    ok(
        "tally", example, "--deadline", DEADLINE, "--db", db, "--record", "--round", 1,
        "--rulings", rulings,
    )  # fmt: skip
    out = tmp_path / "lottery"
    printed = ok("lottery", "make", "--round", 1, "--seed", 3, "--db", db, "--private", out)
    (path,) = out.iterdir()
    assert mode(path) == 0o600 and mode(out) == 0o700
    private = path.read_text("utf-8")
    assert "号签：" in private and "号签：" not in printed  # the lots are not printed


# --- no public output depends on a living player's role -----------------------------------------


def roster_toml(roles: tuple[str, ...], dead: frozenset[int]) -> str:
    lines = [
        'rules = "1.2"',
        'timezone = "Asia/Shanghai"',
        f'judges = ["{JUDGE[0]}"]',
        'substitutes = ["替补甲"]',
    ]
    for seat in range(1, 17):
        lines += [
            "[[players]]",
            f"seat = {seat}",
            f'name = "{NAMES[seat - 1]}"',
            f"uid = {2000 + seat}",
            f"alive = {'false' if seat in dead else 'true'}",
            f'role = "{roles[seat - 1]}"',
        ]
    return "\n".join(lines) + "\n"


def write_thread(folder: Path, ballots: list[tuple[int, str]]) -> None:
    """The day's vote thread as saved pages: the judge's opening post, then ``ballots``."""
    start = datetime(2019, 5, 12, 10, 0, 0, tzinfo=SHANGHAI)
    posts = [FakePost(100000, *JUDGE, start, "【投票帖】22:00 截止", time_style="absolute")]
    posts.append(FakePost(100001, "路过的", 3001, start, "围观", time_style="absolute"))
    for n, (seat, body) in enumerate(ballots, start=2):
        posts.append(
            FakePost(
                100000 + n,
                NAMES[seat - 1],
                2000 + seat,
                start + timedelta(minutes=20 * n),
                body,
                time_style="absolute",
            )
        )
    thread = FakeThread(8101, "【投票帖】", posts, start + timedelta(hours=13), per_page=10)
    folder.mkdir()
    for page in range(1, thread.page_count + 1):
        (folder / f"page{page}.html").write_bytes(render_discuz_x_page(thread, page))


def public_posts(
    folder: Path, thread: Path, roles, dead, scenario
) -> tuple[dict[str, str], frozenset[int]]:
    """Play one game on the vote thread saved in ``thread``: every public output (game-over
    posts cut off) and who is alive at the end."""
    folder.mkdir()
    roster = folder / "roster.toml"
    roster.write_text(roster_toml(roles, dead), encoding="utf-8")
    db = folder / "game.db"
    ok("init", "--roster", roster, "--db", db)
    day = ["tally", thread, "--deadline", DEADLINE, "--db", db]
    out: dict[str, str] = {}
    for fmt in ("text", "json", "audit"):
        out[f"tally.{fmt}"] = cli(*day, "--format", fmt).stdout
    out["tally.bbcode"] = cli(*day, "--record", "--round", 1).stdout
    made = cli("lottery", "make", "--round", 1, "--seed", scenario["seed"], "--db", db)
    out["lottery.public"] = made.stdout
    lot = ["lottery", "reveal", "--round", 1, "--lot", scenario["lot"], "--db", db]
    out["lottery.reveal"] = cli(*lot).stdout
    out["lurkers"] = cli("lurkers", thread, "--round", 1, "--record", "--db", db).stdout
    night = ["night", "--round", 1, "--at", "2019-05-13 09:00", "--db", db]
    night += [
        arg for key in ("kill", "veto") if scenario[key] for arg in (f"--{key}", scenario[key])
    ]
    out["night.bbcode"] = cli(*night).stdout
    out["night.json"] = cli(*night, "--replace", "--format", "json").stdout
    for fmt in ("bbcode", "text"):
        out[f"audit.{fmt}"] = cli("audit", "--format", fmt, "--db", db).stdout
    out["status"] = cli("status", "--db", db).stdout
    status = out["status"]
    alive = frozenset(int(s) for s in re.findall(r"(\d+)号", status.split("\n")[1]))
    return {
        name: text.split("[size=4][b]游戏结束")[0].replace(str(folder), "GAME")
        for name, text in out.items()
    }, alive


@st.composite
def scenarios(draw):
    roles = tuple(draw(st.permutations(ROLES)))
    dead = frozenset(draw(st.sets(st.integers(1, 16), max_size=6)))
    living = [seat for seat in range(1, 17) if seat not in dead]
    killers = [seat for seat in living if roles[seat - 1] == "杀手"]
    assume(killers and len(living) > 5)
    choice = st.one_of(
        st.integers(1, 16).map(lambda seat: f"投{seat}号"), st.sampled_from(("弃权", "顶"))
    )
    voters = st.sampled_from(living)
    # at least one post by a player: a vote thread with none is refused as not this game's
    ballots = draw(st.lists(st.tuples(voters, choice), min_size=1, max_size=24))
    optional_seat = st.one_of(st.none(), st.integers(1, 16))
    return (
        roles,
        dead,
        {
            "ballots": ballots,
            "seed": draw(st.integers(0, 1000)),
            "lot": draw(st.integers(1, 4)),
            "kill": draw(optional_seat),
            "veto": draw(optional_seat),
        },
    )


@contextmanager
def fixed_salt():
    """The lottery's secret salt made predictable, so that two plays can be compared."""
    import killmod.usecases.lottery

    with pytest.MonkeyPatch.context() as patch:
        # the lottery's own ``secrets`` only: private files name their temporary files with it
        salts = types.SimpleNamespace(
            token_hex=lambda n=16: "ab" * n, SystemRandom=secrets.SystemRandom
        )
        patch.setattr(killmod.usecases.lottery, "secrets", salts)
        yield


@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a game a second: no shrinking
)
@given(scenarios())
@pytest.mark.slow
def test_no_public_post_depends_on_a_living_players_role(tmp_path_factory, scenario):
    roles, dead, plan = scenario
    folder = tmp_path_factory.mktemp("game")
    thread = folder / "vote-thread"
    write_thread(thread, plan["ballots"])
    with fixed_salt():
        first, alive = public_posts(folder / "first", thread, roles, dead, plan)
        # the roles of the players alive at the end, shuffled among them (a rotation)
        living = sorted(alive)
        shuffled = list(roles)
        for seat, other in zip(living, living[1:] + living[:1], strict=True):
            shuffled[seat - 1] = roles[other - 1]
        second, alive_again = public_posts(folder / "second", thread, tuple(shuffled), dead, plan)
    assert alive_again == alive
    for name, text in first.items():
        # the evidence's hash covers the moment each twin read the thread: masked here, the
        # bundles themselves are compared without it (tests/test_evidence.py)
        assert same_moment(second[name]) == same_moment(text), (
            f"{name} depends on a living player's role"
        )
        if not text:
            continue  # a refusal (on stderr): no public post
        for role in ("水民", "检查官"):  # roles that are no camp: never public
            assert role not in text, f"{role} in {name}"
    assert "投票结果" in first["tally.bbcode"]


# --- cookies -------------------------------------------------------------------------------


@pytest.fixture
def cookies(tmp_path: Path) -> Path:
    path = tmp_path / "cookies.txt"
    path.write_text(
        "# Netscape HTTP Cookie File\n"
        f"127.0.0.1\tFALSE\t/\tFALSE\t0\tcdb_auth\t{COOKIE}\n"
        f"killmod-test.invalid\tFALSE\t/\tFALSE\t0\tcdb_sid\t{COOKIE}\n",
        encoding="utf-8",
    )
    return path


@contextmanager
def board(answer):
    """The suite's local board answering ``answer(path)`` (with the board's own ``Date``, as
    a site gives it); yields its address and the headers of every request."""
    with serve(answer) as base:
        yield base, base.server.headers


def has_cookies_option() -> bool:
    return "--cookies" in cli("tally", "--help").output


needs_cookies = pytest.mark.skipif(
    not has_cookies_option(), reason="killmod tally has no --cookies option yet"
)


def console(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache-home"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [str(KILLMOD), *map(str, args)], capture_output=True, text=True, timeout=120, cwd=cwd,
        env=env,
    )  # fmt: skip


def everything_written(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in folder.rglob("*") if path.is_file())


@needs_cookies
@pytest.mark.slow
def test_cookies_are_sent_and_never_printed_or_cached(tmp_path, cookies):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    site = discuz_x_site(demo_thread())
    with board(site) as (base, seen):
        url = f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}"
        cache = tmp_path / "cache"
        done = console(
            "tally", url, "--roster", roster, "--deadline", "22:00", "--cookies", cookies,
            "--cache", cache, "--format", "json", cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert any(COOKIE in headers.get("Cookie", "") for headers in seen), "no cookie was sent"
    assert COOKIE not in done.stdout + done.stderr
    assert COOKIE.encode() not in everything_written(cache)


@needs_cookies
@pytest.mark.parametrize("failure", ["login", "error", "unreachable"])
@pytest.mark.slow
def test_cookies_never_appear_in_an_error(tmp_path, cookies, failure):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")

    def answer(path):
        if failure == "login":
            return login_page()
        return Response(500, {"Content-Type": "text/plain"}, b"oops")

    with board(answer) as (base, _):
        url = f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}"
        if failure == "unreachable":
            url = "http://killmod-test.invalid/forum.php?mod=viewthread&tid=1"
        done = console(
            "tally", url, "--roster", roster, "--deadline", "22:00", "--cookies", cookies,
            "--timeout", "5", cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "错误：" in done.stderr and "Traceback" not in done.stderr
    assert COOKIE not in done.stdout + done.stderr


@needs_cookies
@pytest.mark.parametrize(
    "text",
    [
        f"not a cookie file at all {COOKIE}\n",
        f"# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\tsoon\tauth\t{COOKIE}\n",
        f"# Netscape HTTP Cookie File\n{COOKIE}\n",
    ],
)
@pytest.mark.slow
def test_a_bad_cookies_file_is_named_never_quoted(tmp_path, text):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    bad = tmp_path / "cookies.txt"
    bad.write_text(text, encoding="utf-8")
    url = "http://127.0.0.1:9/forum.php?mod=viewthread&tid=1"
    done = console(
        "tally", url, "--roster", roster, "--deadline", "22:00", "--cookies", bad, cwd=tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert "cookies.txt" in done.stderr and "Traceback" not in done.stderr
    assert COOKIE not in done.stdout + done.stderr


# --- a login in the URL ------------------------------------------------------------------

PASSWORD = "pw-s3cret-9c1e"


def with_login(base: str) -> str:
    """The board's URL with a login in it, as a judge behind HTTP basic auth writes it."""
    return base.replace("http://", f"http://judge:{PASSWORD}@", 1)


@pytest.mark.slow
def test_a_login_in_the_url_is_never_shown_cached_or_recorded(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "game.db"
    assert console("init", "--roster", roster, "--db", db, cwd=tmp_path).returncode == 0
    site = discuz_x_site(demo_thread())
    with board(site) as (base, _):
        url = f"{with_login(base)}/forum.php?mod=viewthread&tid={DEMO_TID}"
        cache = tmp_path / "cache"
        outputs = []
        for args in (
            ("--format", "json"),
            ("--format", "text"),
            ("--format", "audit"),
            ("--record", "--round", 1, "--db", db),
        ):
            roster_args = () if "--db" in args else ("--roster", roster)
            done = console(
                "tally", url, *roster_args, "--deadline", "22:00", "--cache", cache, *args,
                cwd=tmp_path,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            outputs.append(done.stdout + done.stderr)
        lurkers = console("lurkers", url, "--round", 1, "--db", db, "--cache", cache, cwd=tmp_path)
        assert lurkers.returncode == 0, lurkers.stderr
        outputs.append(lurkers.stdout + lurkers.stderr)
    assert all(PASSWORD not in text for text in outputs)
    assert "***@127.0.0.1" in outputs[0]  # the JSON's source says a login was used, not which
    assert PASSWORD.encode() not in everything_written(cache)
    assert PASSWORD.encode() not in everything_written(tmp_path / "cache-home")
    assert PASSWORD.encode() not in db.read_bytes()
    # nor is the URL with its login the cache's key: a hash of it could be tried offline
    keys = {path.stem for path in cache.iterdir()}
    assert hashlib.sha256(url.encode()).hexdigest() not in keys


@pytest.mark.parametrize("failure", ["error", "unreachable", "missing"])
@pytest.mark.slow
def test_a_login_in_the_url_never_appears_in_an_error(tmp_path, failure):
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")

    def answer(path):
        return Response(500, {"Content-Type": "text/plain"}, b"oops")

    with board(answer) as (base, _):
        url = f"{with_login(base)}/forum.php?mod=viewthread&tid={DEMO_TID}"
        if failure == "unreachable":
            url = f"http://judge:{PASSWORD}@killmod-test.invalid/forum.php?mod=viewthread&tid=1"
        extra = ("--offline",) if failure == "missing" else ()
        done = console(
            "tally", url, "--roster", roster, "--deadline", "22:00", "--timeout", "5", *extra,
            cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "错误：" in done.stderr and "Traceback" not in done.stderr
    assert "***@" in done.stderr  # the page is still named
    assert PASSWORD not in done.stdout + done.stderr


# --- private files: new files only, never through a link ----------------------------------


def test_a_planted_link_for_the_lots_is_refused_and_no_lots_are_made(tmp_path):
    db = tmp_path / "game.db"
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    ok("init", "--roster", roster, "--db", db)
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")  # a 5–7 tie
    example = Path(__file__).resolve().parent.parent / "examples" / "day1"
    ok(
        "tally", example, "--deadline", DEADLINE, "--db", db, "--record", "--round", 1,
        "--rulings", rulings,
    )  # fmt: skip
    folder = tmp_path / "game-private"
    folder.mkdir(mode=0o700)
    shared = tmp_path / "shared-board-notes.txt"
    (folder / "round1-lottery-private.txt").symlink_to(shared)
    done = cli("lottery", "make", "--round", 1, "--db", db)
    assert done.exit_code == 2 and "符号链接" in done.output and done.stdout == ""
    assert not shared.exists()
    from killmod.game.store import Game

    assert not Game.open(db).events("lottery")  # refused before anything was recorded


def test_a_file_in_the_way_of_a_nights_notes_is_refused_and_the_night_not_recorded(tmp_path):
    from tests.support.gamefiles import new_game

    roles = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察", 5: "平民", 6: "平民", 7: "平民", 8: "平民"}
    db = new_game(tmp_path, "x", roles)
    folder = tmp_path / "game-private"
    folder.mkdir(mode=0o700)
    (folder / "night1-private.txt").write_text("last game's notes", encoding="utf-8")
    done = cli("night", "--round", 1, "--kill", 5, "--check", 1, "--db", db)
    assert done.exit_code == 2 and "night1-private.txt 已经存在（文件）" in done.output
    assert (folder / "night1-private.txt").read_text("utf-8") == "last game's notes"
    from killmod.game.store import Game

    assert not Game.open(db).events("night")


def test_others_may_not_read_the_private_folder_and_are_warned_if_they_can(tmp_path):
    from tests.support.gamefiles import new_game

    roles = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察", 5: "平民", 6: "平民", 7: "平民", 8: "平民"}
    db = new_game(tmp_path, "x", roles)
    done = cli("night", "--round", 1, "--kill", 5, "--check", 1, "--db", db)
    assert done.exit_code == 0 and "其他用户也能打开" not in done.stderr
    folder = tmp_path / "game-private"
    assert mode(folder) == 0o700 and mode(folder / "night1-private.txt") == 0o600
    folder.chmod(0o755)
    done = cli("night", "--round", 2, "--kill", 6, "--check", 2, "--db", db, "--skip-day")
    assert done.exit_code == 0 and "其他用户也能打开（权限 0755）" in done.stderr
