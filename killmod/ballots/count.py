"""The day-vote tally (README “Usage”, docs/rules/1.2.md): a pure function of posts, roster,
deadline and rules.

No I/O and no clock: the same posts, roster, deadline, rulings and options
always give the same result, so every rule is tested case by case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from itertools import pairwise
from types import ModuleType
from typing import Any, Literal, NamedTuple
from zoneinfo import ZoneInfo

from killmod.ballots.rulings import Ruling, resolve
from killmod.ballots.votes import BallotReader, KnifeReader, Reading
from killmod.core.errors import BadInput
from killmod.core.model import (
    PRECISION_SPAN,
    Ballot,
    Change,
    Count,
    Flag,
    FormerHolder,
    GameWarning,
    Outcome,
    Player,
    Post,
    Rejection,
    Roster,
    Source,
    TallyResult,
    Verdict,
)
from killmod.core.names import fold, shown

# When several reasons fit one post, the first of these is reported (README, “The JSON
# document”). ``repeat_ballot`` (X: a ballot after the voter's first) and ``follow_vote``
# (X: a ballot that says 跟票 or 补票) come after the contract's codes: they are known only
# once the post would otherwise count.  ``hidden_text`` (a ballot only in text the board
# renders invisible: ``Post.hidden``) is the one a post gets instead of ``no_vote`` when its
# visible text holds no ballot.
REASONS = (
    "not_player",
    "dead",
    "replaced",
    "late",
    "proxy",
    "no_vote",
    "ambiguous",
    "unknown_target",
    "invalid_target",
    "edited",
    "repeat_ballot",
    "follow_vote",
    "hidden_text",
)
MINUTE = timedelta(seconds=59)


@dataclass(frozen=True)
class TallyOptions:
    """The judge's choices: edited ballots, minute-precision times, rulings (by pid, or by
    floor: ``killmod.ballots.rulings.resolve`` finds each one's post)."""

    edits: Literal["strict", "allow"] = "strict"
    ambiguous_time: Literal["count", "reject"] = "count"
    rulings: Iterable[Ruling] | Mapping[Any, Ruling] = field(default_factory=tuple)


@dataclass(frozen=True)
class Scope:
    """What the game file says about this vote: who has no ballot, whom it may name, since when.

    The posts of a ``silenced`` seat carry no ballot (V4.0 癫狂): each is read as
    anyone's, and one that would count is verdict ``frenzy`` with a ``frenzy`` flag.
    ``candidates`` are the only seats a vote may name (empty: any living player); a
    vote for another is ``invalid_target`` noted ``not_candidate``. Posts at or before
    ``opened`` belong to the round's previous vote: verdict ``earlier_vote``. Neither
    verdict is a rejection. ``leave`` are the days of leave (请假) of each seat's
    current holder: a non-voter on leave on the deadline's day is not warned (1.2 二.1,
    docs/rules/1.2.md).
    """

    silenced: frozenset[int] = frozenset()
    candidates: frozenset[int] = frozenset()
    opened: datetime | None = None
    leave: Mapping[int, frozenset[date]] = field(default_factory=dict)


class _Accepted(NamedTuple):
    """A post whose ballot would count (a tuple: a tally makes one for most of its posts)."""

    post: Post
    seat: int
    kind: Literal["vote", "abstain"]
    target: int | None
    fragment: str
    ruling: str | None
    notes: tuple[str, ...]
    read_as: str = ""
    detail: str = ""
    follow: bool = False


