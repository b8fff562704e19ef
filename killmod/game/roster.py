"""Load the game's roster (名单) from the TOML file the judge writes.

The roster says who holds each seat, who judges and who waits to substitute.
Every mistake in it becomes a ``BadInput`` whose Chinese message names the
file, the line and the key at fault (``killmod.core.tomlfile`` finds the lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from killmod.core.errors import BadInput
from killmod.core.limits import MAX_SEAT, MAX_UID
from killmod.core.model import FormerHolder, Player, Roster
from killmod.core.names import fold
from killmod.core.tomlfile import TomlTable, TomlText, read_toml_text, show
from killmod.rules import canonical_name
from killmod.rules.roles import canonical_role, not_a_role, roles_of

# The 2.0 花样玩法: 鬼匪, 毒药, 守护神 and the two-guardian (警神/匪神) setting.
VARIANTS = ("ghost", "poison", "guardian", "double-guardian")
VARIANT_RULES = "2.0"
TOP_KEYS = (
    "rules",
    "timezone",
    "judges",
    "substitutes",
    "variants",
    "code",
    "warnings",
    "players",
)
# The V4.0 version code (版本号): only with rules = "v4".
CODE_RULES = "v4"
PLAYER_KEYS = ("seat", "name", "uid", "aliases", "alive", "role", "former")
FORMER_KEYS = ("name", "until", "uid")
PERSON_KEYS = ("name", "uid")  # a judge or a substitute written as a table
# Warnings carried into a set whose warnings never escalate: at most this many.
MAX_CARRIED = 9
TIME_LAYOUTS = ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S")

_SEAT_KEY = re.compile(r"[1-9][0-9]*")


@dataclass
class _Claims:
    """Who each seat, uid and name is given to, so that none is given twice.

    Names compare as ``killmod.core.names.fold`` folds them (NFKC, case-folded):
    the tally could not tell such names apart.  Each owner may repeat its own.
    """

    seats: dict[int, str] = field(default_factory=dict)
    uids: dict[int, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def seat(self, table: TomlTable, seat: int) -> None:
        _claim(self.seats, seat, table.label, table, "seat", show(seat))

    def uid(self, table: TomlTable, uid: int | None, owner: str) -> None:
        if uid is not None:
            _claim(self.uids, uid, owner, table, "uid", show(uid))

    def name(self, table: TomlTable, key: str, name: str, owner: str) -> None:
        folded = fold(name)
        _claim(self.names, folded, owner, table, key, show(name))


def _claim(
    book: dict[Any, str], item: object, owner: str, table: TomlTable, key: str, shown: str
) -> None:
    other = book.setdefault(item, owner)
    if other != owner:
        raise table.fail(key, f"重复：{shown}已被{other}使用")


def load_roster(path: Path) -> Roster:
    """Read and check the roster file at ``path``."""
    return parse_roster(read_toml_text(path), source=str(path))


def parse_roster(text: str, source: str = "roster.toml") -> Roster:
    """Check the roster written in ``text``; ``source`` names the file in messages."""
    top = TomlText(text, source).parse()
    top.check_keys(TOP_KEYS)
    rules = _rules(top)
    timezone = _timezone(top)
    variants = _variants(top, rules)
    claims = _Claims()
    judges, judge_uids = _judges(top, claims)
    substitutes, substitute_uids = _people(top, "substitutes", claims)
    tables = _players(top, ZoneInfo(timezone), claims)
    code = _code(top, rules, len(tables))
    roles = roles_of(rules, variants)
    players = tuple(
        sorted(
            (replace(player, role=_role(table, roles, rules)) for player, table in tables),
            key=lambda player: player.seat,
        )
    )
    return Roster(
        players=players,
        rules=rules,
        timezone=timezone,
        judges=judges,
        substitutes=substitutes,
        variants=variants,
        warnings=_warnings(top, {player.seat for player in players}, rules),
        code=code,
        judge_uids=judge_uids,
        substitute_uids=substitute_uids,
    )


def _rules(top: TomlTable) -> str:
    if isinstance(top.data.get("rules"), float):
        raise top.fail("rules", f'要加引号，如 rules = "{top.data["rules"]}"')
    written = top.string("rules") or "1.2"
    rules = canonical_name(written)
    if rules is None:
        raise top.fail(
            "rules", f"写的是{show(written)}，不是已知的规则（可用：1.2、V4.0、X、1.0、2.0）"
        )
    return rules


def _timezone(top: TomlTable) -> str:
    name = top.string("timezone") or "Asia/Shanghai"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise top.fail(
            "timezone",
            f"写的是{show(name)}，不是有效的时区名（请写 IANA 时区名，如 Asia/Shanghai）",
        ) from None
    return name


def _variants(top: TomlTable, rules: str) -> tuple[str, ...]:
    variants = top.strings("variants")
    for variant in variants:
        if variant not in VARIANTS:
            raise top.fail(
                "variants", f"中的{show(variant)}不是已知的玩法（可用：{'、'.join(VARIANTS)}）"
            )
    if variants and rules != VARIANT_RULES:
        raise top.fail("variants", f"只用于 {VARIANT_RULES} 规则的花样玩法，当前规则是 {rules}")
    if {"guardian", "double-guardian"} <= set(variants):
        raise top.fail("variants", "中 guardian 与 double-guardian 只能选一个")
    return tuple(variants)


def _code(top: TomlTable, rules: str, players: int) -> str | None:
    """The V4.0 version code: decodable, and for as many players as the roster has."""
    code = top.string("code")
    if code is None:
        return None
    if rules != CODE_RULES:
        raise top.fail("code", f"是 V4.0 的版本号，只用于 {CODE_RULES} 规则，当前规则是 {rules}")
    try:
        from killmod.rules import v4  # the code table, only for games that have one

        row = v4.decode(code)
    except BadInput as error:
        raise top.fail("code", f"不对：{error.message}") from None
    if row["players"] != players:
        raise top.fail("code", f"{row['code']} 是 {row['players']} 人局，名单有 {players} 人")
    return row["code"]


def _judges(top: TomlTable, claims: _Claims) -> tuple[tuple[str, ...], dict[str, int]]:
    """The judges: names, or tables ``{ name = "法官大人", uid = 100 }`` whose uid is matched
    against the author link (a lookalike name is then never taken for the judge)."""
    return _people(top, "judges", claims)


def _people(top: TomlTable, key: str, claims: _Claims) -> tuple[tuple[str, ...], dict[str, int]]:
    """The judges or the substitutes (each substitute a place in the queue): names, or
    tables ``{ name = "替补甲", uid = 3001 }``; the names, and the uids by name."""
    raw = top.data.get(key)
    if not isinstance(raw, list) or all(isinstance(entry, str) for entry in raw):
        names = top.strings(key)
        for place, name in enumerate(names, start=1):
            claims.name(top, key, name, _owner(key, place))
        return names, {}
    names, uids = [], {}
    for index, entry in enumerate(raw):
        owner = _owner(key, index + 1)
        if isinstance(entry, str):
            if not entry.strip() or entry != entry.strip():
                raise top.fail(key, f"的第 {index + 1} 项不能是空的，首尾也不能有空格")
            claims.name(top, key, entry, owner)
            names.append(entry)
            continue
        if not isinstance(entry, dict):
            raise top.fail(key, f"的第 {index + 1} 项应为名字或表，实际是{show(entry)}")
        table = top.child(key, entry, f"{key} 第 {index + 1} 项", index, len(raw))
        table.check_keys(PERSON_KEYS)
        table.require("name")
        name, uid = table.string("name"), table.integer("uid", MAX_UID)
        claims.name(table, "name", name, owner)
        claims.uid(table, uid, owner)
        names.append(name)
        if uid is not None:
            uids[name] = uid
    return tuple(names), uids


def _owner(key: str, place: int) -> str:
    return "法官" if key == "judges" else f"替补第 {place} 位"


def _players(top: TomlTable, zone: ZoneInfo, claims: _Claims) -> list[tuple[Player, TomlTable]]:
    """Each player as written (its role not yet checked), with the table it is written in."""
    raw = top.data.get("players")
    if raw is None:
        raise top.doc.error(None, "缺少 [[players]]，至少要登记一名玩家")
    if isinstance(raw, dict):
        raise top.fail("players", "应写成 [[players]]（两层方括号），每名玩家一段")
    if not isinstance(raw, list) or not raw:
        raise top.fail("players", "至少要登记一名玩家，每名玩家写一段 [[players]]")
    players = []
    for index, data in enumerate(raw):
        if not isinstance(data, dict):
            raise top.fail("players", f"的第 {index + 1} 项应为表，实际是{show(data)}")
        table = top.child("players", data, f"第 {index + 1} 个 [[players]]", index, len(raw))
        players.append((_player(table, zone, claims), table))
    return players


def _player(table: TomlTable, zone: ZoneInfo, claims: _Claims) -> Player:
    for key in table.data:
        if key in TOP_KEYS:
            raise table.fail(key, "是顶层的键，要写在第一个 [[players]] 之前")
    table.check_keys(PLAYER_KEYS)
    table.require("seat", "name")
    seat, name = table.integer("seat", MAX_SEAT), table.string("name")
    owner = f"{seat} 号玩家{show(name)}"
    claims.seat(table, seat)
    claims.name(table, "name", name, owner)
    aliases = table.strings("aliases")
    for alias in aliases:
        claims.name(table, "aliases", alias, owner)
    uid = table.integer("uid", MAX_UID)
    claims.uid(table, uid, owner)
    alive = table.typed("alive", bool, " true 或 false")
    return Player(
        seat=seat,
        name=name,
        uid=uid,
        aliases=aliases,
        alive=True if alive is None else alive,
        role=table.string("role"),
        former=_former(table, zone, claims, owner),
    )


def _role(table: TomlTable, roles: tuple[str, ...], rules: str) -> str | None:
    """The player's role, one of the rule set's (a traditional form read as simplified)."""
    role = table.data.get("role")
    if role is None:
        return None
    found = canonical_role(role, roles)
    if found is None:
        raise table.fail("role", not_a_role(role, rules, roles))
    return found


def _former(
    player: TomlTable, zone: ZoneInfo, claims: _Claims, owner: str
) -> tuple[FormerHolder, ...]:
    """The seat's previous holders, earliest first; their names belong to the seat."""
    example = '表的数组，如 [{ name = "老王", until = "2019-05-10 12:00" }]'
    raw = player.typed("former", list, example) or []
    holders = []
    for index, data in enumerate(raw):
        if not isinstance(data, dict):
            raise player.fail("former", f"的第 {index + 1} 项应为表，实际是{show(data)}")
        label = f"{player.label} 的 former 第 {index + 1} 项"
        table = player.child("former", data, label, index, len(raw))
        table.check_keys(FORMER_KEYS)
        table.require("name", "until")
        holder = FormerHolder(
            name=table.string("name"),
            until=_local_time(table, "until", zone),
            uid=table.integer("uid", MAX_UID),
        )
        claims.name(table, "name", holder.name, owner)
        claims.uid(table, holder.uid, owner)
        holders.append(holder)
    return tuple(sorted(holders, key=lambda holder: holder.until))


