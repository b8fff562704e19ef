"""The judge's rulings (裁定) on single posts of a vote thread, keyed by floor.

A TOML file with one table per floor::

    [12]
    ignore = true
    note = "重复发帖，按第 30 楼为准"

    [30]
    target = 5
    note = "错别字，按 5 号计"

    [41]
    target = "abstain"

Each table either ignores the post or reads it as a vote for a seat (or an
abstention), whatever its text says.  Mistakes are ``BadInput`` naming the
file, the line and the key, as for the roster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from killmod.roster import TomlTable, TomlText, read_toml_text, show

RULING_KEYS = ("ignore", "target", "note")
ABSTAIN = "abstain"

_FLOOR = re.compile(r"[1-9][0-9]*")


@dataclass(frozen=True)
class Ruling:
    """The judge's ruling on the post at ``floor``.

    ``ignore``: the post is not a ballot.  Otherwise the post is read as a vote
    for seat ``target``, or as an abstention when ``abstain``.
    """

    floor: int
    ignore: bool = False
    target: int | None = None
    abstain: bool = False
    note: str = ""


def load_rulings(path: Path) -> dict[int, Ruling]:
    """Read and check the rulings file at ``path``."""
    return parse_rulings(read_toml_text(path), source=str(path))


def parse_rulings(text: str, source: str = "rulings.toml") -> dict[int, Ruling]:
    """The rulings written in ``text`` by floor, in floor order.

    ``source`` names the file in messages.
    """
    top = TomlText(text, source).parse()
    rulings = {}
    for key, data in top.data.items():
        floor = _floor(top, key, data)
        rulings[floor] = _ruling(top.child(key, data, f"[{key}]", 0, 1), floor)
    return dict(sorted(rulings.items()))


def _floor(top: TomlTable, key: str, data: object) -> int:
    """The floor a top-level table is named after."""
    if not isinstance(data, dict):
        if key in RULING_KEYS:
            raise top.fail(key, "要写在某一楼的表里，如 [12] 的下一行")
        raise top.fail(key, f"应写成一个表：先写一行 [{key}]，再在下面写 ignore 或 target")
    if not _FLOOR.fullmatch(key):
        raise top.doc.error(top.line(key), f"[{key}] 不是楼层号（表名应为 ≥ 1 的整数，如 [12]）")
    return int(key)


def _ruling(table: TomlTable, floor: int) -> Ruling:
    table.check_keys(RULING_KEYS)
    note = table.typed("note", str, "字符串（要加英文双引号）") or ""
    if "ignore" in table.data and "target" in table.data:
        raise table.fail("target", "与 ignore 只能写一个")
    if "ignore" in table.data:
        if table.typed("ignore", bool, " true") is not True:
            raise table.fail("ignore", "只能写 true；这一楼不用忽略的话，删掉这一行")
        return Ruling(floor, ignore=True, note=note)
    if "target" not in table.data:
        raise table.doc.error(
            table.line("target"), f"{table.label} 缺少 ignore 或 target（二选一）"
        )
    target = _target(table)
    return Ruling(floor, target=target, abstain=target is None, note=note)


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
