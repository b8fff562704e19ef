"""``killmod verify``: count a vote again from its evidence bundle alone (README, “Evidence”).

No game file, no network: each count document of the bundle (``killmod.usecases.evidence``)
is read back into posts, seats, deadline, rulings and options, and counted by the same
function the judge's ``tally`` counts with (``killmod.usecases.tally.tally_thread``: the
pure engine of ``killmod.ballots.count`` under the rule set's tally policy).  The recount
is compared with the result the document records — every ballot, count, the outcome, every
post's verdict, the vote changes, rejections and warnings — and the document's SHA-256
with the one its announcement prints (and the ones the player read on the board).  What
the rule set makes of the outcome from hidden roles (a camp shown, a guardian dying in
one's place) is the judge's word and is not counted again; a knife phase's count is.

A bundle whose schema this killmod does not know is refused, naming the version to use;
fields a document has beyond the ones read here are ignored (a later ``killmod.evidence/1``
may add some).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from killmod.ballots.count import TallyOptions
from killmod.core.errors import BadInput, KillmodError
from killmod.core.model import Stage, TallyResult, ViewRead
from killmod.fetch.thread import Thread
from killmod.game.tallyjson import public_tally_json
from killmod.rules import rule_set
from killmod.usecases.day import DayPlan
from killmod.usecases.evidence import (
    MANIFEST,
    SCHEMA_NAME,
    SCHEMA_VERSION,
    BadBundle,
    Fields,
    count_inputs,
    killmod_version,
    sha256,
)

# The largest member a bundle may have once unpacked (a thread of 100,000 posts fits).
MAX_MEMBER = 256 * 1024 * 1024
_HASH = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
# The parts of the tally document compared, keyed where each item has its own key.
_BY_KEY = {"ballots": "seat", "counts": "seat", "verdicts": "pid"}
_AS_SETS = ("changes", "rejected", "flags", "warnings")
# The fields of each part's items that ``killmod.tally/1`` has always had: compared always.
# A field a later killmod adds to the document is compared only where the recorded
# document has it (the contract allows extra keys): an older bundle still verifies.
_FIELDS = {
    "ballots": ("seat", "name", "kind", "target", "floor", "posted_at"),
    "counts": ("seat", "name", "votes", "voters"),
    "verdicts": (
        *("pid", "floor", "author", "seat", "posted_at", "verdict"),
        *("kind", "target", "fragment", "ruling", "notes"),
    ),
    "changes": ("seat", "floor", "from", "to", "posted_at"),
    "rejected": ("floor", "author", "seat", "reason", "pid", "posted_at"),
    "flags": ("floor", "seat", "reason", "detail"),
    "warnings": ("seat", "name", "total", "action"),
}
_PLAIN = ("rules", "round", "deadline", "source", "excused", "early")
_OPTIONS = {"edits": ("strict", "allow"), "ambiguous_time": ("count", "reject")}


@dataclass(frozen=True)
class Difference:
    """One thing the recount (or a hash) does not confirm.

    ``part`` names it (``hash``, ``ballots``, ``counts``,
    ``outcome``, ``verdicts``, ``changes``, ``rejected``, ``flags``, ``warnings``,
    ``knife``, ``stage``, ``recount``, ``lottery``, or a field of the document); ``key``
    the item (a seat, a pid); ``recorded`` what the bundle says, ``recounted`` what
    the recount (or the hash) gives — JSON values, None for nothing.
    """

    part: str
    key: Any = None
    recorded: Any = None
    recounted: Any = None


@dataclass(frozen=True)
class VoteCheck:
    """One vote of the bundle checked: its document's hash, the recount's differences."""

    number: int
    member: str
    round: int
    stage: str
    rules: str
    sha256: str
    made_by: str
    announcement: str | None
    names: dict[int, str]
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class LotteryCheck:
    """The round's lottery: drawn or not, and what does not check out."""

    seats: tuple[int, ...]
    commitment: str
    drawn: dict[str, Any] | None
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class Verification:
    """A bundle checked whole; ``same`` only when nothing differs."""

    name: str
    round: int
    votes: tuple[VoteCheck, ...]
    lottery: LotteryCheck | None
    version: str
    published: tuple[str, ...] = ()
    unmatched: tuple[str, ...] = field(default=())

    @property
    def unconfirmed(self) -> tuple[int, ...]:
        """The votes (by number) whose SHA-256 is none the player gave, when he gave some:
        a hash read on the board vouches for its own vote only."""
        if not self.published:
            return ()
        return tuple(vote.number for vote in self.votes if vote.sha256 not in self.published)

    @property
    def lottery_unconfirmed(self) -> bool:
        """Whether the player gave hashes but not the lottery's commitment (the 签位承诺 its
        post printed before the draw): the lots check against the bundle's own commitment."""
        return (
            bool(self.published)
            and self.lottery is not None
            and (self.lottery.commitment not in self.published)
        )

    @property
    def same(self) -> bool:
        """Every vote recounts as recorded, every hash is the one published, the lots check."""
        return (
            all(not vote.differences for vote in self.votes)
            and not self.unmatched
            and (self.lottery is None or not self.lottery.differences)
        )