def count_votes(
    posts: Iterable[Post],
    roster: Roster,
    deadline: datetime,
    *,
    rules: ModuleType,
    source: Source,
    round_no: int = 1,
    options: TallyOptions | None = None,
    reader: BallotReader | KnifeReader | None = None,
    scope: Scope | None = None,
) -> TallyResult:
    """Tally one day vote under ``rules`` (a module of ``killmod.rules``) within ``scope``."""
    options = options or TallyOptions()
    reader = reader or BallotReader(roster)
    scope = scope or Scope()
    authors = AuthorIndex(roster)
    ordered = sorted(posts, key=lambda post: (post.posted_at, post.pid))
    rulings = resolve(options.rulings, ((post.pid, post.floor) for post in ordered))
    unknown = sorted(set(rulings) - {post.pid for post in ordered}) if rulings else ()
    if unknown:
        raise BadInput(f"裁定的帖子 pid={unknown[0]} 不在投票帖里（帖子可能已被删除）")
    verdicts: dict[int, Verdict] = {}
    rejected: list[Rejection] = []
    flags: list[Flag] = []
    accepted: dict[int, list[_Accepted]] = {}

    for post in ordered:
        ruling = rulings.get(post.pid)
        judgement = _judge(post, roster, deadline, authors, reader, options, scope, flags, ruling)
        if isinstance(judgement, _Accepted):
            accepted.setdefault(judgement.seat, []).append(judgement)
            continue
        verdict, seat, reading, ruling, notes = judgement
        verdicts[post.pid] = Verdict(
            pid=post.pid,
            floor=post.floor,
            author=post.author,
            seat=seat,
            posted_at=post.posted_at,
            verdict=verdict,
            kind=reading.kind if reading else None,
            target=reading.target if reading else None,
            fragment=reading.fragment if reading else "",
            ruling=ruling,
            notes=notes,
            read_as=reading.read_as if reading else "",
            detail=reading.detail if reading else "",
        )
        if verdict in REASONS or verdict == "time_ambiguous":
            rejected.append(
                Rejection(post.pid, post.floor, post.author, seat, verdict, post.posted_at)
            )

    policy = rules.TALLY_POLICY
    ballots, changes = [], []
    for player in sorted(roster.living, key=lambda p: p.seat):
        history = accepted.get(player.seat, [])
        if policy.ballots == "first":
            history = _first_stands(history, verdicts, rejected)
        if policy.follow_invalid:
            history = _no_follow(history, verdicts, rejected)
        for earlier, later in pairwise(history):
            if (earlier.kind, earlier.target) != (later.kind, later.target):
                changes.append(
                    Change(
                        player.seat,
                        later.post.floor,
                        earlier.target,
                        later.target,
                        later.post.posted_at,
                    )
                )
        for index, item in enumerate(history):
            verdicts[item.post.pid] = _accepted_verdict(
                item, "counted" if index == len(history) - 1 else "superseded"
            )
        ballots.append(_standing_ballot(player, history, rules))

    counts = _counts(ballots, roster)
    outcome = _outcome(counts)
    excused = _excused(ballots, scope, deadline, roster) if policy.warn_non_voters else ()
    return TallyResult(
        rules=rules.NAME,
        round=round_no,
        deadline=deadline,
        source=source,
        ballots=tuple(ballots),
        counts=counts,
        outcome=outcome,
        changes=tuple(changes),
        rejected=tuple(sorted(rejected, key=lambda r: (r.posted_at, r.pid))),
        flags=tuple(flags),
        warnings=_warnings(ballots, roster, rules, excused, outcome),
        verdicts=tuple(verdicts[post.pid] for post in ordered),
        roster=roster,
        excused=excused,
    )


def _first_stands(
    history: list[_Accepted], verdicts: dict[int, Verdict], rejected: list[Rejection]
) -> list[_Accepted]:
    """X 3.18 “每个人只有一次投票机会”: the first ballot stands; 注意事项 11) “跟票或补票将被记为
    无效票”: every later ballot post is rejected ``repeat_ballot``."""
    for item in history[1:]:
        post = item.post
        verdicts[post.pid] = _accepted_verdict(item, "repeat_ballot")
        rejected.append(
            Rejection(post.pid, post.floor, post.author, item.seat, "repeat_ballot", post.posted_at)
        )
    return history[:1]


def _no_follow(
    history: list[_Accepted], verdicts: dict[int, Verdict], rejected: list[Rejection]
) -> list[_Accepted]:
    """X 注意事项 11 “不得跟票或补票。跟票或补票将被记为无效票”: a ballot that says 跟票 or
    补票 is rejected ``follow_vote``.  It is the voter's one ballot (3.18), invalid: a later
    one is a ``repeat_ballot`` already (``_first_stands``), and he has no vote."""
    kept = []
    for item in history:
        if not item.follow:
            kept.append(item)
            continue
        post = item.post
        verdicts[post.pid] = _accepted_verdict(item, "follow_vote")
        rejected.append(
            Rejection(post.pid, post.floor, post.author, item.seat, "follow_vote", post.posted_at)
        )
    return kept


