"""Evidence any player can count from: a recorded vote's bundle (README, “Evidence”).

A recorded tally keeps its *count document* — everything the count depends on, nothing
secret: the posts exactly as read, the views read and when, the deadline and its zone, the
roster without roles, the judge's rulings, the rule set, killmod's version, and the result —
as exact text in the game file (``Game.save_evidence``); the announcement prints the
document's SHA-256.  ``killmod evidence --round N`` packs a round's documents into one zip
file, the *bundle*, beside each vote's announcement as printed and the round's lottery
(with its lots and salt once drawn); ``killmod verify`` (``killmod.usecases.verify``)
counts every vote again from the bundle alone.

The circle — the announcement prints the hash, the bundle holds the announcement — is
broken by hashing the count document alone: the announcement sits beside it in the zip,
and ``verify`` checks that it prints that hash.  A count document is canonical JSON
(``canonical``), so its bytes are its content.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from killmod.ballots.rulings import Ruling
from killmod.core.errors import BadInput
from killmod.core.model import FormerHolder, Player, Post, Roster, TallyResult
from killmod.core.redact import redact_url
from killmod.core.times import format_iso
from killmod.game.tallyjson import HIDDEN_VERDICTS, public_tally_json

if TYPE_CHECKING:
    from killmod.ballots.count import TallyOptions
    from killmod.fetch.thread import Thread
    from killmod.game.store import Game
    from killmod.usecases.day import DayPlan

SCHEMA = "killmod.evidence/1"
SCHEMA_NAME, SCHEMA_VERSION = SCHEMA.split("/")
MANIFEST = "manifest.json"
README = "README.txt"
LOTTERY = "lottery.json"
# Zip entries get one fixed time: the same round packed twice is the same file.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_README = """killmod 计票证据包（第 {round} 轮）

voteN/count.json：第 N 次投票计票用到的一切——帖子（原样）、读取的页面、截止时间、
  名单（不含身份）、法官的裁定、规则和 killmod 版本——以及计票结果。
  它的 SHA-256 印在这次投票的公告里。
voteN/announcement.txt：法官发出的公告原文。
lottery.json：平票抽签的承诺值；抽签之后还有签位和密钥。

核对：killmod verify 本文件（不需要游戏文件，不联网），它会只用这里的内容重新计票。
也可以自己算 count.json 的 SHA-256，和论坛上公告里的比对。
"""


def killmod_version() -> str:
    """The installed killmod's version (``unknown`` when it runs from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("killmod")
    except PackageNotFoundError:
        return "unknown"


def canonical(document: dict[str, Any]) -> bytes:
    """A count document's bytes: JSON with sorted keys, no spaces, UTF-8 (no escapes)."""
    text = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.encode("utf-8")


def sha256(data: bytes) -> str:
    """SHA-256 in lower-case hex."""
    return hashlib.sha256(data).hexdigest()


# --- the count document ------------------------------------------------------------------


def count_document(
    thread: Thread,
    result: TallyResult,
    *,
    options: TallyOptions,
    plan: DayPlan,
    read_at: datetime,
) -> dict[str, Any]:
    """The count document of ``result``, counted from ``thread`` under ``plan``.

    What the count took from the game file goes in as the public facts it is: the seats a
    hidden night effect left without a ballot only where the count shows it (a post
    ``not_counted``: a 癫狂 player who cast none is the same count either way), the days of
    leave only of the non-voters it excused.
    """
    from killmod.usecases.record import snapshot_hash

    roster = result.roster
    day = result.deadline.astimezone(_zone(roster.timezone)).date()
    return {
        "schema": SCHEMA,
        "killmod": killmod_version(),
        "round": result.round,
        "rules": {"name": roster.rules, "variants": list(roster.variants), "code": roster.code},
        "timezone": roster.timezone,
        "deadline": format_iso(result.deadline),
        "early": result.early,
        "vote": plan.stage.as_json(),
        "options": {"edits": options.edits, "ambiguous_time": options.ambiguous_time},
        "rulings": [ruling_json(r) for r in sorted(options.rulings, key=lambda r: r.pid or 0)],
        "roster": roster_json(roster),
        "leave": {str(seat): [day.isoformat()] for seat in result.excused},
        "uncounted": sorted({v.seat for v in result.verdicts if v.verdict in HIDDEN_VERDICTS}),
        "thread": {
            "source": redact_url(thread.source),
            "title": thread.title,
            "pages": thread.pages,
            "scraper": thread.scraper,
            "read_at": format_iso(read_at),
            "views": [{"view": v.view, "pages": v.pages, "why": v.why} for v in thread.views],
            "confirmed": sorted(thread.confirmed),
        },
        "posts": [post_json(post) for post in thread.posts],
        "snapshot": snapshot_hash(thread.posts),
        "result": public_tally_json(result, _rules(roster)),
    }