def verify(
    bundle: bytes | str | Path, *, published: tuple[str, ...] = (), name: str | None = None
) -> Verification:
    """Check the bundle (its bytes, or a file): recount every vote from it alone.

    ``published`` are SHA-256 values the player read on the board: each must be the hash
    of one of the bundle's count documents, or its lottery's commitment (签位承诺).
    """
    if not isinstance(bundle, bytes):
        path = Path(bundle)
        name = name or path.name
        try:
            bundle = path.read_bytes()
        except OSError as error:
            raise BadInput(f"无法读取证据包：{path}（{error.strerror}）") from None
    name = name or "证据包"
    members = _Members(bundle, name)
    manifest = members.json(MANIFEST)
    read = Fields(MANIFEST)
    _check_schema(read.get(manifest, "schema", str, ""), name)
    round_no = read.get(manifest, "round", int, "")
    votes = []
    for index, entry in enumerate(read.get(manifest, "votes", list, "")):
        where = f"votes[{index}]"
        votes.append(
            _check_vote(
                members,
                index + 1,
                read.get(entry, "count", str, where),
                read.get(entry, "sha256", str, where),
                read.get(entry, "announcement", str, where, null=True),
                round_no,
            )
        )
    lottery_member = read.get(manifest, "lottery", str, "", null=True)
    lottery = _check_lottery(members, lottery_member, votes) if lottery_member else None
    wanted = tuple(h.strip().lower() for h in published)
    known = {vote.sha256 for vote in votes} | ({lottery.commitment} if lottery else set())
    unmatched = tuple(h for h in wanted if h not in known)
    return Verification(name, round_no, tuple(votes), lottery, killmod_version(), wanted, unmatched)


class _Members:
    """A bundle's zip, read member by member (each at most ``MAX_MEMBER`` bytes)."""

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile:
            raise BadBundle(f"{name} 不是 zip 文件：不是 killmod 的证据包。") from None

    def bytes(self, member: str) -> bytes:
        try:
            with self.zip.open(member) as stream:
                data = stream.read(MAX_MEMBER + 1)
        except KeyError:
            raise BadBundle(f"证据包 {self.name} 里没有 {member}。") from None
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:
            raise BadBundle(f"证据包 {self.name} 的 {member} 已损坏（{error}）。") from None
        if len(data) > MAX_MEMBER:
            raise BadBundle(f"证据包 {self.name} 的 {member} 太大（超过 256 MB）。")
        return data

    def json(self, member: str, data: bytes | None = None) -> Any:
        try:
            return json.loads(self.bytes(member) if data is None else data)
        except (ValueError, RecursionError):
            raise BadBundle(f"证据包 {self.name} 的 {member} 不是 JSON。") from None

    def text(self, member: str) -> str:
        try:
            return self.bytes(member).decode("utf-8")
        except UnicodeDecodeError:
            raise BadBundle(f"证据包 {self.name} 的 {member} 不是 UTF-8 文字。") from None


def _check_schema(schema: str, name: str) -> None:
    """``killmod.evidence/1`` is read; a later version is refused, naming it."""
    family, _, version = schema.partition("/")
    if family != SCHEMA_NAME or not version.isdigit():
        raise BadBundle(f"{name} 不是 killmod 的证据包（格式是「{schema}」）。")
    if int(version) > int(SCHEMA_VERSION):
        raise BadBundle(
            f"证据包 {name} 是更新版本的 killmod 写的（格式 {schema}，这个 killmod 只认得 "
            f"{SCHEMA_NAME}/{SCHEMA_VERSION}）：请升级 killmod（pip install -U killmod）后再核对。"
        )


