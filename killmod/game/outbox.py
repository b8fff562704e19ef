"""What killmod posted on the board and sent by 站内短信, as it happens, in the game file.

A post or a message is a side effect on someone else's computer: it cannot be taken
back, and it must never be made twice by mistake.  So each one is written down in the
game file in steps of their own (kind ``board``), before and after it is sent:

- ``sending``: about to be sent (its key, where to, for which recorded step, which
  process sends it, the newest ``pid`` or ``pmid`` there before it) — committed before
  the form goes out;
- ``done``: the board said it is done (the new ``pid`` or ``pmid``);
- ``held``: the board took a reply or a message but holds it for moderation (待审核: its
  words, and its ``pid`` or ``pmid`` when it gave one) — nobody sees it until a moderator
  passes it;
- ``failed``: the board refused it (nothing was posted or sent).

A key whose last record is ``sending`` was sent with no answer (a timeout, a crash): the
board has to be looked at before it is sent again.  The key is the SHA-256 of where it
goes and what it says, so the same announcement to the same thread, or the same notice
to the same uid, is the same key.

These steps are a log of the world, not the game's state: ``killmod undo`` passes over
them (a post stays posted, a message stays sent) and says, for the step it voids, what
had already gone out for it.  The key, the thread or uid, the pid or pmid and the time
are recorded; a 站内短信's text is not (it is a secret: the notice files hold it).
"""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from killmod.core.errors import BadInput
from killmod.core.times import format_iso
from killmod.game.store import BOARD, Game

State = Literal["sending", "done", "held", "failed"]
What = Literal["post", "pm"]


@dataclass(frozen=True)
class Record:
    """The last record of one key: its state and everything recorded for it so far."""

    key: str
    what: What
    state: State
    data: dict[str, Any]
    at: datetime
    seat: int | None = None


def key_of(destination: str, text: str) -> str:
    """The key of a text sent to a destination (a thread's id, a uid)."""
    normalised = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha256(f"{destination}\n{normalised}".encode()).hexdigest()


def records(game: Game) -> dict[str, Record]:
    """Every key's last record, in the order the keys were first recorded."""
    found: dict[str, Record] = {}
    for event in game.events(BOARD):
        data = event.data
        earlier = found.get(data["key"])
        merged = {**(earlier.data if earlier else {}), **data}
        found[data["key"]] = Record(
            data["key"],
            data["what"],
            data["state"],
            merged,
            datetime.fromisoformat(data["at"]),
            event.seat if event.seat is not None else (earlier.seat if earlier else None),
        )
    return found


def record_of(game: Game, key: str) -> Record | None:
    """The last record of ``key``, if it was ever sent."""
    return records(game).get(key)


def for_step(game: Game, step_id: int) -> list[Record]:
    """What was posted or sent for the recorded step ``step_id`` (done, or maybe done)."""
    return [
        record
        for record in records(game).values()
        if record.data.get("for_step") == step_id and record.state != "failed"
    ]


def remembered_board(game: Game) -> str | None:
    """The board killmod last posted or sent to for this game (its address), if any."""
    boards = [event.data["board"] for event in game.events(BOARD) if "board" in event.data]
    return boards[-1] if boards else None


def last_write(game: Game) -> datetime | None:
    """When killmod last sent anything to the board (to pace the next one)."""
    times = [record.at for record in records(game).values() if record.state != "failed"]
    return max(times, default=None)


def wait_turn(game: Game, interval: float, sleep: Callable[[float], None], now: datetime) -> None:
    """Wait until ``interval`` seconds have passed since killmod last wrote to the board:
    the board's flood control counts posts and messages together."""
    last = last_write(game)
    if last is not None:
        left = interval - (now - last).total_seconds()
        if left > 0:
            sleep(left)


def begin(
    game: Game,
    what: What,
    key: str,
    title: str,
    data: dict[str, Any],
    *,
    seat: int | None = None,
    now: datetime,
) -> None:
    """Record, in its own step, that ``key`` is about to be sent.

    Refused when another killmod process on this computer is sending it right now.
    """
    with game.transaction(title, kind=BOARD, when_over=True):
        earlier = record_of(game, key)
        if earlier is not None and earlier.state == "sending" and _sender_alive(earlier):
            raise BadInput(
                f"另一个 killmod（进程 {earlier.data.get('process')}）正在发送这一条："
                "等它结束后再运行。"
            )
        game.record(
            None,
            BOARD,
            seat,
            {
                **data,
                "what": what,
                "key": key,
                "state": "sending",
                "at": format_iso(now),
                "process": os.getpid(),
                "host": socket.gethostname(),
            },
        )


def finish(
    game: Game,
    what: What,
    key: str,
    state: State,
    title: str,
    data: dict[str, Any],
    *,
    seat: int | None = None,
    now: datetime,
) -> None:
    """Record, in its own step, that ``key`` is ``done``, ``held`` or ``failed`` (with
    ``data``: the pid or pmid, the board's words)."""
    with game.transaction(title, kind=BOARD, when_over=True):
        game.record(
            None,
            BOARD,
            seat,
            {**data, "what": what, "key": key, "state": state, "at": format_iso(now)},
        )


def _sender_alive(record: Record) -> bool:
    """Whether the process that recorded ``sending`` still runs here (then it is sending)."""
    process = record.data.get("process")
    if record.data.get("host") != socket.gethostname() or not isinstance(process, int):
        return False
    if process == os.getpid() or os.name == "nt":  # signal 0 would end it on Windows
        return False
    try:
        os.kill(process, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
