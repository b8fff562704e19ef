"""The game file: one SQLite database per game, written with sqlite-utils.

What the judge set up (players, their first names, the substitutes' queue,
dealt roles) lives in plain tables; everything that happens afterwards —
deaths, warnings, substitutions, vetoes, lotteries, night actions, recorded
tallies — is an event.  The game's state (the ``Roster`` a tally needs) is
derived from the events, so replacing a recorded round only voids its events:
nothing recorded is ever lost.  Each recorded step is one transaction.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from killmod.errors import BadInput, KillmodError
from killmod.model import FormerHolder, Player, Post, Roster
from killmod.times import format_iso

SCHEMA_VERSION = 1
BUSY_SECONDS = 10  # how long to wait for another killmod writing the same file
BUSY_ENV = "KILLMOD_BUSY_SECONDS"  # overrides BUSY_SECONDS (the tests wait less)


class GameLocked(KillmodError):
    """Another killmod process is writing the same game file."""


@dataclass(frozen=True)
class Event:
    """One thing that happened in the game, in the order it was recorded."""

    id: int
    round: int | None
    kind: str
    seat: int | None
    data: dict[str, Any]
    recorded_at: str


class Game:
    """An open game file."""

    def __init__(self, db: sqlite_utils.Database, path: Path) -> None:
        self.db = db
        self.path = path
        self._since = self._current_game_start()

    # --- creating and opening ---------------------------------------------------------

    @classmethod
    def create(cls, path: Path, roster: Roster, *, force: bool = False) -> Game:
        """A new game file from ``roster``, readable by its owner only (0600)."""
        if path.exists() and not force:
            raise BadInput(f"游戏文件已存在：{path}（要重新开始请加 --force）")
        if path.exists():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Create the file 0600 before SQLite opens it: secret roles live here.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
        game = cls(_connect(path), path)
        with game.transaction():
            game._create_tables()
            game._write_roster(roster)
        return game

    @classmethod
    def open(cls, path: Path) -> Game:
        """An existing game file; a missing or foreign file is bad input."""
        if not path.is_file():
            raise BadInput(f"找不到游戏文件：{path}（先用 killmod init 建立）")
        try:
            game = cls(_connect(path), path)
            version = game.setting("schema")
        except sqlite3.DatabaseError as error:
            if "locked" in str(error):
                raise GameLocked(_locked_message(path)) from None
            raise BadInput(f"不是 killmod 的游戏文件：{path}") from None
        if version != SCHEMA_VERSION:
            raise BadInput(f"不是 killmod 的游戏文件，或版本不符：{path}")
        return game

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[Game]:
        """One recorded step: all of it is written, or none of it."""
        try:
            self.db.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error):
                raise GameLocked(_locked_message(self.path)) from None
            raise
        try:
            yield self
        except BaseException:
            self.db.conn.execute("ROLLBACK")
            raise
        self.db.conn.execute("COMMIT")

    # --- the set-up -------------------------------------------------------------------

    def _create_tables(self) -> None:
        db = self.db
        db["settings"].create({"key": str, "value": str}, pk="key")
        db["players"].create(
            {"seat": int, "name": str, "uid": int, "aliases": str, "alive": int, "role": str},
            pk="seat",
        )
        db["substitutes"].create({"position": int, "name": str}, pk="position")
        db["events"].create(
            {
                "id": int,
                "recorded_at": str,
                "round": int,
                "kind": str,
                "seat": int,
                "data": str,
                "void": int,
            },
            pk="id",
        )
        db["events"].create_index(["round", "kind"])
        db["tallies"].create(
            {
                "id": int,
                "round": int,
                "recorded_at": str,
                "deadline": str,
                "source": str,
                "title": str,
                "snapshot_sha256": str,
                "result": str,
                "void": int,
            },
            pk="id",
        )
        db["posts"].create(
            {
                "tally_id": int,
                "pid": int,
                "floor": int,
                "author": str,
                "uid": int,
                "posted_at": str,
                "precision": str,
                "body": str,
                "quotes": str,
                "edited_at": str,
                "banned": int,
            },
            pk=("tally_id", "pid"),
            foreign_keys=[("tally_id", "tallies", "id")],
        )

    def _write_roster(self, roster: Roster) -> None:
        settings = {
            "schema": SCHEMA_VERSION,
            "rules": roster.rules,
            "timezone": roster.timezone,
            "judges": list(roster.judges),
            "judge_uids": roster.judge_uids,
            "variants": list(roster.variants),
            "code": roster.code,
        }
        self.db["settings"].upsert_all(
            (
                {"key": key, "value": json.dumps(value, ensure_ascii=False)}
                for key, value in settings.items()
            ),
            pk="key",
        )
        self.db["players"].insert_all(
            {
                "seat": p.seat,
                "name": p.name,
                "uid": p.uid,
                "aliases": json.dumps(list(p.aliases), ensure_ascii=False),
                "alive": int(p.alive),
                "role": p.role,
            }
            for p in roster.players
        )
        self.db["substitutes"].insert_all(
            {"position": n, "name": name} for n, name in enumerate(roster.substitutes, 1)
        )
        for player in roster.players:
            for holder in player.former:
                self.record(
                    None,
                    "substitution",
                    player.seat,
                    {
                        "old": holder.name,
                        "old_uid": holder.uid,
                        "new": player.name,
                        "new_uid": player.uid,
                        "at": format_iso(holder.until),
                        "by": "roster",
                    },
                )
        for seat, total in roster.warnings.items():
            for _ in range(total):
                self.record(None, "warning", seat, {"reason": "carried", "action": "warn"})

    def setting(self, key: str) -> Any:
        row = self.db.execute("select value from settings where key = ?", [key]).fetchone()
        return json.loads(row[0]) if row else None

    def set_roles(self, roles: dict[int, str]) -> None:
        """Write dealt roles (inside a transaction)."""
        for seat, role in roles.items():
            self.db["players"].update(seat, {"role": role})

    # --- events -------------------------------------------------------------------------

    def record(
        self,
        round_no: int | None,
        kind: str,
        seat: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> int:
        """Append an event (inside a transaction); returns its id."""
        row = {
            "recorded_at": format_iso(datetime.now().astimezone()),
            "round": round_no,
            "kind": kind,
            "seat": seat,
            "data": json.dumps(data or {}, ensure_ascii=False),
            "void": 0,
        }
        return self.db["events"].insert(row).last_pk

    def events(self, kind: str | None = None, *, include_void: bool = False) -> list[Event]:
        """The recorded events in order (voided ones only when asked)."""
        where, args = [], []
        if kind:
            where.append("kind = ?")
            args.append(kind)
        if not include_void:
            where.append("void = 0")
        where.append("id > ?")  # the current game's events: earlier games are history
        args.append(self._since[0])
        sql = "select * from events" + (f" where {' and '.join(where)}" if where else "")
        return [
            Event(
                row["id"],
                row["round"],
                row["kind"],
                row["seat"],
                json.loads(row["data"]),
                row["recorded_at"],
            )
            for row in self.db.query(sql + " order by id", args)
        ]

    def void_events(self, ids: list[int], voided_by: int) -> None:
        """Void events of a replaced record; they stay in the file, marked by who voided them."""
        for event_id in ids:
            self.db["events"].update(event_id, {"void": voided_by})

    # --- derived state ------------------------------------------------------------------

    def roster(self, *, without_tally: int | None = None) -> Roster:
        """The game's current state as the tally and the rules see it.

        ``without_tally`` leaves out the effects of one recorded tally: the
        state that tally was counted on, for recording its round again.
        """
        players = {p.seat: p for p in self.initial_players()}
        queue = [
            row["name"] for row in self.db.query("select name from substitutes order by position")
        ]
        warnings: dict[int, int] = {}
        for event in self.events():
            if without_tally is not None and event.data.get("tally_id") == without_tally:
                continue
            seat = event.seat
            if event.kind == "death":
                players[seat] = replace(players[seat], alive=False)
            elif event.kind == "revival":
                players[seat] = replace(players[seat], alive=True)
            elif event.kind == "warning":
                warnings[seat] = warnings.get(seat, 0) + 1
            elif event.kind == "substitution":
                players[seat] = _substituted(players[seat], event.data)
                if event.data["new"] in queue:
                    queue.remove(event.data["new"])
                warnings.pop(seat, None)  # a new holder starts without warnings
        return Roster(
            players=tuple(players[seat] for seat in sorted(players)),
            rules=self.setting("rules"),
            timezone=self.setting("timezone"),
            judges=tuple(self.setting("judges")),
            judge_uids=dict(self.setting("judge_uids") or {}),
            substitutes=tuple(queue),
            variants=tuple(self.setting("variants") or ()),
            warnings=warnings,
            code=self.setting("code"),
        )

    def initial_players(self) -> list[Player]:
        """The players as the roster set them up (or the deal), before any event."""
        return [
            Player(
                seat=row["seat"],
                name=row["name"],
                uid=row["uid"],
                aliases=tuple(json.loads(row["aliases"])),
                alive=bool(row["alive"]),
                role=row["role"],
            )
            for row in self.db.query("select * from players order by seat")
        ]

    # --- recorded tallies ---------------------------------------------------------------

    def tally_record(self, round_no: int) -> dict[str, Any] | None:
        """The standing recorded tally of a round, if any."""
        rows = list(
            self.db.query(
                "select * from tallies where round = ? and void = 0 and id > ?"
                " order by id desc limit 1",
                [round_no, self._since[1]],
            )
        )
        return rows[0] if rows else None

    def save_tally(
        self,
        round_no: int,
        *,
        deadline: str,
        source: str,
        title: str | None,
        snapshot: str,
        result: dict[str, Any],
        posts: list[Post],
    ) -> int:
        """Store a tally and the posts snapshot it used (inside a transaction)."""
        tally_id = (
            self.db["tallies"]
            .insert(
                {
                    "round": round_no,
                    "recorded_at": format_iso(datetime.now().astimezone()),
                    "deadline": deadline,
                    "source": source,
                    "title": title,
                    "snapshot_sha256": snapshot,
                    "result": json.dumps(result, ensure_ascii=False),
                    "void": 0,
                }
            )
            .last_pk
        )
        self.db["posts"].insert_all(post_row(tally_id, post) for post in posts)
        return tally_id

    def void_tally(self, tally_id: int, voided_by: int) -> None:
        self.db["tallies"].update(tally_id, {"void": voided_by})

    # --- games in the same file ---------------------------------------------------------

    def next_game(self, roster: Roster, summary: dict[str, Any]) -> None:
        """Close the current game into ``games`` (``summary`` kept as JSON) and set up ``roster``.

        The closed game's events and tallies stay in the file as history; from now
        on only later ones are the game's (inside a transaction).
        """
        if "games" not in self.db.table_names():
            self.db["games"].create(
                {
                    "id": int,
                    "closed_at": str,
                    "last_event_id": int,
                    "last_tally_id": int,
                    "summary": str,
                },
                pk="id",
            )
        last_event = self.db.execute("select coalesce(max(id), 0) from events").fetchone()[0]
        last_tally = self.db.execute("select coalesce(max(id), 0) from tallies").fetchone()[0]
        self.db["games"].insert(
            {
                "closed_at": format_iso(datetime.now().astimezone()),
                "last_event_id": last_event,
                "last_tally_id": last_tally,
                "summary": json.dumps(summary, ensure_ascii=False),
            }
        )
        self._since = (last_event, last_tally)
        self.db.execute("delete from players")
        self.db.execute("delete from substitutes")
        self._write_roster(roster)

    def previous_games(self) -> list[dict[str, Any]]:
        """The summaries of the games played earlier in this file, oldest first."""
        if "games" not in self.db.table_names():
            return []
        return [
            json.loads(row["summary"]) for row in self.db.query("select * from games order by id")
        ]

    def _current_game_start(self) -> tuple[int, int]:
        """The last event and tally ids of the previous games (0, 0 when there are none)."""
        if "games" not in self.db.table_names():
            return 0, 0
        row = self.db.execute("select max(last_event_id), max(last_tally_id) from games").fetchone()
        return row[0] or 0, row[1] or 0


def post_row(tally_id: int, post: Post) -> dict[str, Any]:
    """A post as stored in the snapshot."""
    return {
        "tally_id": tally_id,
        "pid": post.pid,
        "floor": post.floor,
        "author": post.author,
        "uid": post.uid,
        "posted_at": format_iso(post.posted_at),
        "precision": post.precision,
        "body": post.body,
        "quotes": json.dumps(list(post.quotes), ensure_ascii=False),
        "edited_at": format_iso(post.edited_at) if post.edited_at else None,
        "banned": int(post.banned),
    }


def _substituted(player: Player, data: dict[str, Any]) -> Player:
    former = FormerHolder(
        name=data["old"], until=datetime.fromisoformat(data["at"]), uid=data.get("old_uid")
    )
    return replace(
        player,
        name=data["new"],
        uid=data.get("new_uid"),
        aliases=(),
        former=(*player.former, former),
    )


def busy_seconds() -> float:
    """How long to wait for a lock: ``KILLMOD_BUSY_SECONDS`` when set, else ``BUSY_SECONDS``."""
    try:
        return max(0.0, float(os.environ.get(BUSY_ENV, BUSY_SECONDS)))
    except ValueError:
        return BUSY_SECONDS


def _locked_message(path: Path) -> str:
    return f"游戏文件正被另一个 killmod 使用，等了 {busy_seconds():g} 秒仍未释放：{path}"


def _connect(path: Path) -> sqlite_utils.Database:
    conn = sqlite3.connect(str(path), timeout=busy_seconds(), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return sqlite_utils.Database(conn)