def _check_vote(
    members: _Members,
    number: int,
    member: str,
    listed: str,
    announcement_member: str | None,
    round_no: int,
) -> VoteCheck:
    data = members.bytes(member)
    digest = sha256(data)
    document = members.json(member, data)
    read = Fields(member)
    _check_schema(read.get(document, "schema", str, ""), members.name)
    inputs = count_inputs(document, member)
    stage = _stage(read, document)
    announcement = members.text(announcement_member) if announcement_member else None
    differences: list[Difference] = []
    if listed.lower() != digest:
        differences.append(Difference("hash", MANIFEST, listed, digest))
    if announcement is not None and digest not in announcement:
        printed = [h for h in _HASH.findall(announcement) if h != document.get("snapshot")]
        differences.append(Difference("hash", "announcement", printed, digest))
    if read.get(document, "round", int, "") != round_no:
        differences.append(Difference("round", None, round_no, document["round"]))
    recorded = read.get(document, "result", dict, "")
    try:
        recounted = recount(document, member)
    except BadBundle:
        raise
    except KillmodError as error:
        differences.append(Difference("recount", None, None, error.message))
    else:
        differences += compare(recorded, recounted, stage)
    return VoteCheck(
        number=number,
        member=member,
        round=document["round"],
        stage=stage.kind,
        rules=inputs.roster.rules,
        sha256=digest,
        made_by=str(document.get("killmod", "")),
        announcement=announcement,
        names={player.seat: player.name for player in inputs.roster.players},
        differences=tuple(differences),
    )


def _stage(read: Fields, document: dict[str, Any]) -> Stage:
    vote = read.get(document, "vote", dict, "")
    kind = read.get(vote, "kind", str, "vote")
    candidates = read.ints(vote, "candidates", "vote")
    defender = read.get(vote, "defender", int, "vote", null=True)
    opened = read.moment(vote, "opened", "vote", null=True)
    return Stage(kind, tuple(candidates), defender, opened)


@dataclass(frozen=True)
class _BundlePlan(DayPlan):
    """The vote as the document states it: the stage, the excused non-voters' leave, and the
    seats a hidden night effect left without a ballot (no game state behind it)."""

    silenced: frozenset[int] = frozenset()

    def scope(self):
        return replace(super().scope(), silenced=self.silenced)


def recount(document: dict[str, Any], member: str = "count.json") -> dict[str, Any]:
    """The vote of a count document counted again from it alone, as the tally's public
    JSON document (what its ``result`` must be)."""
    from killmod.usecases.tally import tally_thread

    read = Fields(member)
    inputs = count_inputs(document, member)
    stage = _stage(read, document)
    thread_part = read.get(document, "thread", dict, "")
    views = [
        ViewRead(
            read.get(view, "view", str, f"thread.views[{i}]"),
            read.get(view, "pages", int, f"thread.views[{i}]"),
            read.get(view, "why", str, f"thread.views[{i}]"),
        )
        for i, view in enumerate(read.get(thread_part, "views", list, "thread"))
    ]
    thread = Thread(
        source=read.get(thread_part, "source", str, "thread"),
        title=read.get(thread_part, "title", str, "thread", null=True),
        pages=read.get(thread_part, "pages", int, "thread"),
        posts=inputs.posts,
        scraper=read.get(thread_part, "scraper", str, "thread"),
        confirmed=tuple(read.ints(thread_part, "confirmed", "thread")),
        views=tuple(views),
    )
    roster = inputs.roster
    rules = rule_set(roster.rules, roster.variants, roster.code)
    for option, allowed in _OPTIONS.items():
        value = getattr(inputs, option)
        if value not in allowed:
            raise read.fail(f"options.{option}", f"应为 {' 或 '.join(allowed)}：{value!r}")
    options = TallyOptions(inputs.edits, inputs.ambiguous_time, inputs.rulings)
    plan = _BundlePlan(rules, stage, None, inputs.leave, silenced=inputs.uncounted)
    result: TallyResult = tally_thread(
        thread,
        roster,
        deadline=inputs.deadline,
        round_no=read.get(document, "round", int, ""),
        options=options,
        plan=plan,
    )
    result = replace(result, early=read.get(document, "early", bool, ""))
    return public_tally_json(result, rules)


# --- comparing the recorded result with the recount ---------------------------------------


def compare(recorded: dict[str, Any], recount: dict[str, Any], stage: Stage) -> list[Difference]:
    """Every difference between the recorded tally document and the recount's, part by part."""
    found: list[Difference] = []
    for part, key in _BY_KEY.items():
        found += _keyed(part, key, recorded.get(part, []), recount.get(part, []))
    before, after = _outcome(recorded.get("outcome")), _outcome(recount.get("outcome"))
    if before != after:
        found.append(Difference("outcome", None, before, after))
    for part in _AS_SETS:
        found += _as_sets(part, recorded.get(part, []), recount.get(part, []))
    for part in _PLAIN:
        if recorded.get(part) != recount.get(part):
            found.append(Difference(part, None, recorded.get(part), recount.get(part)))
    day = recorded.get("day") or {}
    if not isinstance(day, dict):
        return [*found, Difference("day", None, day, recount.get("day"))]
    knife = (recount.get("day") or {}).get("knife")
    if day.get("knife") != knife:
        found.append(Difference("knife", None, day.get("knife"), knife))
    if "stage" in day and day["stage"] != stage.as_json():
        found.append(Difference("stage", None, day["stage"], stage.as_json()))
    return found


