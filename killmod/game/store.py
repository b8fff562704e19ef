"""The game file: one SQLite database per game, written with sqlite-utils.

What the judge set up (players, their first names, the substitutes' queue) lives
in plain tables; everything that happens afterwards — the deal, deaths, warnings,
substitutions, vetoes, lotteries, night actions, recorded tallies — is an event.
The game's state (the ``Roster`` a tally needs) is derived from the standing
events, so nothing recorded is ever deleted: a replaced or undone record is only
voided.

Each recorded step is one transaction (``Game.transaction``, ``BEGIN IMMEDIATE``)
and one row of ``steps``: every event and tally the step writes carries its
``step_id``, and a row's ``void`` is the id of the step that voided it (0: it
stands).  That is what makes any step undoable without code of its own: undoing
a step voids its rows and lets stand again what it had voided.  Every check that
allows a step runs inside its transaction; what the step hands the judge is
written before its ``COMMIT`` (``Step.deliver``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeVar

from killmod.core.errors import BadInput, KillmodError
from killmod.core.model import FormerHolder, GameOver, Player, Post, Roster
from killmod.core.times import format_iso, local_text
from killmod.game.dbfile import (
    GameLocked,
    busy_seconds,
    check_existing,
    check_new,
    connect,
    corrupted,
    refusal,
    remove_with_companions,
    unwritable,
)

# sqlite-utils imports numpy and pandas whenever they are installed, to store their types
# (sqlite_utils/db.py: ``np = importlib.import_module("numpy")``): about 40 ms of the start of
# every command that opens a game file, where killmod[plot]'s matplotlib brought numpy.
# killmod stores neither, so sqlite-utils is imported with both hidden (an import of a
# name mapped to None fails, and sqlite-utils goes on without them), unless something
# imported them already.
_UNUSED = [name for name in ("numpy", "pandas") if name not in sys.modules]
sys.modules.update(dict.fromkeys(_UNUSED))
try:
    import sqlite_utils
finally:
    for _name in _UNUSED:
        if sys.modules.get(_name, 0) is None:
            del sys.modules[_name]

__all__ = [
    "BOARD",
    "SCHEMA_VERSION",
    "Event",
    "Game",
    "GameChanged",
    "GameLocked",
    "StepRecord",
    "busy_seconds",
]

SCHEMA_VERSION = 2
Derived = TypeVar("Derived")
# What a step is called when its code gave it no title: by its first event's kind.
KIND_NAMES = {
    "day": "投票",
    "death": "出局",
    "deal": "发身份",
    "warning": "警告",
    "substitution": "替补",
    "leave": "请假",
    "violation": "犯规处罚",
    "night": "夜晚",
    "lottery": "做签",
    "lottery_reveal": "抽签结果",
    "suicide": "亮牌自杀",
    "game_over": "游戏结束",
    "out": "被法官判出局",
    "thread": "记下的帖子地址",
    "vote_opened": "开始投票（截止时间）",
    "board": "论坛上的发帖和站内短信",
    "judge": "法官的论坛 uid",
    "alias": "别名",
}
# The private files a step wrote (``Game._keep_private_files``): no change to the game.
PRIVATE_FILES = "private_files"
INIT = "init"  # the step that set the game up: the first of its game, never undone
UNDO = "undo"  # a step that undid another: not itself undone by ``undo``
# The judge's corrections of who is who — a name players vote with (``killmod alias``), a
# judge's uid (``killmod judge``) — hold for every vote, also one counted before them: a
# recorded round counted again, or recorded anew, reads its ballots with them.
CORRECTIONS = ("alias", "judge")
# What was posted on the board or sent by 站内短信 (``killmod.game.outbox``): a log of the
# world, not of the game — never undone, and no step of the game's own comes after it.
BOARD = "board"


class GameChanged(KillmodError):
    """Another killmod recorded a step while this one was computing its own."""


@dataclass(frozen=True)
class Event:
    """One thing that happened in the game, in the order it was recorded."""

    id: int
    round: int | None
    kind: str
    seat: int | None
    data: dict[str, Any]
    recorded_at: str
    step: int | None = None


@dataclass(frozen=True)
class StepRecord:
    """A recorded step as the ``steps`` table keeps it; ``void`` 0 while it stands."""

    id: int
    kind: str
    round: int | None
    title: str
    recorded_at: str
    void: int


class Delivery(Protocol):
    """What a step hands the judge: written before the commit, taken back if it fails."""

    def write(self) -> None: ...

    def retract(self) -> None: ...

    def announce(self) -> None: ...

    def files(self) -> list[Path]:
        """The private files it writes (kept with the step: undoing it moves them aside)."""
        ...


class Step:
    """The step being written: its row in ``steps`` and what it hands the judge."""

    def __init__(
        self,
        step_id: int,
        recorded_at: str,
        kind: str | None,
        round_no: int | None,
        title: str | None,
    ):
        self.id = step_id
        # One moment for the step and all it writes: its events and tallies say the time the
        # step does, even when the clock ticks while it is written.
        self.recorded_at = recorded_at
        self.kind = kind
        self.round = round_no
        self.title = title
        self.deliveries: list[Delivery] = []
        self.first: tuple[str, int | None, int | None] | None = None
        self.wrote = False
        self.voided = False

    def describe(
        self, title: str | None = None, *, kind: str | None = None, round_no: int | None = None
    ) -> None:
        """Name the step (its title is shown by ``undo``; keep it free of secrets)."""
        self.title = title or self.title
        self.kind = kind or self.kind
        self.round = round_no if round_no is not None else self.round

    def deliver(self, delivery: Delivery) -> None:
        """Write ``delivery`` when the step is complete, before its ``COMMIT``."""
        self.deliveries.append(delivery)

    def _noted(self, kind: str, round_no: int | None, seat: int | None) -> None:
        self.wrote = True
        if self.first is None:
            self.first = (kind, round_no, seat)

    def _row(self) -> dict[str, Any]:
        kind, round_no, seat = self.first or ("step", None, None)
        title = self.title or generic_title(kind, round_no, seat)
        return {"kind": self.kind or kind, "round": self.round or round_no, "title": title}


class Game:
    """An open game file; ``with Game.open(path) as game:`` closes it at the end."""

    def __init__(self, db: sqlite_utils.Database, path: Path) -> None:
        self.db = db
        self.path = path
        self._step: Step | None = None
        self._since = self._current_game_start()
        self._derived: dict[Hashable, Any] = {}
        self._derived_from: tuple[int, int, tuple[int, int, int]] | None = None

    # --- creating and opening ---------------------------------------------------------

    @classmethod
    def create(cls, path: Path, roster: Roster, *, force: bool = False) -> Game:
        """A new game file from ``roster``, readable by its owner only (0600); its first step
        sets the game up.  A file that could not be made whole is removed again."""
        from killmod.rules.roles import check_roster_roles

        roster = check_roster_roles(roster)
        check_new(path, force=force)
        if path.parent.exists() and not path.parent.is_dir():
            raise BadInput(f"{path.parent} 不是文件夹，不能在里面建立游戏文件。")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BadInput(f"无法建立文件夹：{path.parent}（{error.strerror}）") from None
        remove_with_companions(path)
        try:
            # Created 0600 before SQLite opens it: secret roles live here.
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
        except OSError as error:
            raise BadInput(f"无法建立游戏文件：{path}（{error.strerror}）") from None
        game = cls(_database(connect(path)), path)
        try:
            game.db.conn.execute("BEGIN IMMEDIATE")
            game._create_tables()
            game.db.conn.execute("COMMIT")
            with game.transaction("建立游戏", kind=INIT, when_over=True):
                game._write_roster(roster)
        except BaseException:
            game.close()
            remove_with_companions(path)
            raise
        return game

    @classmethod
    def open(cls, path: Path) -> Game:
        """An existing game file of this killmod's schema, checked whole (``quick_check``).

        A missing, foreign, older, newer or damaged file is bad input naming it, and is
        left as it was.
        """
        check_existing(path)
        try:
            conn = connect(path)
        except sqlite3.Error as error:
            raise refusal(path, error) from None
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise corrupted(path, check)
            _check_version(_schema_version(conn, path), path)
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "delete":
                conn.execute("PRAGMA journal_mode=DELETE")
            conn.execute("PRAGMA foreign_keys=ON")
            return cls(_database(conn), path)
        except sqlite3.Error as error:
            conn.close()
            raise refusal(path, error) from None
        except BaseException:
            conn.close()
            raise

    @classmethod
    @contextmanager
    def using(cls, game: Game | str | Path | None) -> Iterator[Game | None]:
        """``game`` as given when it is open (left open), else opened from its path and
        closed at the end; None stays None."""
        if game is None or isinstance(game, Game):
            yield game
            return
        with cls.open(Path(game)) as opened:
            yield opened

    def __enter__(self) -> Game:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
        if isinstance(error, sqlite3.Error):
            raise refusal(self.path, error) from None

    def close(self) -> None:
        """Close the connection (every step is already in the file: nothing is lost)."""
        with suppress(sqlite3.Error):
            self.db.close()

    # --- steps --------------------------------------------------------------------------

    @contextmanager
    def transaction(
        self,
        title: str | None = None,
        *,
        kind: str | None = None,
        round_no: int | None = None,
        when_over: bool = False,
        based_on: int | None = None,
    ) -> Iterator[Step]:
        """One recorded step: all of it is written, or none of it.

        Refused once the game is over (unless ``when_over``: undo, a new game), and
        when ``based_on`` — the ``head()`` the step was computed on — is no longer
        the file's head.  What the step delivers is written after its own checks and
        before ``COMMIT``; when the commit fails, it is taken back.
        """
        if self._step is not None:
            raise RuntimeError("a step is already being written")
        problem = unwritable(self.path)
        if problem:
            raise BadInput(problem)
        try:
            self.db.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise refusal(self.path, error, writing=True) from None
        self._since = self._current_game_start()  # another killmod may have begun a game
        step = Step(*self._new_step(), kind, round_no, title)
        self._step = step
        written: list[Delivery] = []
        try:
            yield step
            self._keep_private_files(step)
            self._finish(step, when_over=when_over, based_on=based_on)
            for delivery in step.deliveries:
                delivery.write()
                written.append(delivery)
            self.db.conn.execute("COMMIT")
        except BaseException as error:
            self._step = None
            self._derived_from = None  # what the step wrote and derived is gone
            with suppress(sqlite3.Error):
                self.db.conn.execute("ROLLBACK")
            for delivery in reversed(written):
                delivery.retract()
            if isinstance(error, sqlite3.Error):
                raise _not_recorded(self.path, error, written) from None
            raise
        self._step = None
        for delivery in step.deliveries:
            delivery.announce()

    def _keep_private_files(self, step: Step) -> None:
        """Name in the step the private files it writes (``killmod.game.private_files``:
        undoing the step moves them aside)."""
        files = [os.path.abspath(path) for delivery in step.deliveries for path in delivery.files()]
        if files:
            self.record(step.round, PRIVATE_FILES, None, {"files": files})

    def head(self) -> int:
        """The last step recorded in the file (any game, undo included): a version number."""
        return self.db.execute("select coalesce(max(id), 0) from steps").fetchone()[0]

    def steps(self, *, include_void: bool = False) -> list[StepRecord]:
        """The current game's recorded steps in order (voided ones only when asked), the
        board's log (``BOARD``) left out: it records the world, not the game."""
        sql = "select * from steps where id > ? and kind is not null and kind != 'board'"
        if not include_void:
            sql += " and void = 0"
        return [_step_record(row) for row in self.db.query(sql + " order by id", [self._since[2]])]

    def steps_since(self, head: int) -> list[StepRecord]:
        """The steps recorded after ``head``, any game (by another killmod, while this one
        computed); the board's log is no change to the game."""
        rows = self.db.query(
            "select * from steps where id > ? and coalesce(kind, '') != 'board' order by id",
            [head],
        )
        return [_step_record(row) for row in rows]

    def last_step(self) -> StepRecord | None:
        """The latest standing step that ``undo`` would void (undo steps are skipped)."""
        standing = [step for step in self.steps() if step.kind != UNDO]
        return standing[-1] if standing else None

    def void_step(self, step_id: int) -> None:
        """Void step ``step_id`` (inside a transaction): its rows are voided by the current
        step, and whatever it had voided stands again."""
        current = self._require_step().id
        for table in ("events", "tallies"):
            self.db.execute(
                f"update {table} set void = ? where step_id = ? and void = 0", [current, step_id]
            )
            self.db.execute(f"update {table} set void = 0 where void = ?", [step_id])
        self.db.execute("update steps set void = 0 where void = ?", [step_id])
        self.db.execute("update steps set void = ? where id = ?", [current, step_id])
        self._step.voided = True

    def _new_step(self) -> tuple[int, str]:
        """A row for the step about to be written: its id and the moment it is recorded."""
        # A failed step leaves no row (the transaction rolls it back), an empty one neither.
        at = _now()
        with self._log_unchanged():
            return self.db["steps"].insert({"recorded_at": at, "void": 0}).last_pk, at

    def _finish(self, step: Step, *, when_over: bool, based_on: int | None) -> None:
        """Check what every step must respect, then name the step's row."""
        since = self.steps_since(based_on) if based_on is not None else []
        others = [other for other in since if other.id != step.id]
        if others:
            timezone = self.roster().timezone
            titles = "；".join(
                f"{other.title}（{local_text(other.recorded_at, timezone)}）" for other in others
            )
            raise GameChanged(
                f"本命令运行期间，另一个 killmod 在游戏文件 {self.path} 里记录了：{titles}。"
                "本次没有记录：请重新运行这条命令。"
            )
        if not when_over:
            over = [e for e in self.events("game_over") if e.step != step.id]
            if over:
                ended = GameOver.from_json(over[-1].data).headline
                raise BadInput(
                    f"游戏已经结束（{ended}），不能再记录。"
                    "要改正结束前的记录，先用 killmod undo 撤销最后一步。"
                )
        if step.voided:
            self._void_emptied_steps(step.id)
        with self._log_unchanged():
            if not step.wrote and not step.voided:
                self.db.execute("delete from steps where id = ?", [step.id])
                return
            self.db["steps"].update(step.id, step._row())

    def _void_emptied_steps(self, current: int) -> None:
        """A step all of whose rows the current one voided is voided as a whole."""
        self.db.execute(
            """
            update steps set void = ? where void = 0 and id != ? and id > ?
              and (exists (select 1 from events where step_id = steps.id and void = ?)
                   or exists (select 1 from tallies where step_id = steps.id and void = ?))
              and not exists (select 1 from events where step_id = steps.id and void = 0
                              and kind != ?)
              and not exists (select 1 from tallies where step_id = steps.id and void = 0)
            """,
            [current, current, self._since[2], current, current, PRIVATE_FILES],
        )

    def _require_step(self) -> Step:
        if self._step is None:
            raise RuntimeError("the game file is written only inside Game.transaction()")
        return self._step

    # --- the set-up -------------------------------------------------------------------

    def _create_tables(self) -> None:
        db = self.db
        db["settings"].create({"key": str, "value": str}, pk="key")
        db["players"].create(
            {"seat": int, "name": str, "uid": int, "aliases": str, "alive": int, "role": str},
            pk="seat",
        )
        db["substitutes"].create({"position": int, "name": str}, pk="position")
        db["steps"].create(
            {
                "id": int,
                "recorded_at": str,
                "kind": str,
                "round": int,
                "title": str,
                "void": int,
            },
            pk="id",
        )
        db["events"].create(
            {
                "id": int,
                "recorded_at": str,
                "round": int,
                "kind": str,
                "seat": int,
                "data": str,
                "void": int,
                "step_id": int,
            },
            pk="id",
        )
        db["events"].create_index(["round", "kind"])
        db["events"].create_index(["step_id"])
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
                "step_id": int,
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
        db["games"].create(
            {
                "id": int,
                "closed_at": str,
                "last_event_id": int,
                "last_tally_id": int,
                "last_step_id": int,
                "summary": str,
            },
            pk="id",
        )

    def _write_roster(self, roster: Roster) -> None:
        self._require_step()._noted(INIT, None, None)
        settings = {
            "schema": SCHEMA_VERSION,
            "rules": roster.rules,
            "timezone": roster.timezone,
            "judges": list(roster.judges),
            "judge_uids": roster.judge_uids,
            "substitute_uids": roster.substitute_uids,
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
            if total:
                data = {"reason": "carried", "action": "warn", "count": total}
                self.record(None, "warning", seat, data)

    def setting(self, key: str) -> Any:
        row = self.db.execute("select value from settings where key = ?", [key]).fetchone()
        return json.loads(row[0]) if row else None

    # --- events -------------------------------------------------------------------------

    def record(
        self,
        round_no: int | None,
        kind: str,
        seat: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> int:
        """Append an event to the step being written; returns its id."""
        step = self._require_step()
        row = {
            "recorded_at": step.recorded_at,
            "round": round_no,
            "kind": kind,
            "seat": seat,
            "data": json.dumps(data or {}, ensure_ascii=False),
            "void": 0,
            "step_id": step.id,
        }
        step._noted(kind, round_no, seat)
        held = self._derived_from is not None and self._derived_from == self._file_version()
        event_id = self.db["events"].insert(row).last_pk
        log = self._derived.get("events") if held else None
        self._derived = {}
        if log is not None:  # the log read stays whole with this event after it
            added = Event(
                event_id, round_no, kind, seat, json.loads(row["data"]), row["recorded_at"], step.id
            )
            self._derived = {"events": (*log, (added, False))}
            self._derived_from = self._file_version()
        return event_id

    def events(self, kind: str | None = None, *, include_void: bool = False) -> list[Event]:
        """The current game's recorded events in order (voided ones only when asked)."""
        return [
            event
            for event, void in self.derived("events", self._read_events)
            if (include_void or not void) and (kind is None or event.kind == kind)
        ]

    def _read_events(self) -> tuple[tuple[Event, bool], ...]:
        """The current game's events, each with whether it is void: the log read once."""
        sql = "select * from events where id > ? order by id"  # earlier games are history
        return tuple(
            (
                Event(
                    row["id"],
                    row["round"],
                    row["kind"],
                    row["seat"],
                    json.loads(row["data"]),
                    row["recorded_at"],
                    row["step_id"],
                ),
                bool(row["void"]),
            )
            for row in self.db.query(sql, [self._since[0]])
        )

    def derived(self, key: Hashable, compute: Callable[[], Derived]) -> Derived:
        """``compute()``'s value for the file as it is now, computed once: the event log,
        the roster and the rule set's state it replays to are worked out once per command
        and again only after the file changed (a write here, or another killmod's commit,
        which ``PRAGMA data_version`` shows)."""
        now = self._file_version()
        if now != self._derived_from:
            self._derived, self._derived_from = {}, now
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]

    def _file_version(self) -> tuple[int, int, tuple[int, int, int]]:
        """Changes whenever the file may have: another connection's commit, a row this one
        wrote, another game begun."""
        conn = self.db.conn
        return conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes, self._since

    @contextmanager
    def _log_unchanged(self) -> Iterator[None]:
        """A write to no table the derived state is made of (a step's row, a tally and its
        snapshot): what was derived before it still holds."""
        held = self._derived_from is not None and self._derived_from == self._file_version()
        yield
        if held:
            self._derived_from = self._file_version()

    def void_events(self, ids: list[int]) -> None:
        """Void standing events (inside a transaction): they stay, marked by the voiding step."""
        current = self._require_step()
        for event_id in ids:
            self.db.execute(
                "update events set void = ? where id = ? and void = 0", [current.id, event_id]
            )
        current.voided = True

    # --- derived state ------------------------------------------------------------------

    def roster(self, *, without_tally: int | None = None, before: int | None = None) -> Roster:
        """The game's current state as the tally and the rules see it.

        ``without_tally`` leaves out the effects of one recorded tally; ``before`` every
        event from that event id on but the judge's corrections of who is who
        (``CORRECTIONS``): the state a recorded vote was counted on
        (``killmod.game.state.counted_on``).
        """
        key = ("roster", without_tally, before)
        return self.derived(key, lambda: self._replay_roster(without_tally, before))

    def _replay_roster(self, without_tally: int | None, before: int | None) -> Roster:
        """The roster as set up, with the standing events replayed over it."""
        players = {p.seat: p for p in self.initial_players()}
        queue = [
            row["name"] for row in self.db.query("select name from substitutes order by position")
        ]
        warnings: dict[int, int] = {}
        judges = list(self.setting("judges"))
        judge_uids = dict(self.setting("judge_uids") or {})
        for event in self.events():
            if without_tally is not None and event.data.get("tally_id") == without_tally:
                continue
            if before is not None and event.id >= before and not _still_holds(event, players):
                continue
            seat = event.seat
            if event.kind == "death":
                players[seat] = replace(players[seat], alive=False)
            elif event.kind == "revival":
                players[seat] = replace(players[seat], alive=True)
            elif event.kind == "warning":
                warnings[seat] = warnings.get(seat, 0) + event.data.get("count", 1)
            elif event.kind == "substitution":
                players[seat] = _substituted(players[seat], event.data)
                if event.data["new"] in queue:
                    queue.remove(event.data["new"])
                warnings.pop(seat, None)  # a new holder starts without warnings
            elif event.kind == "alias":  # ``killmod alias``: a name players vote with
                player = players[seat]
                players[seat] = replace(player, aliases=(*player.aliases, event.data["alias"]))
            elif event.kind == "uid":  # a player's uid the board showed (a recorded tally)
                players[seat] = replace(players[seat], uid=event.data["uid"])
            elif event.kind == "judge":  # ``killmod judge``: a judge's uid after the set-up
                if event.data["name"] not in judges:
                    judges.append(event.data["name"])
                judge_uids[event.data["name"]] = event.data["uid"]
        return Roster(
            players=tuple(players[seat] for seat in sorted(players)),
            rules=self.setting("rules"),
            timezone=self.setting("timezone"),
            judges=tuple(judges),
            judge_uids=judge_uids,
            substitutes=tuple(queue),
            substitute_uids=dict(self.setting("substitute_uids") or {}),
            variants=tuple(self.setting("variants") or ()),
            warnings=warnings,
            code=self.setting("code"),
        )

    def initial_players(self) -> list[Player]:
        """The players as the roster set them up, with the roles of the standing deal."""
        dealt = self.dealt_roles()
        return [
            Player(
                seat=row["seat"],
                name=row["name"],
                uid=row["uid"],
                aliases=tuple(json.loads(row["aliases"])),
                alive=bool(row["alive"]),
                role=dealt.get(row["seat"], row["role"]),
            )
            for row in self.db.query("select * from players order by seat")
        ]

    def dealt_roles(self) -> dict[int, str]:
        """The roles the standing deal gave, by seat (empty before the deal)."""
        deals = self.events("deal")
        roles = deals[-1].data.get("roles", {}) if deals else {}
        return {int(seat): role for seat, role in roles.items()}

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

    def tallies(self) -> list[dict[str, Any]]:
        """The current game's standing recorded tallies, in order."""
        return list(
            self.db.query(
                "select * from tallies where void = 0 and id > ? order by id", [self._since[1]]
            )
        )

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
        step = self._require_step()
        step._noted("tally", round_no, None)
        with self._log_unchanged():
            return self._insert_tally(round_no, deadline, source, title, snapshot, result, posts)

    def _insert_tally(
        self,
        round_no: int,
        deadline: str,
        source: str,
        title: str | None,
        snapshot: str,
        result: dict[str, Any],
        posts: list[Post],
    ) -> int:
        step = self._require_step()
        tally_id = (
            self.db["tallies"]
            .insert(
                {
                    "round": round_no,
                    "recorded_at": step.recorded_at,
                    "deadline": deadline,
                    "source": source,
                    "title": title,
                    "snapshot_sha256": snapshot,
                    "result": json.dumps(result, ensure_ascii=False),
                    "void": 0,
                    "step_id": step.id,
                }
            )
            .last_pk
        )
        # ``alter``: the ``hidden`` column is added to a file the first time a post has some.
        self.db["posts"].insert_all((post_row(tally_id, post) for post in posts), alter=True)
        return tally_id

    def save_evidence(
        self,
        tally_id: int,
        *,
        sha256: str,
        count: str,
        announcement: str | None,
        published: str | None,
    ) -> None:
        """Keep a recorded tally's evidence (inside its step): the exact text of its count
        document, its SHA-256, the announcement as printed and where the bundle is published.

        One row per tally in ``evidence``, made in a file of an earlier killmod by the first
        tally that has some; the tally's row says whether it stands.
        """
        self._require_step()
        with self._log_unchanged():
            self.db["evidence"].create(
                {
                    "tally_id": int,
                    "sha256": str,
                    "count": str,
                    "announcement": str,
                    "published": str,
                },
                pk="tally_id",
                foreign_keys=[("tally_id", "tallies", "id")],
                if_not_exists=True,
            )
            self.db["evidence"].insert(
                {
                    "tally_id": tally_id,
                    "sha256": sha256,
                    "count": count,
                    "announcement": announcement,
                    "published": published,
                }
            )

    def evidence(self, tally_id: int) -> dict[str, Any] | None:
        """The evidence kept with tally ``tally_id`` (None: recorded without any)."""
        if "evidence" not in self.db.table_names():
            return None
        rows = list(self.db.query("select * from evidence where tally_id = ?", [tally_id]))
        return rows[0] if rows else None

    def void_tally(self, tally_id: int) -> None:
        """Void a standing tally (inside a transaction), marked by the voiding step."""
        current = self._require_step()
        with self._log_unchanged():
            self.db.execute(
                "update tallies set void = ? where id = ? and void = 0", [current.id, tally_id]
            )
        current.voided = True

    # --- games in the same file ---------------------------------------------------------

    def next_game(self, roster: Roster, summary: dict[str, Any]) -> None:
        """Close the current game into ``games`` (``summary`` kept as JSON) and set up ``roster``.

        The closed game's events, tallies and steps stay in the file as history; from
        now on only later ones are the game's (inside a transaction, whose step is the
        new game's first).
        """
        step = self._require_step()
        step.describe("开始下一局", kind=INIT)
        last_event = self.db.execute("select coalesce(max(id), 0) from events").fetchone()[0]
        last_tally = self.db.execute("select coalesce(max(id), 0) from tallies").fetchone()[0]
        self.db["games"].insert(
            {
                "closed_at": step.recorded_at,
                "last_event_id": last_event,
                "last_tally_id": last_tally,
                "last_step_id": step.id - 1,
                "summary": json.dumps(summary, ensure_ascii=False),
            }
        )
        self._since = (last_event, last_tally, step.id - 1)
        self.db.execute("delete from players")
        self.db.execute("delete from substitutes")
        self._write_roster(roster)

    def previous_games(self) -> list[dict[str, Any]]:
        """The summaries of the games played earlier in this file, oldest first."""
        return [
            json.loads(row["summary"]) for row in self.db.query("select * from games order by id")
        ]

    def _current_game_start(self) -> tuple[int, int, int]:
        """The last event, tally and step ids of the previous games (0s when there are none)."""
        if "games" not in self.db.table_names():
            return 0, 0, 0
        row = self.db.execute(
            "select max(last_event_id), max(last_tally_id), max(last_step_id) from games"
        ).fetchone()
        return row[0] or 0, row[1] or 0, row[2] or 0


def post_row(tally_id: int, post: Post) -> dict[str, Any]:
    """A post as stored in the snapshot (its hidden text, the column ``hidden``, only when it
    has some: a snapshot of posts without any is stored, and hashed, as before)."""
    hidden = {"hidden": json.dumps(list(post.hidden), ensure_ascii=False)} if post.hidden else {}
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
        **hidden,
    }


