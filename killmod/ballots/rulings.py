"""The judge's rulings (裁定) on single posts of a vote thread, keyed by post id or floor.

A TOML file with one table per post, named by its pid (what the audit shows as
"pid=…": the post's identity on the board) or by its floor::

    [pid.90119]
    ignore = true
    note = "重复发帖，按第 30 楼为准"

    [30]
    target = 5
    note = "错别字，按 5 号计"

    [41]
    target = "abstain"

Each table either ignores the post or reads it as a vote for a seat (or an
abstention), whatever its text says.  Floors are what a judge sees, but not an
identity: on a Discuz! X3.4 board a moderator's deletion renumbers every later floor,
and a thread read around a deletion may show two posts with one floor.  A ruling by
floor is therefore resolved to one post (``resolve``) against the posts the judge saw
(the round's recorded snapshot, else the thread as read), and refused when no post or
more than one has that floor: one ruling never hits two posts.  Mistakes are
``BadInput`` naming the file, the line and the key, as for the roster.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from killmod.core.errors import BadInput
from killmod.core.tomlfile import TomlTable, TomlText, read_toml_text, show

RULING_KEYS = ("ignore", "target", "note")
ABSTAIN = "abstain"
PID_TABLE = "pid"

_NUMBER = re.compile(r"[1-9][0-9]*")


@dataclass(frozen=True)
class Ruling:
    """The judge's ruling on the post at ``floor``, or on the post ``pid`` (which, when
    known, is the identity: a ruling by floor gets its pid from ``resolve``).

    ``ignore``: the post is not a ballot.  Otherwise the post is read as a vote
    for seat ``target``, or as an abstention when ``abstain``.
    """

    floor: int | None
    ignore: bool = False
    target: int | None = None
    abstain: bool = False
    note: str = ""
    pid: int | None = None


def load_rulings(path: Path) -> tuple[Ruling, ...]:
    """Read and check the rulings file at ``path``."""
    return parse_rulings(read_toml_text(path), source=str(path))


def parse_rulings(text: str, source: str = "rulings.toml") -> tuple[Ruling, ...]:
    """The rulings written in ``text``: by pid in pid order, then by floor in floor order.

    ``source`` names the file in messages.
    """
    top = TomlText(text, source).parse()
    by_pid: dict[int, Ruling] = {}
    by_floor: dict[int, Ruling] = {}
    for key, data in top.data.items():
        if key == PID_TABLE and isinstance(data, dict):
            pids = _pid_table(top, data)
            for pid_key, ruled in data.items():
                pid = _number(pids, pid_key, ruled, pid=True)
                label = f"[{PID_TABLE}.{pid_key}]"
                by_pid[pid] = _ruling(pids.child(pid_key, ruled, label, 0, 1), None, pid)
            continue
        floor = _number(top, key, data, pid=False)
        by_floor[floor] = _ruling(top.child(key, data, f"[{key}]", 0, 1), floor, None)
    return (*(by_pid[k] for k in sorted(by_pid)), *(by_floor[k] for k in sorted(by_floor)))


def _pid_table(top: TomlTable, data: dict) -> TomlTable:
    """The ``pid`` table, whose rulings are written ``[pid.N]`` (an implicit table with no
    header of its own: its first ``[pid.…]`` header stands for it) or under ``[pid]``."""
    pids = top.child(PID_TABLE, data, f"[{PID_TABLE}]", 0, 1)
    if pids.header is not None:
        return pids
    starts = [n for n, name in top.doc.headers if name.startswith(f"{PID_TABLE}.")]
    return replace(pids, header=starts[0] - 1) if starts else pids


def resolve(
    rulings: Iterable[Ruling] | Mapping[object, Ruling], posts: Iterable[tuple[int, int | None]]
) -> dict[int, Ruling]:
    """The rulings by the pid of the post each rules on, given the (pid, floor) of the posts
    the judge saw.

    A ruling that names its pid keeps it.  A ruling by floor takes the pid of the one post
    with that floor; none, or more than one (floors renumbered between readings), is bad
    input naming the floor: the judge then rules by pid.
    """
    ruled = list(rulings.values()) if isinstance(rulings, Mapping) else list(rulings)
    floors: dict[int, list[int]] | None = None  # made for the first ruling by floor
    resolved: dict[int, Ruling] = {}
    for ruling in ruled:
        if ruling.pid is None and floors is None:
            floors = {}
            for pid, floor in posts:
                if floor is not None:
                    floors.setdefault(floor, []).append(pid)
        pid = ruling.pid if ruling.pid is not None else _pid_of(ruling.floor, floors)
        if pid in resolved:
            raise BadInput(f"裁定文件对同一个帖子（pid={pid}）写了两条裁定，请只留一条")
        resolved[pid] = replace(ruling, pid=pid)
    return resolved


def _pid_of(floor: int | None, floors: dict[int, list[int]]) -> int:
    pids = sorted(set(floors.get(floor, [])))
    if not pids:
        raise BadInput(f"裁定的第 {floor} 楼在投票帖里找不到（楼层可能因删帖而变动）")
    if len(pids) > 1:
        shown = "、".join(f"pid={pid}" for pid in pids)
        raise BadInput(
            f"裁定的第 {floor} 楼对应不止一个帖子（{shown}：删帖后楼层重新编号过）："
            f"请改按帖子编号裁定，如 [pid.{pids[0]}]"
        )
    return pids[0]


def _number(top: TomlTable, key: str, data: object, *, pid: bool) -> int:
    """The floor (or pid) a table is named after."""
    example = f"[{PID_TABLE}.{key}]" if pid else f"[{key}]"
    if not isinstance(data, dict):
        if key in RULING_KEYS:
            raise top.fail(key, "要写在某一楼的表里，如 [12] 或 [pid.90119] 的下一行")
        raise top.fail(key, f"应写成一个表：先写一行 {example}，再在下面写 ignore 或 target")
    if not _NUMBER.fullmatch(key):
        if pid:
            raise top.doc.error(
                top.line(key), f"{example} 不是帖子编号（应为 ≥ 1 的整数，如 [pid.90119]）"
            )
        raise top.doc.error(
            top.line(key),
            f"[{key}] 不是楼层号（表名应为 ≥ 1 的整数，如 [12]，或帖子编号，如 [pid.90119]）",
        )
    return int(key)


def _ruling(table: TomlTable, floor: int | None, pid: int | None) -> Ruling:
    table.check_keys(RULING_KEYS)
    note = table.typed("note", str, "字符串（要加英文双引号）") or ""
    if "ignore" in table.data and "target" in table.data:
        raise table.fail("target", "与 ignore 只能写一个")
    if "ignore" in table.data:
        if table.typed("ignore", bool, " true") is not True:
            raise table.fail("ignore", "只能写 true；这一楼不用忽略的话，删掉这一行")
        return Ruling(floor, ignore=True, note=note, pid=pid)
    if "target" not in table.data:
        raise table.doc.error(
            table.line("target"), f"{table.label} 缺少 ignore 或 target（二选一）"
        )
    target = _target(table)
    return Ruling(floor, target=target, abstain=target is None, note=note, pid=pid)


def _target(table: TomlTable) -> int | None:
    """The seat the post counts for; None for an abstention."""
    value = table.data["target"]
    if value == ABSTAIN:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise table.fail(
        "target", f'应为座位号（≥ 1 的整数）或 "{ABSTAIN}"（弃权），实际是{show(value)}'
    )