def post_json(post: Post) -> dict[str, Any]:
    """A post as the reader saw it (times to the second, with their offset)."""
    return {
        "pid": post.pid,
        "floor": post.floor,
        "author": post.author,
        "uid": post.uid,
        "posted_at": format_iso(post.posted_at),
        "precision": post.precision,
        "body": post.body,
        "quotes": list(post.quotes),
        "edited_at": format_iso(post.edited_at) if post.edited_at else None,
        "banned": post.banned,
        "page": post.page,
        "hidden": list(post.hidden),
    }


def roster_json(roster: Roster) -> dict[str, Any]:
    """The seats as the count saw them, without a role: names, uids, aliases, in or out,
    earlier holders; the judges; the substitutes' queue; the warnings carried in."""
    return {
        "judges": [{"name": name, "uid": roster.judge_uids.get(name)} for name in roster.judges],
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "uid": p.uid,
                "aliases": list(p.aliases),
                "alive": p.alive,
                "former": [
                    {"name": f.name, "uid": f.uid, "until": format_iso(f.until)} for f in p.former
                ],
            }
            for p in sorted(roster.players, key=lambda p: p.seat)
        ],
        "substitutes": list(roster.substitutes),
        "warnings": {str(seat): total for seat, total in sorted(roster.warnings.items())},
    }


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    """A ruling with its reason, by the post it was resolved to."""
    return {
        "pid": ruling.pid,
        "floor": ruling.floor,
        "ignore": ruling.ignore,
        "target": ruling.target,
        "abstain": ruling.abstain,
        "note": ruling.note,
    }


def _rules(roster: Roster):
    from killmod.rules import rule_set_of

    return rule_set_of(roster)


def _zone(name: str):
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


# --- the bundle ----------------------------------------------------------------------------


@dataclass(frozen=True)
class VoteEvidence:
    """One recorded vote of the round in the bundle: its stage, members and hash."""

    number: int
    stage: str
    sha256: str
    announced: bool
    published: str | None

    @property
    def count(self) -> str:
        return f"vote{self.number}/count.json"

    @property
    def announcement(self) -> str:
        return f"vote{self.number}/announcement.txt"


@dataclass(frozen=True)
class Evidence:
    """A round's bundle: its file name, its bytes, the votes in it and its lottery
    (``none``, ``made``: the commitment only, or ``revealed``)."""

    round: int
    name: str
    data: bytes
    votes: tuple[VoteEvidence, ...]
    lottery: str = "none"


def bundle_name(round_no: int) -> str:
    """The bundle's file name: ASCII, as boards take attachments' names."""
    return f"killmod-round{round_no}-evidence.zip"


def evidence(game: Game, round_no: int) -> Evidence:
    """The bundle of round ``round_no``: every standing recorded vote of the round, in the
    order recorded, and its lottery.  Refused for a round with no recorded vote, or a vote
    recorded before killmod kept evidence."""
    tallies = [row for row in game.tallies() if row["round"] == round_no]
    if not tallies:
        raise BadInput(f"第 {round_no} 轮没有记录过投票：没有证据包可导出。")
    votes: list[VoteEvidence] = []
    members: dict[str, bytes] = {}
    by_tally: dict[int, str] = {}
    for number, row in enumerate(tallies, 1):
        kept = game.evidence(row["id"])
        if kept is None:
            raise BadInput(
                f"第 {round_no} 轮的第 {number} 次投票是旧版 killmod 记录的，没有留下证据"
                "（公告里只有投票帖快照的 SHA-256）：导不出证据包。"
            )
        count = kept["count"].encode("utf-8")
        stage = json.loads(count)["vote"]["kind"]
        vote = VoteEvidence(
            number, stage, kept["sha256"], bool(kept["announcement"]), kept["published"]
        )
        members[vote.count] = count
        if vote.announced:
            members[vote.announcement] = kept["announcement"].encode("utf-8")
        by_tally[row["id"]] = vote.count
        votes.append(vote)
    lottery, state = _lottery(game, round_no, by_tally)
    if lottery is not None:
        members[LOTTERY] = json.dumps(lottery, ensure_ascii=False, indent=1).encode("utf-8")
    manifest = {
        "schema": SCHEMA,
        "round": round_no,
        "made_by": f"killmod {killmod_version()}",
        "votes": [
            {
                "count": vote.count,
                "sha256": vote.sha256,
                "stage": vote.stage,
                "announcement": vote.announcement if vote.announced else None,
                "published": vote.published,
            }
            for vote in votes
        ],
        "lottery": LOTTERY if lottery is not None else None,
    }
    files = {
        README: _README.format(round=round_no).encode("utf-8"),
        MANIFEST: json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8"),
        **members,
    }
    return Evidence(round_no, bundle_name(round_no), pack(files), tuple(votes), state)