def _excused(
    ballots: list[Ballot], scope: Scope, deadline: datetime, roster: Roster
) -> tuple[int, ...]:
    """The non-voters on leave (请假) on the deadline's calendar day: counted, not warned."""
    day = deadline.astimezone(ZoneInfo(roster.timezone)).date()
    return tuple(b.seat for b in ballots if b.kind == "self" and day in scope.leave.get(b.seat, ()))


def _judge(post, roster, deadline, authors, reader, options, scope, flags, ruling):
    """Either an accepted ballot or (verdict, seat, reading, ruling note, notes); an author
    who only looks like someone on the roster is flagged, and noted ``lookalike``."""
    standing, player = authors.identify(post)
    resembles = authors.lookalike(post)
    if resembles is not None:
        flags.append(Flag(post.floor, player.seat if player else None, "lookalike", resembles))
    judgement = _judge_post(
        post, standing, player, roster, deadline, reader, options, scope, flags, ruling
    )
    if resembles is None:
        return judgement
    if isinstance(judgement, _Accepted):
        return judgement._replace(notes=(*judgement.notes, "lookalike"))
    *rest, notes = judgement
    return (*rest, (*notes, "lookalike"))


def _judge_post(post, standing, player, roster, deadline, reader, options, scope, flags, ruling):
    seat = player.seat if player else None
    ruling_note = _ruling_note(ruling) if ruling else None
    if standing == "judge":
        return "judge", None, None, None, ()
    if standing in ("not_player", "replaced"):
        return standing, seat, None, ruling_note, ()
    if not player.alive:
        return "dead", seat, None, ruling_note, ()
    if ruling and ruling.ignore:
        return "ignored", seat, None, ruling_note, ()
    if scope.opened is not None and post.posted_at <= scope.opened:
        return "earlier_vote", seat, None, ruling_note, ()
    timing = _timing(post.posted_at, post.precision, deadline)
    if timing == "late":
        return "late", seat, None, ruling_note, ()
    if timing == "ambiguous":
        flags.append(Flag(post.floor, seat, "time_ambiguous", post.posted_at.strftime("%H:%M")))
        if options.ambiguous_time == "reject":
            return "time_ambiguous", seat, None, ruling_note, ()

    reading, notes = _reading(post, seat, ruling, reader)
    hidden = _hidden_ballot(post, reader) if ruling is None else None
    if hidden is not None:
        notes = (*notes, "hidden_text")
        flags.append(Flag(post.floor, seat, "hidden_text", hidden.fragment))
        if reading.kind == "none":  # the only ballot is one nobody can see: not counted
            return "hidden_text", seat, hidden, ruling_note, notes
    if reading.kind == "proxy":
        return "proxy", seat, reading, ruling_note, notes
    if reading.kind == "none":
        return "no_vote", seat, reading, ruling_note, notes
    if reading.kind == "ambiguous":
        return "ambiguous", seat, reading, ruling_note, notes
    if reading.kind == "unknown_target":
        if reading.suggestion is not None:
            flags.append(Flag(post.floor, seat, "near_miss", reading.detail, reading.suggestion))
        return "unknown_target", seat, reading, ruling_note, notes
    if reading.kind == "vote" and not _valid_target(reading.target, roster):
        return "invalid_target", seat, reading, ruling_note, notes
    if reading.kind == "vote" and scope.candidates and reading.target not in scope.candidates:
        return "invalid_target", seat, reading, ruling_note, (*notes, "not_candidate")
    if post.edited_at is not None and ruling is None:
        edit_timing = _timing(post.edited_at, "minute", deadline)
        if options.edits == "strict" or edit_timing == "late":
            return "edited", seat, reading, ruling_note, notes
        if edit_timing == "ambiguous":
            flags.append(Flag(post.floor, seat, "time_ambiguous", "edited"))
    if seat in scope.silenced:
        # Read as anyone's post, so that only a ballot that would count differs: a
        # silenced player's other posts look the same as everyone's in the public count.
        flags.append(Flag(post.floor, seat, "frenzy"))
        return "frenzy", seat, reading, ruling_note, notes
    return _Accepted(
        post,
        seat,
        reading.kind,
        reading.target,
        reading.fragment,
        ruling_note,
        notes,
        reading.read_as,
        reading.detail,
        reading.follow,
    )


