"""``killmod upgrade``: a game file of schema 1 rewritten to this killmod's schema, the
original kept beside it.

Schema 1 (killmod 0.1.0) kept events and tallies without the step that wrote them, voided
a replaced record with the id of the tally or night that replaced it, wrote dealt roles
over the roster's in ``players``, and used WAL.  The upgrade works on a copy (SQLite's
backup, which reads through a WAL): the copy is migrated in one transaction — each event
given the step schema 1 wrote it in, each void the step that voided it, the deal's
roles moved into its event, roles checked against the rule set — then opened and checked
as any game file, and only then put in the file's place.  The original stays, whole, as
``FILE.v1.bak``; any failure leaves it as it was.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sqlite3
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from killmod.core.errors import BadInput
from killmod.game.dbfile import check_existing, connect, refusal
from killmod.game.store import INIT, SCHEMA_VERSION, Game, generic_title
from killmod.rules.roles import canonical_role, roles_of

OLD = 1


@dataclass(frozen=True)
class Upgraded:
    """The upgraded file, where the original is kept, and how many steps it holds."""

    path: Path
    backup: Path
    steps: int


@dataclass
class _Step:
    kind: str
    round: int | None
    title: str
    recorded_at: str
    events: list[int] = field(default_factory=list)
    tally: int | None = None
    id: int = 0


def upgrade(path: Path) -> Upgraded:
    """Upgrade the schema-1 game file at ``path`` (bad input for any other)."""
    check_existing(path)
    target = path.resolve()
    work = target.with_name(f".{target.name}.upgrade-{secrets.token_hex(4)}.tmp")
    try:
        _copy(target, work)
        steps = _migrate(work)
        Game.open(work).close()  # checked as any game file: schema, quick_check
        if Path(f"{target}-wal").exists():
            raise BadInput(
                f"游戏文件 {path} 正被另一个程序打开（旁边有 -wal 文件）：关掉它后再升级。"
            )
        backup = _backup_name(target)
        _keep(target, backup)
        os.replace(work, target)
    except sqlite3.Error as error:
        raise refusal(path, error) from None
    finally:
        for leftover in (work, Path(f"{work}-journal")):
            with suppress(FileNotFoundError):
                leftover.unlink()
    return Upgraded(path, backup, steps)


def _copy(target: Path, work: Path) -> None:
    """A consistent copy of the original (through its WAL), readable by its owner only."""
    source = connect(target)
    try:
        version = _version(source, target)
        if version == SCHEMA_VERSION:
            raise BadInput(f"游戏文件 {target} 已经是第 {SCHEMA_VERSION} 版，不用升级。")
        if version != OLD:
            raise BadInput(f"游戏文件 {target} 的格式是第 {version} 版：这个 killmod 不会升级它。")
        os.close(os.open(work, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
        copy = connect(work)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()


def _version(conn: sqlite3.Connection, path: Path) -> Any:
    try:
        row = conn.execute("select value from settings where key = 'schema'").fetchone()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            raise BadInput(f"不是 killmod 的游戏文件：{path}") from None
        raise
    if row is None:
        raise BadInput(f"不是 killmod 的游戏文件：{path}")
    return json.loads(row[0])


def _backup_name(target: Path) -> Path:
    name = target.with_name(f"{target.name}.v{OLD}.bak")
    number = 1
    while name.exists() or name.is_symlink():
        number += 1
        name = target.with_name(f"{target.name}.v{OLD}.{number}.bak")
    return name


def _keep(target: Path, backup: Path) -> None:
    """The original under its backup name (the same file, linked; copied where links fail)."""
    try:
        os.link(target, backup)
    except OSError:
        shutil.copy2(target, backup)


# --- the migration ------------------------------------------------------------------------


def _migrate(work: Path) -> int:
    conn = connect(work)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("BEGIN IMMEDIATE")
        count = _migrate_tables(conn, work)
        conn.execute("COMMIT")
        return count
    except BaseException:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def _migrate_tables(conn: sqlite3.Connection, work: Path) -> int:
    conn.row_factory = sqlite3.Row
    conn.execute(
        "create table steps (id integer primary key, recorded_at text, kind text,"
        " round integer, title text, void integer)"
    )
    conn.execute("alter table events add column step_id integer")
    conn.execute("alter table tallies add column step_id integer")
    conn.execute("create index idx_events_step_id on events (step_id)")
    tables = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
    if "games" in tables:
        conn.execute("alter table games add column last_step_id integer")
    else:
        conn.execute(
            "create table games (id integer primary key, closed_at text, last_event_id integer,"
            " last_tally_id integer, last_step_id integer, summary text)"
        )
    events = [dict(row) for row in conn.execute("select * from events order by id")]
    for event in events:
        event["data"] = json.loads(event["data"])
    ends = [row["last_event_id"] for row in conn.execute("select * from games order by id")]
    steps: list[_Step] = []
    game_ends = []
    start = 0
    for end in [*ends, None]:
        segment = [e for e in events if e["id"] > start and (end is None or e["id"] <= end)]
        steps += _steps_of(segment, first=not steps)
        game_ends.append(len(steps))
        start = end or 0
    for number, step in enumerate(steps, 1):
        step.id = number
    _write_steps(conn, steps, events, game_ends)
    _move_deal_roles(conn, events, ends[-1] if ends else 0)
    _check_roles(conn)
    conn.execute("update settings set value = ? where key = 'schema'", [json.dumps(SCHEMA_VERSION)])
    return len(steps)


def _steps_of(events: list[dict], *, first: bool) -> list[_Step]:
    """The steps schema 1 wrote ``events`` of one game in, as its use cases wrote them."""
    opened = events[0]["recorded_at"] if events else ""
    init = _Step(INIT, None, "建立游戏" if first else "开始下一局", opened)
    steps = [init]
    current: _Step | None = None
    for event in events:
        kind, data = event["kind"], event["data"]
        if (kind, data.get("by")) == ("substitution", "roster") or (
            (kind, data.get("reason")) == ("warning", "carried")
        ):
            init.events.append(event["id"])
            continue
        step = _starts(event, current)
        if step is None and current is None:
            title = generic_title(kind, event["round"], event["seat"])
            step = _Step(kind, event["round"], title, event["recorded_at"])
        if step is not None:
            steps.append(step)
            current = step
        current.events.append(event["id"])
    return steps


def _starts(event: dict, current: _Step | None) -> _Step | None:
    """The new step ``event`` begins, or None when it belongs to the current one."""
    kind, data, round_no, at = event["kind"], event["data"], event["round"], event["recorded_at"]
    seat = event["seat"]
    if kind == "tally_replaced":
        return _Step("tally", round_no, f"第 {round_no} 轮的投票", at, tally=data.get("new"))
    if kind == "day":
        if (
            current is not None
            and current.kind == "tally"
            and current.tally == data.get("tally_id")
        ):
            return None
        return _Step("tally", round_no, f"第 {round_no} 轮的投票", at, tally=data.get("tally_id"))
    if kind == "night":
        title = f"第 {data['night']} 夜" if "night" in data else f"第 {round_no} 轮的夜晚"
        return _Step("night", round_no, title, at)
    if kind == "lottery":
        digest = data.get("commitment", "")[:16]
        return _Step("lottery_make", round_no, f"第 {round_no} 轮平票的签（承诺值 {digest}…）", at)
    if kind == "death" and data.get("how") == "lottery":
        title = f"第 {round_no} 轮的抽签结果（{data.get('lot')} 号签）"
        return _Step("lottery_reveal", round_no, title, at)
    if kind == "suicide":
        return _Step("suicide", round_no, f"第 {round_no} 轮 {seat}号 亮牌自杀", at)
    if kind == "leave":
        return _Step(
            "leave", round_no, f"{seat}号 {data.get('name')} 请假（{data.get('day')}）", at
        )
    if kind == "violation":
        title = f"第 {round_no} 轮 {seat}号 {data.get('name')} 的犯规处罚"
        return _Step("penalty", round_no, title, at)
    if kind == "deal":
        return _Step("deal", round_no, "发身份", at)
    if kind == "substitution" and data.get("by") == "judge":
        return _Step("sub", None, f"{seat}号的替补：{data.get('new')} 接替 {data.get('old')}", at)
    if kind == "warning" and data.get("reason") == "lurking":
        if current is not None and current.kind == "lurkers" and current.round == round_no:
            return None
        return _Step("lurkers", round_no, f"第 {round_no} 轮的潜水警告", at)
    return None


def _write_steps(
    conn: sqlite3.Connection, steps: list[_Step], events: list[dict], game_ends: list[int]
) -> None:
    step_of = {event_id: step for step in steps for event_id in step.events}
    for step in steps:
        _insert(conn, step)
        for event_id in step.events:
            conn.execute("update events set step_id = ? where id = ?", [step.id, event_id])
    tally_step = {step.tally: step for step in steps if step.tally is not None}
    for row in conn.execute("select id, round, recorded_at from tallies").fetchall():
        step = tally_step.get(row["id"])
        if step is None:  # a tally recorded without a day event: a step of its own
            step = _Step("tally", row["round"], f"第 {row['round']} 轮的投票", row["recorded_at"])
            step.id = len(steps) + 1
            steps.append(step)
            _insert(conn, step)
        conn.execute("update tallies set step_id = ? where id = ?", [step.id, row["id"]])
    # Schema 1 voided by the id of the replacing tally or night: now by the replacing step.
    conn.execute("update events set void = 0")
    for event in events:
        if event["kind"] in ("tally_replaced", "night_replaced"):
            voiding = step_of[event["id"]].id
            for voided in event["data"].get("voided_events", []):
                conn.execute("update events set void = ? where id = ?", [voiding, voided])
            if event["kind"] == "tally_replaced":
                old = event["data"].get("old")
                conn.execute("update tallies set void = ? where id = ?", [voiding, old])
    conn.execute(
        """
        update steps set void = (select max(void) from events where step_id = steps.id)
        where not exists (select 1 from events where step_id = steps.id and void = 0)
          and exists (select 1 from events where step_id = steps.id)
        """
    )
    for index, end in enumerate(game_ends[:-1], 1):
        conn.execute("update games set last_step_id = ? where id = ?", [end, index])


def _insert(conn: sqlite3.Connection, step: _Step) -> None:
    conn.execute(
        "insert into steps (id, recorded_at, kind, round, title, void) values (?, ?, ?, ?, ?, 0)",
        [step.id, step.recorded_at, step.kind, step.round, step.title],
    )


def _move_deal_roles(conn: sqlite3.Connection, events: list[dict], since: int) -> None:
    """The current game's dealt roles into its deal event; ``players`` keeps the roster's."""
    deals = [e for e in events if e["kind"] == "deal" and e["id"] > since and not e["void"]]
    if not deals:
        return
    roles = {
        str(row["seat"]): row["role"] for row in conn.execute("select seat, role from players")
    }
    data = {**deals[-1]["data"], "roles": roles}
    conn.execute(
        "update events set data = ? where id = ?",
        [json.dumps(data, ensure_ascii=False), deals[-1]["id"]],
    )
    conn.execute("update players set role = null")


def _check_roles(conn: sqlite3.Connection) -> None:
    """Every role of the game, roster's or dealt, one of its rule set's (traditional forms
    read as simplified); anything else stops the upgrade."""
    settings = {
        row["key"]: json.loads(row["value"]) for row in conn.execute("select * from settings")
    }
    known = roles_of(settings["rules"], tuple(settings.get("variants") or ()))
    for row in conn.execute("select seat, role from players where role is not null").fetchall():
        found = canonical_role(row["role"], known)
        if found is None:
            raise BadInput(
                f"{row['seat']}号的身份「{row['role']}」不是 {settings['rules']} 规则的身份"
                f"（可用：{'、'.join(known)}）：这局的公告可能已经错了。没有升级，原文件没有改动。"
            )
        conn.execute("update players set role = ? where seat = ?", [found, row["seat"]])
    for row in conn.execute("select id, data from events where kind = 'deal'").fetchall():
        data = json.loads(row["data"])
        roles = data.get("roles") or {}
        for seat, role in roles.items():
            found = canonical_role(role, known)
            if found is None:
                raise BadInput(
                    f"{seat}号发到的身份「{role}」不是 {settings['rules']} 规则的身份："
                    "没有升级，原文件没有改动。"
                )
            roles[seat] = found
        if roles:
            data["roles"] = roles
            conn.execute(
                "update events set data = ? where id = ?",
                [json.dumps(data, ensure_ascii=False), row["id"]],
            )