def _local_time(table: TomlTable, key: str, zone: ZoneInfo) -> datetime:
    """``key`` as an aware time; a time without an offset is local to ``zone``."""
    value = table.data[key]
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=zone)
    if isinstance(value, str):
        for layout in TIME_LAYOUTS:
            try:
                return datetime.strptime(value, layout).replace(tzinfo=zone)
            except ValueError:
                continue
    raise table.fail(key, f'应为 "YYYY-MM-DD HH:MM[:SS]" 格式的时间，实际是{show(value)}')


def _warnings(top: TomlTable, seats: set[int], rules: str) -> dict[int, int]:
    """Warnings carried from earlier rounds, by seat: fewer than the rule set's ladder takes
    to act on (1.2: one; a second would have brought the substitute)."""
    raw = top.typed("warnings", dict, "表，如 [warnings] 下写 3 = 1")
    if raw is None:
        return {}
    table = top.child("warnings", raw, "[warnings]", 0, 1)
    most, ladder = _carried_limit(rules)
    counts = {}
    for key in raw:
        if not _SEAT_KEY.fullmatch(key) or int(key) not in seats:
            raise table.fail(key, "不是名单里的座位号（[warnings] 的键应为座位号，如 3 = 1）")
        count = table.typed(key, int, "警告次数（≥ 0 的整数）")
        if count < 0:
            raise table.fail(key, f"应为 ≥ 0 的警告次数，实际是{show(count)}")
        if count > most:
            raise table.fail(key, f"是{show(count)}次警告，超出了{ladder}")
        counts[int(key)] = count
    return counts