def _outcome(outcome: Any) -> Any:
    """The outcome as the count decides it (the camp shown is the judge's word)."""
    if not isinstance(outcome, dict):
        return outcome
    return {key: value for key, value in outcome.items() if key != "camp"}


def _keyed(part: str, key: str, recorded: Any, recount: list[dict]) -> list[Difference]:
    """Item by item, where each item is an object with a number for ``key``; else the
    whole part as one difference (a document edited out of shape)."""
    if not (isinstance(recorded, list) and all(_keyed_item(item, key) for item in recorded)):
        return [] if recorded == recount else [Difference(part, None, recorded, recount)]
    before = {item[key]: item for item in recorded}
    after = {item[key]: _as_recorded(part, item, before.get(item[key])) for item in recount}
    keys = sorted(set(before) | set(after), key=lambda k: (not isinstance(k, int), str(k)))
    return [
        Difference(part, k, before.get(k), after.get(k))
        for k in keys
        if before.get(k) != after.get(k)
    ]


def _as_recorded(part: str, item: dict[str, Any], recorded: Any) -> dict[str, Any]:
    """``item`` of the recount with the fields ``killmod.tally/1`` always had, and those
    the recorded item has."""
    kept = set(_FIELDS[part]) | (set(recorded) if isinstance(recorded, dict) else set())
    return {name: value for name, value in item.items() if name in kept}


def _keyed_item(item: Any, key: str) -> bool:
    value = item.get(key) if isinstance(item, dict) else None
    return isinstance(value, int) and not isinstance(value, bool)


def _as_sets(part: str, recorded: Any, recount: list) -> list[Difference]:
    if not isinstance(recorded, list):
        return [Difference(part, None, recorded, recount)]

    def text(item: Any) -> str:
        return json.dumps(item, ensure_ascii=False, sort_keys=True)

    fields = set(_FIELDS[part]).union(*(set(i) for i in recorded if isinstance(i, dict)))
    recount = [{name: value for name, value in i.items() if name in fields} for i in recount]
    before = [text(item) for item in recorded]
    after = [text(item) for item in recount]
    found = []
    for item in recorded:
        if before.count(text(item)) > after.count(text(item)):
            found.append(Difference(part, None, item, None))
            after.append(text(item))  # each surplus copy reported once
    for item in recount:
        if after.count(text(item)) > before.count(text(item)):
            found.append(Difference(part, None, None, item))
            before.append(text(item))
    return found


# --- the lottery ---------------------------------------------------------------------------


def _check_lottery(members: _Members, member: str, votes: list[VoteCheck]) -> LotteryCheck:
    """The lots drawn are the ones committed to before the draw, for the tie recorded."""
    from killmod.usecases.lottery import commitment, parse_mapping

    document = members.json(member)
    read = Fields(member)
    _check_schema(read.get(document, "schema", str, ""), members.name)
    seats = tuple(read.ints(document, "seats", ""))
    promised = read.get(document, "commitment", str, "")
    round_no = read.get(document, "round", int, "")
    settles = read.get(document, "settles", str, "", null=True)
    found: list[Difference] = []
    tied = _tied(members, settles, votes)
    if tied is None:
        found.append(Difference("lottery", "tie", settles, None))
    elif not set(seats) <= set(tied):
        found.append(Difference("lottery", "seats", list(seats), tied))
    drawn = read.get(document, "reveal", dict, "", null=True)
    if drawn is not None:
        lot = read.get(drawn, "lot", int, "reveal")
        seat = read.get(drawn, "seat", int, "reveal")
        salt = read.get(drawn, "salt", str, "reveal")
        text = read.get(drawn, "mapping", str, "reveal")
        try:
            mapping = parse_mapping(text)
        except BadInput as error:
            raise read.fail("reveal.mapping", error.message) from None
        again = commitment(round_no, mapping, salt)
        if again != promised:
            found.append(Difference("lottery", "commitment", promised, again))
        if sorted(mapping.values()) != sorted(seats):
            found.append(Difference("lottery", "lots", list(seats), sorted(mapping.values())))
        if mapping.get(lot) != seat:
            found.append(Difference("lottery", "drawn", seat, mapping.get(lot)))
    return LotteryCheck(seats, promised, drawn, tuple(found))


def _tied(members: _Members, settles: str | None, votes: list[VoteCheck]) -> list[int] | None:
    """The seats tied in the vote the lottery settles, as its document records them."""
    if settles is None or settles not in {vote.member for vote in votes}:
        return None
    document = members.json(settles)
    result = document.get("result") if isinstance(document, dict) else None
    outcome = result.get("outcome") if isinstance(result, dict) else None
    if not isinstance(outcome, dict) or outcome.get("kind") != "tie":
        return None
    seats = outcome.get("seats")
    return list(seats) if isinstance(seats, list) else None