def _still_holds(event: Event, players: dict[int, Player]) -> bool:
    """Whether a correction recorded after a vote holds for it: a judge's uid, an alias of
    the player who held the seat then (``CORRECTIONS``)."""
    if event.kind == "alias":
        return event.data.get("name", players[event.seat].name) == players[event.seat].name
    return event.kind in CORRECTIONS


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


def _step_record(row: dict[str, Any]) -> StepRecord:
    return StepRecord(
        row["id"], row["kind"], row["round"], row["title"], row["recorded_at"], row["void"]
    )


def generic_title(kind: str, round_no: int | None, seat: int | None) -> str:
    """A step's title from its first event, for steps whose code gave none."""
    parts = [f"第 {round_no} 轮" if round_no else "", f"{seat}号" if seat else ""]
    return " ".join(part for part in (*parts, KIND_NAMES.get(kind, kind)) if part)


def _now() -> str:
    return format_iso(datetime.now().astimezone())


def _database(conn: sqlite3.Connection) -> sqlite_utils.Database:
    """sqlite-utils over ``conn``, without sqlite-utils' plugins: a plugin installed for it
    would change the game file's connection (its ``prepare_connection`` hook), and finding
    them reads every installed package's entry points (~11 ms of each command)."""
    return sqlite_utils.Database(conn, execute_plugins=False)