def _carried_limit(rules: str) -> tuple[int, str]:
    """The most warnings a player can carry, and how the message names that limit.

    Under a ladder (1.2: 警告一次，二次换替补，无替补出局) a player carrying the count that
    acts would already have been substituted or put out.
    """
    from killmod.rules import rule_set

    action = rule_set(rules).warning_action
    for total in range(1, MAX_CARRIED + 1):
        if action(total, 1) != "warn":
            return total - 1, (
                f" {rules} 规则的警告阶梯：第 {total} 次警告就换替补或出局，"
                f"带入的警告最多 {total - 1} 次（已被换下的玩家请写成 former）"
            )
    return MAX_CARRIED, f"合理范围（最多 {MAX_CARRIED} 次）"


def name_taken(roster: Roster, name: str) -> tuple[int | None, str] | None:
    """Who in ``roster`` already has ``name`` as ``killmod.core.names.fold`` compares names
    (case, width, traditional and simplified alike): the seat (None for a judge or a
    substitute) and, in words, whose name, alias or former holder's name it is; None when
    nobody has it.

    What the set-up refuses for two people (``_Claims``), a later step refuses too: the
    tally could not tell such names apart."""
    wanted = fold(name)
    for player in roster.players:
        kinds = (
            [("名字", player.name)]
            + [("别名", alias) for alias in player.aliases]
            + [("前任玩家的名字", holder.name) for holder in player.former]
        )
        for kind, written in kinds:
            if fold(written) == wanted:
                return player.seat, f"{player.seat}号 {player.name} 的{kind}「{written}」"
    for judge in roster.judges:
        if fold(judge) == wanted:
            return None, f"法官「{judge}」"
    for substitute in roster.substitutes:
        if fold(substitute) == wanted:
            return None, f"替补「{substitute}」"
    return None