def _reading(
    post: Post, seat: int | None, ruling: Ruling | None, reader: BallotReader
) -> tuple[Reading, tuple]:
    if ruling is not None:
        if ruling.abstain:
            return Reading(kind="abstain", fragment="法官裁定"), ()
        return Reading(kind="vote", target=ruling.target, fragment="法官裁定"), ()
    if post.banned:
        return Reading(kind="none"), ("banned",)
    reading = reader.read(post.body)
    if reading.writer and seat is not None:  # 投我 / 投自己: the writer's own seat
        reading = replace(
            reading, kind="vote", target=seat, read_as="writer", writer=False, suggestion=None
        )
    if reading.kind == "none" and any(reader.read(q).kind == "vote" for q in post.quotes):
        return reading, ("quoted",)
    return reading, _reading_notes(reading)


def _reading_notes(reading: Reading) -> tuple[str, ...]:
    """What the audit notes about how a post was read: a name written in another script
    than the roster's (``script``), an unvote that takes nothing back (``unvote``)."""
    if reading.script:
        return ("script",)
    return ("unvote",) if reading.unvote else ()


def _hidden_ballot(post: Post, reader: BallotReader) -> Reading | None:
    """What the post's invisible text (``Post.hidden``) reads as, when it reads as a ballot
    of any kind: a vote nobody could see is no ballot, but the judge is shown it."""
    for text in post.hidden:
        reading = reader.read(text)
        if reading.kind != "none":
            return reading
    return None


def _timing(moment: datetime, precision: str, deadline: datetime) -> str:
    """``ok``, ``late`` or ``ambiguous`` (a time known only to the minute, or coarser, whose
    span holds the deadline: a minute-precision time in the deadline's minute)."""
    if moment > deadline:
        return "late"
    if moment + PRECISION_SPAN[precision] > deadline:
        return "ambiguous"
    return "ok"


def _valid_target(target: int | None, roster: Roster) -> bool:
    player = roster.seat(target) if target is not None else None
    return player is not None and player.alive


def _ruling_note(ruling: Ruling) -> str:
    if ruling.ignore:
        action = "不计"
    elif ruling.abstain:
        action = "按弃权计"
    else:
        action = f"按投 {ruling.target} 号计"
    return f"{action}：{ruling.note}" if ruling.note else action


def _accepted_verdict(item: _Accepted, verdict: str) -> Verdict:
    post = item.post
    # Verdict's fields in order (one for nearly every post: by keyword, 30,000 take 12 ms
    # more): pid, floor, author, seat, posted_at, verdict, kind, target, fragment, ruling,
    # notes, read_as, detail.
    return Verdict(
        post.pid,
        post.floor,
        post.author,
        item.seat,
        post.posted_at,
        verdict,
        item.kind,
        item.target,
        item.fragment,
        item.ruling,
        item.notes,
        item.read_as,
        item.detail,
    )


def _standing_ballot(player: Player, history: list[_Accepted], rules: ModuleType) -> Ballot:
    if history:
        last = history[-1]
        return Ballot(
            player.seat, player.name, last.kind, last.target, last.post.floor, last.post.posted_at
        )
    if rules.TALLY_POLICY.non_voter == "self":
        return Ballot(player.seat, player.name, "self", player.seat)
    return Ballot(player.seat, player.name, "self", None)


def _counts(ballots: list[Ballot], roster: Roster) -> tuple[Count, ...]:
    voters: dict[int, list[int]] = {}
    for ballot in ballots:
        if ballot.kind in ("vote", "self") and ballot.target is not None:
            voters.setdefault(ballot.target, []).append(ballot.seat)
    counts = (
        Count(seat, roster.seat(seat).name, len(seats), tuple(seats))
        for seat, seats in voters.items()
    )
    return tuple(sorted(counts, key=lambda count: (-count.votes, count.seat)))


def _outcome(counts: tuple[Count, ...]) -> Outcome:
    if not counts:
        return Outcome("none")
    top = [count.seat for count in counts if count.votes == counts[0].votes]
    if len(top) == 1:
        return Outcome("eliminated", seat=top[0])
    return Outcome("tie", seats=tuple(sorted(top)))


def _warnings(
    ballots: list[Ballot],
    roster: Roster,
    rules: ModuleType,
    excused: tuple[int, ...],
    outcome: Outcome,
) -> tuple[GameWarning, ...]:
    if not rules.TALLY_POLICY.warn_non_voters:
        return ()
    warned = [(b.seat, b.name) for b in ballots if b.kind == "self" and b.seat not in excused]
    voted_out = outcome.seat if outcome.kind == "eliminated" else None
    return next_warnings(warned, roster, rules, voted_out=voted_out)