def _schema_version(conn: sqlite3.Connection, path: Path) -> Any:
    """The ``schema`` setting; a file without killmod's settings is not a game file."""
    try:
        row = conn.execute("select value from settings where key = 'schema'").fetchone()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            raise BadInput(f"不是 killmod 的游戏文件：{path}") from None
        raise
    if row is None:
        raise BadInput(f"不是 killmod 的游戏文件：{path}")
    try:
        return json.loads(row[0])
    except ValueError:
        raise BadInput(f"不是 killmod 的游戏文件：{path}") from None


def _check_version(version: Any, path: Path) -> None:
    if version == SCHEMA_VERSION:
        return
    if isinstance(version, int) and version < SCHEMA_VERSION:
        raise BadInput(
            f"游戏文件 {path} 是旧版 killmod 的格式（第 {version} 版），这个 killmod 用第 "
            f"{SCHEMA_VERSION} 版。文件没有改动：先运行 killmod upgrade --db {path}"
            "（原文件会先备份在旁边），再继续。"
        )
    if isinstance(version, int):
        raise BadInput(
            f"游戏文件 {path} 是更新版本的 killmod 写的（格式第 {version} 版）："
            "请升级 killmod 后再用它。文件没有改动。"
        )
    raise BadInput(f"不是 killmod 的游戏文件：{path}")


def _not_recorded(path: Path, error: sqlite3.Error, written: list[Delivery]) -> KillmodError:
    """A step that failed at its commit: nothing recorded, what it handed out taken back."""
    refused = refusal(path, error, writing=True)
    if written:
        refused.message += "刚写的私下文件已删除；如果上面已经输出了公告，它作废，不要发出。"
    return refused
