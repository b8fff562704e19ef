"""Game files and vote threads for the rule sets' command tests (V4.0, X, 1.0, 2.0).

A game is a roster written from ``{seat: role}`` (player N is ``玩家N``, uid 5000+N),
turned into a real game file by ``killmod init``. A vote thread is built from
``(seat, "HH:MM:SS", body)`` rows on ``DAY`` and served by the tests' local
Discuz! X board, every time shown to the second.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner, Result

from killmod.commands.cli import main
from killmod.game.store import Game
from tests.support.forumserver import BaseUrl
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, Site, discuz_x_site

JUDGE = ("法官", 900)
TID = 9100
DEADLINE = "2024-03-01 22:00"
LATER = "2024-03-01 23:00"  # the deadline of a second vote in the same thread


def deadline(day: int, hm: str = "22:00") -> str:
    """The deadline ``hm`` on March ``day``."""
    return f"2024-03-{day:02d} {hm}"


# (seat, "HH:MM:SS", body), or with a fourth "HH:MM:SS": the time the post was edited.
Row = tuple[int, str, str] | tuple[int, str, str, str]


def name(seat: int) -> str:
    """The forum name of the player in ``seat``."""
    return f"玩家{seat}"


def roster_toml(
    rules: str,
    roles: Mapping[int, str | None],
    *,
    out: Iterable[int] = (),
    extra: str = "",
    names: Mapping[int, str] | None = None,
) -> str:
    """A roster: ``roles`` by seat (None: to be dealt), ``out`` already out, ``extra`` top keys."""
    names = names or {}
    lines = [f'rules = "{rules}"', 'timezone = "Asia/Shanghai"', 'judges = ["法官"]', extra]
    for seat, role in sorted(roles.items()):
        lines += [
            "",
            "[[players]]",
            f"seat = {seat}",
            f'name = "{names.get(seat, name(seat))}"',
            f"uid = {5000 + seat}",
        ]
        if role is not None:
            lines.append(f'role = "{role}"')
        if seat in set(out):
            lines.append("alive = false")
    return "\n".join(lines) + "\n"


def new_game(tmp_path: Path, rules: str, roles: Mapping[int, str | None], **more) -> Path:
    """A game file made by ``killmod init`` from the roster of ``roles``."""
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_toml(rules, roles, **more), encoding="utf-8")
    db = tmp_path / "game.db"
    ok(run("init", "--roster", roster, "--db", db))
    return db


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args])


def ok(done: Result) -> str:
    """The public post (stdout) of a command that succeeded."""
    assert done.exit_code == 0, done.output
    return done.stdout


def refused(done: Result, message: str) -> None:
    """Exit code 2 with ``message`` in the output."""
    assert done.exit_code == 2, done.output
    assert message in done.output, done.output


def vote_thread(rows: Iterable[Row], day: int = 1) -> FakeThread:
    """The vote thread: the judge's opening post at 19:00, then ``rows`` in time order."""
    pids = itertools.count(80001)
    opening = datetime(2024, 3, day, 19, 0, 0, tzinfo=SHANGHAI)
    posts = [FakePost(next(pids), *JUDGE, opening, "【投票帖】22:00 截止", time_style="absolute")]
    for seat, hms, body, *edit in sorted(rows, key=lambda row: row[1]):
        edited = _at(opening, edit[0]) if edit else None
        posts.append(
            FakePost(
                next(pids),
                name(seat),
                5000 + seat,
                _at(opening, hms),
                body,
                edited_at=edited,
                time_style="absolute",
            )
        )
    now = datetime(2024, 3, day + 1, 12, 0, 0, tzinfo=SHANGHAI)
    return FakeThread(TID, "【投票帖】", posts, now=now)


def _at(day: datetime, hms: str) -> datetime:
    hour, minute, second = (int(part) for part in hms.split(":"))
    return day.replace(hour=hour, minute=minute, second=second)


def serve(serve_site: Callable[[Site], BaseUrl], rows: Iterable[Row], day: int = 1) -> str:
    """The URL of a vote thread of ``rows`` (on March ``day``) on a local board."""
    base = serve_site(discuz_x_site(vote_thread(rows, day)))
    return f"{base}/forum.php?mod=viewthread&tid={TID}"


def votes(hms: str, ballots: Mapping[int, str]) -> list[Row]:
    """One post per seat at ``hms`` (a second apart, in seat order): ``{seat: body}``."""
    hour, minute, second = (int(part) for part in hms.split(":"))
    return [
        (seat, f"{hour:02d}:{minute:02d}:{second + n:02d}", body)
        for n, (seat, body) in enumerate(sorted(ballots.items()))
    ]


def point_all(hms: str, target: int, seats: Iterable[int]) -> list[Row]:
    """A ballot for ``target`` from each of ``seats``, a second apart from ``hms``."""
    return votes(hms, dict.fromkeys(seats, f"投{target}号"))


def tally(db: Path, url: str, *args: object, deadline: str = DEADLINE) -> Result:
    """``killmod tally`` of ``url`` on the game file."""
    return run("tally", url, "--db", db, "--deadline", deadline, *args)


def tally_json(db: Path, url: str, *args: object, deadline: str = DEADLINE) -> dict:
    return json.loads(ok(tally(db, url, "--format", "json", *args, deadline=deadline)))


def night(db: Path, number: int, *args: object) -> Result:
    return run("night", "--round", number, "--db", db, *args)


def night_json(db: Path, number: int, *args: object) -> dict:
    return json.loads(ok(night(db, number, *args, "--format", "json")))


def events(db: Path, kind: str | None = None) -> list:
    return Game.open(db).events(kind)


def alive(db: Path) -> list[int]:
    return [player.seat for player in Game.open(db).roster().living]


def seats_of(db: Path, role: str) -> list[int]:
    """The seats dealt ``role``, read from the game file (as the test may, and the judge's
    page may not)."""
    with Game.open(db) as opened:
        return [player.seat for player in opened.roster().players if player.role == role]


def private_text(db: Path, name: str) -> str:
    """A private file a command wrote in the game's private folder (beside the game file)."""
    return (db.parent / f"{db.stem}-private" / name).read_text(encoding="utf-8")


def said(done: Result) -> str:
    """What a command that succeeded told the judge on stderr (never the post)."""
    assert done.exit_code == 0, done.output
    return done.stderr