def next_warnings(
    players: Iterable[tuple[int, str]],
    roster: Roster,
    rules: ModuleType,
    *,
    voted_out: int | None = None,
) -> tuple[GameWarning, ...]:
    """One more warning for each (seat, name), in the order given (the substitutes' order).

    The total adds the warnings ``roster`` carries; ``rules.warning_action`` says
    what it brings: warn, the next substitute, or out (淹死) with none left.  The seat
    ``voted_out`` by the same vote is out by the vote (1.2 “得票最高者由法官宣布死亡”): a
    warning that would bring a substitute or drown him is ``out`` and takes no substitute
    from the bench (docs/rules/1.2.md).
    """
    substitutes = list(roster.substitutes)
    warnings = []
    for seat, name in players:
        total = roster.warnings.get(seat, 0) + 1
        action = rules.warning_action(total, len(substitutes))
        if seat == voted_out and action != "warn":
            action = "out"
        substitute = substitutes.pop(0) if action == "substitute" else None
        warnings.append(GameWarning(seat, name, total, action, substitute))
    return tuple(warnings)


class AuthorIndex:
    """Who wrote a post: a judge, a seat's current or former holder, or an outsider.

    A forum account is its uid: when the roster gives one for a person (or the board
    showed it: ``killmod.ballots.uids.pin_uids``), a post is theirs only if it shows that
    uid, or, in a view that shows no uids (printable, archiver, a deleted account), their
    name exactly as the board shows it.  A lookalike name — one that is the person's only
    after folding away case, width, zero-width or bidi characters
    (``killmod.core.names.fold``) — is another account: never a player's or a former
    holder's post, and ``lookalike`` says so for the audit.  Only a judge without a uid is
    still taken by a lookalike name (flagged): a judge's post is never a ballot either way.
    """

    def __init__(self, roster: Roster) -> None:
        people: list[_Person] = [
            _Person(name, roster.judge_uids.get(name), "judge", None, None)
            for name in roster.judges
        ]
        for player in roster.players:
            people.append(_Person(player.name, player.uid, "player", player, None))
            for holder in player.former:
                people.append(_Person(holder.name, holder.uid, "former", player, holder))
        self._by_uid = {person.uid: person for person in people if person.uid is not None}
        self._by_shown: dict[str, _Person] = {}
        self._by_folded: dict[str, _Person] = {}
        for person in people:
            self._by_shown.setdefault(shown(person.name), person)
            self._by_folded.setdefault(fold(person.name), person)
        self._found: dict[tuple[str, int | None], tuple[_Person | None, str | None]] = {}

    def identify(self, post: Post) -> tuple[str, Player | None]:
        """``judge``, ``player``, ``replaced`` (a former holder after the substitution) or
        ``not_player``, and the seat's player."""
        person, _ = self._match(post.author, post.uid)
        if person is None:
            return "not_player", None
        if person.kind == "judge":
            return "judge", None
        if person.holder is not None and post.posted_at > person.holder.until:
            return "replaced", person.player
        return "player", person.player

    def lookalike(self, post: Post) -> str | None:
        """The roster name a post's author only looks like: the same after folding but not
        as shown, or shown alike with another uid.  None when the author is plainly who
        they are, or like nobody."""
        return self._match(post.author, post.uid)[1]

    def _match(self, author: str, uid: int | None) -> tuple[_Person | None, str | None]:
        key = (author, uid)
        if key not in self._found:
            self._found[key] = self._find(author, uid)
        return self._found[key]

    def _find(self, author: str, uid: int | None) -> tuple[_Person | None, str | None]:
        if uid is not None and uid in self._by_uid:
            return self._by_uid[uid], None
        exact = self._by_shown.get(shown(author))
        if exact is not None:
            if exact.uid is not None and uid is not None:
                return None, exact.name  # the same name, another account
            return exact, None
        folded = self._by_folded.get(fold(author))
        if folded is None:
            return None, None
        if folded.kind == "judge" and folded.uid is None:
            return folded, folded.name
        return None, folded.name  # another account that only looks like someone's


@dataclass(frozen=True)
class _Person:
    """Someone the roster names: a judge, a seat's player, or a seat's former holder."""

    name: str
    uid: int | None
    kind: Literal["judge", "player", "former"]
    player: Player | None
    holder: FormerHolder | None