def bundle_rounds(game: Game) -> tuple[int, ...]:
    """The rounds with a standing recorded vote: those ``evidence`` packs a bundle of."""
    return tuple(sorted({row["round"] for row in game.tallies()}))


def evidence_bytes(game: Game, round_no: int) -> bytes:
    """The bytes of round ``round_no``'s bundle (for a page that offers it for download)."""
    return evidence(game, round_no).data


def pack(files: dict[str, bytes]) -> bytes:
    """A zip of ``files`` in the order given, the same bytes for the same files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return buffer.getvalue()


def _lottery(
    game: Game, round_no: int, by_tally: dict[int, str]
) -> tuple[dict[str, Any] | None, str]:
    """The round's lottery: the tie it settles, the tied seats and the commitment; once
    drawn, the lot, the seat and the lots and salt (public from then on)."""
    from killmod.usecases.lottery import standing_lottery

    lottery = standing_lottery(game, round_no)
    if lottery is None:
        return None, "none"
    reveals = [
        e
        for e in game.events("lottery_reveal")
        if e.round == round_no and e.data.get("lottery_id") == lottery.event_id
    ]
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "round": round_no,
        "settles": by_tally.get(lottery.tally_id),
        "seats": sorted(lottery.mapping.values()),
        "commitment": lottery.commitment,
        "reveal": None,
    }
    if not reveals:
        return document, "made"
    drawn = reveals[-1]
    document["reveal"] = {
        "lot": drawn.data["lot"],
        "seat": drawn.seat,
        "mapping": drawn.data["mapping"],
        "salt": drawn.data["salt"],
    }
    return document, "revealed"


# --- reading a count document back ---------------------------------------------------------


class BadBundle(BadInput):
    """A bundle that cannot be read (not a zip, a member missing, a field of the wrong
    kind): exit 2, naming the member and the field."""


@dataclass(frozen=True)
class CountInputs:
    """What a count document says the count was made from."""

    posts: tuple[Post, ...]
    roster: Roster
    deadline: datetime
    rulings: tuple[Ruling, ...]
    edits: str
    ambiguous_time: str
    leave: dict[int, frozenset[date]]
    uncounted: frozenset[int]


_KINDS = {int: "整数", str: "文字", bool: "true/false", list: "列表", dict: "对象"}


class Fields:
    """Reads a JSON object's fields, naming the member and the path of any that is missing
    or of the wrong kind."""

    def __init__(self, member: str) -> None:
        self.member = member

    def fail(self, where: str, problem: str) -> BadBundle:
        return BadBundle(f"证据包的 {self.member} 读不懂：{where} {problem}")

    def get(self, data: Any, key: str, kind: type, where: str, *, null: bool = False) -> Any:
        if not isinstance(data, dict):
            raise self.fail(where, "应为对象")
        if key not in data:
            raise self.fail(f"{where}.{key}".lstrip("."), "缺少")
        value = data[key]
        if value is None and null:
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"{where}.{key}".lstrip("."), f"应为{_KINDS[kind]}：{value!r}")
        return value

    def moment(self, data: Any, key: str, where: str, *, null: bool = False) -> datetime | None:
        text = self.get(data, key, str, where, null=null)
        if text is None:
            return None
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise self.fail(f"{where}.{key}".lstrip("."), f"不是时间：{text!r}") from None
        if moment.utcoffset() is None:
            raise self.fail(f"{where}.{key}".lstrip("."), f"没有时区：{text!r}")
        return moment

    def ints(self, data: Any, key: str, where: str) -> list[int]:
        values = self.get(data, key, list, where)
        for index, value in enumerate(values):
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.fail(f"{where}.{key}[{index}]".lstrip("."), f"应为整数：{value!r}")
        return values

    def strings(self, data: Any, key: str, where: str) -> list[str]:
        values = self.get(data, key, list, where)
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise self.fail(f"{where}.{key}[{index}]".lstrip("."), f"应为文字：{value!r}")
        return values


PRECISIONS = ("second", "minute", "hour", "day")


def count_inputs(document: dict[str, Any], member: str) -> CountInputs:
    """The posts, seats, deadline, rulings and options a count document holds."""
    read = Fields(member)
    rules = read.get(document, "rules", dict, "")
    seats = read.get(document, "roster", dict, "")
    judges = [
        (read.get(judge, "name", str, f"roster.judges[{i}]"),
         read.get(judge, "uid", int, f"roster.judges[{i}]", null=True))
        for i, judge in enumerate(read.get(seats, "judges", list, "roster"))
    ]  # fmt: skip
    roster = Roster(
        players=tuple(
            _player(read, player, f"roster.players[{i}]")
            for i, player in enumerate(read.get(seats, "players", list, "roster"))
        ),
        rules=read.get(rules, "name", str, "rules"),
        timezone=_timezone(read, read.get(document, "timezone", str, "")),
        judges=tuple(name for name, _ in judges),
        substitutes=tuple(read.strings(seats, "substitutes", "roster")),
        variants=tuple(read.strings(rules, "variants", "rules")),
        warnings=_seat_map(read, read.get(seats, "warnings", dict, "roster"), int, "roster"),
        code=read.get(rules, "code", str, "rules", null=True),
        judge_uids={name: uid for name, uid in judges if uid is not None},
    )
    options = read.get(document, "options", dict, "")
    leave = _seat_map(read, read.get(document, "leave", dict, ""), list, "")
    return CountInputs(
        posts=tuple(
            _post(read, post, f"posts[{i}]")
            for i, post in enumerate(read.get(document, "posts", list, ""))
        ),
        roster=roster,
        deadline=read.moment(document, "deadline", ""),
        rulings=tuple(
            _ruling(read, ruling, f"rulings[{i}]")
            for i, ruling in enumerate(read.get(document, "rulings", list, ""))
        ),
        edits=read.get(options, "edits", str, "options"),
        ambiguous_time=read.get(options, "ambiguous_time", str, "options"),
        leave={
            seat: frozenset(_day(read, text, f"leave.{seat}") for text in days)
            for seat, days in leave.items()
        },
        uncounted=frozenset(read.ints(document, "uncounted", "")),
    )


def _post(read: Fields, data: Any, where: str) -> Post:
    precision = read.get(data, "precision", str, where)
    if precision not in PRECISIONS:
        raise read.fail(f"{where}.precision", f"不是已知的精度：{precision!r}")
    return Post(
        pid=read.get(data, "pid", int, where),
        floor=read.get(data, "floor", int, where, null=True),
        author=read.get(data, "author", str, where),
        uid=read.get(data, "uid", int, where, null=True),
        posted_at=read.moment(data, "posted_at", where),
        precision=precision,
        body=read.get(data, "body", str, where),
        quotes=tuple(read.strings(data, "quotes", where)),
        edited_at=read.moment(data, "edited_at", where, null=True),
        banned=read.get(data, "banned", bool, where),
        page=read.get(data, "page", int, where),
        hidden=tuple(read.strings(data, "hidden", where)) if "hidden" in data else (),
    )


def _player(read: Fields, data: Any, where: str) -> Player:
    former = read.get(data, "former", list, where)
    return Player(
        seat=read.get(data, "seat", int, where),
        name=read.get(data, "name", str, where),
        uid=read.get(data, "uid", int, where, null=True),
        aliases=tuple(read.strings(data, "aliases", where)),
        alive=read.get(data, "alive", bool, where),
        former=tuple(
            FormerHolder(
                name=read.get(holder, "name", str, f"{where}.former[{i}]"),
                until=read.moment(holder, "until", f"{where}.former[{i}]"),
                uid=read.get(holder, "uid", int, f"{where}.former[{i}]", null=True),
            )
            for i, holder in enumerate(former)
        ),
    )


def _ruling(read: Fields, data: Any, where: str) -> Ruling:
    return Ruling(
        floor=read.get(data, "floor", int, where, null=True),
        ignore=read.get(data, "ignore", bool, where),
        target=read.get(data, "target", int, where, null=True),
        abstain=read.get(data, "abstain", bool, where),
        note=read.get(data, "note", str, where),
        pid=read.get(data, "pid", int, where),
    )


def _seat_map(read: Fields, data: dict[str, Any], kind: type, where: str) -> dict[int, Any]:
    seats = {}
    for key in data:
        if not key.isdigit():
            raise read.fail(f"{where}.{key}".lstrip("."), "应为座位号")
        seats[int(key)] = read.get(data, key, kind, where)
    return seats


def _timezone(read: Fields, name: str) -> str:
    from zoneinfo import ZoneInfoNotFoundError

    try:
        _zone(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise read.fail("timezone", f"不是已知的时区：{name!r}") from None
    return name


def _day(read: Fields, text: Any, where: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise read.fail(where, f"不是日期：{text!r}") from None
