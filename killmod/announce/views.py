"""What each template receives: a view built for its audience, never the game itself.

A public template (the tally, the 尸体 post, the lottery posts, the status, the rules, the
game-over post…) gets a ``PublicView`` built here from public facts only: players as seat,
name and alive or out, the identities the rule set announces (a camp under 1.2, the card
the rule text turns over), the rule text's own posts — never a living player's role, the
lots before the draw, or a hidden night effect (who was silenced, marked, healed, covered
by the 花蝴蝶, guarded, possessed, poisoned, checked).  A private template (a player's
notice, the lots, the night explained to the judge) gets a ``PrivateView`` of what its
reader needs.  Views hold plain frozen data: nothing in them reads a file or the game.
The two kinds are ``killmod.announce.audience``'s; the tally's views (its announcement,
audit, notes and secrets) are ``killmod.announce.tallyviews``', which a tally loads alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from killmod.announce.audience import PrivateView, PublicView
from killmod.announce.tallyviews import names, public_tally, public_verdict
from killmod.core.model import (
    Ballot,
    Count,
    GameOver,
    Player,
    Rejection,
    Roster,
    Source,
)
from killmod.core.redact import redact, redact_url
from killmod.core.times import format_local, local_text

if TYPE_CHECKING:
    from killmod.rules.base import Check, NightNotice
    from killmod.rules.policy import TallyPolicy
    from killmod.usecases.audit import Audit
    from killmod.usecases.day import Suicide
    from killmod.usecases.history import Chronicle
    from killmod.usecases.inbox import InboxNight
    from killmod.usecases.lottery import Lottery, Reveal
    from killmod.usecases.lurkers import LurkerReport
    from killmod.usecases.night import RecordedNight
    from killmod.usecases.open import Opening
    from killmod.usecases.out import JudgeDecision
    from killmod.usecases.provisional import Provisional
    from killmod.usecases.replacing import Replacement
    from killmod.usecases.status import Status
    from killmod.usecases.sub import Substitution
    from killmod.usecases.undo import Undone
    from killmod.usecases.verify import Verification
    from killmod.usecases.watch import Update


# --- public pieces ------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicPlayer:
    """A seat as everyone may see it: who holds it, in or out (never the role)."""

    seat: int
    name: str
    alive: bool


@dataclass(frozen=True)
class PublicRoster:
    """The game's seats as everyone may see them (no role), its warnings and substitutes."""

    rules: str
    players: tuple[PublicPlayer, ...]
    warnings: dict[int, int] = field(default_factory=dict)
    substitutes: tuple[str, ...] = ()

    @property
    def living(self) -> tuple[PublicPlayer, ...]:
        return tuple(player for player in self.players if player.alive)


@dataclass(frozen=True)
class PublicDeath:
    """A seat out at night as the dawn post names it: why (where the set says) and the camp
    or card shown (None: not shown)."""

    seat: int
    name: str
    causes: tuple[str, ...]
    camp: str | None


@dataclass(frozen=True)
class PublicNight:
    """A night as the game thread may see it: who is out and what the set shows of them.

    ``announced_at`` and ``zhashi_until`` are set for a set with a 诈尸 window (1.2),
    whose dawn post names the deaths and their camps itself.
    """

    night: int
    round: int
    out: tuple[int, ...]
    shown: tuple[tuple[int, str], ...]
    posts: tuple[str, ...]
    deaths: tuple[PublicDeath, ...] = ()
    announced_at: datetime | None = None
    zhashi_until: datetime | None = None


@dataclass(frozen=True)
class PublicLots:
    """The lottery post before the draw: who is tied and the commitment, never the lots."""

    round: int
    seats: tuple[int, ...]
    commitment: str


@dataclass(frozen=True)
class RevealedPlayer:
    """A seat in the game-over post (揭秘), when every role is revealed by the rules."""

    seat: int
    name: str
    role: str | None
    alive: bool
    former: tuple[str, ...]


def public_players(roster: Roster) -> tuple[PublicPlayer, ...]:
    """Every seat of ``roster`` without its role."""
    return tuple(PublicPlayer(p.seat, p.name, p.alive) for p in roster.players)


def public_roster(roster: Roster) -> PublicRoster:
    """``roster`` without roles."""
    return PublicRoster(
        roster.rules,
        public_players(roster),
        dict(roster.warnings),
        tuple(roster.substitutes),
    )


# --- public views -------------------------------------------------------------------------


def dawn_view(done: RecordedNight, roster: Roster) -> PublicView:
    """The dawn post (尸体): who is out, what the set shows of them (the rule text's own
    lines, or the camps and the 诈尸 window of 1.2)."""
    play = done.play
    shown, causes = dict(play.shown), dict(play.causes)
    deaths = tuple(
        PublicDeath(seat, roster.seat(seat).name, causes.get(seat, ()), shown.get(seat))
        for seat in play.out
    )
    night = PublicNight(
        done.night,
        done.round,
        tuple(play.out),
        tuple(play.shown),
        tuple(play.posts),
        deaths,
        done.announced_at,
        done.zhashi_until,
    )
    return PublicView({"night": night, "names": names(roster)})


def lottery_view(made: Lottery, roster: Roster, prefix: str) -> PublicView:
    """The lottery post in the vote thread: the tied players and the commitment."""
    lots = PublicLots(made.round, tuple(sorted(made.mapping.values())), made.commitment)
    return PublicView({"lottery": lots, "names": names(roster), "prefix": prefix})


def reveal_view(drawn: Reveal, roster: Roster) -> PublicView:
    """The lottery's result: the drawn seat, its announced camp, the lots and salt (now public)."""
    return PublicView({"reveal": drawn, "names": names(roster)})


def verify_view(text: str, computed: str, published: str, same: bool) -> PublicView:
    """``lottery verify``: the recomputed commitment next to the published one."""
    return PublicView({"text": text, "computed": computed, "published": published, "same": same})


def evidence_check_view(check: Verification) -> PublicView:
    """``killmod verify``: each vote of a bundle counted again, its differences, the lottery.
    Everything in it comes from the bundle, which holds no secret."""
    return PublicView({"check": check})


def replacement_view(done: Replacement) -> PublicView:
    """Before a recorded vote is recorded again: what the new record changes (the public
    results' differences, as ``killmod verify`` shows a recount's)."""
    return PublicView(
        {
            "round": done.round,
            "differences": done.differences,
            "names": done.names,
        }
    )


def gameover_view(winner: GameOver, roster: Roster) -> PublicView:
    """The game-over post (揭秘): the game is over, so the rules reveal every role."""
    players = tuple(
        RevealedPlayer(p.seat, p.name, p.role, p.alive, tuple(f.name for f in p.former))
        for p in roster.players
    )
    return PublicView({"winner": winner, "players": players})


def status_view(state: Status) -> PublicView:
    """Where the game stands: the round and phase, seats in and out (the dead with what the
    rule set announced), warnings, the veto spent or not, leaves, penalties, the threads,
    the next step — never a role, never the hidden night states."""
    status = replace(state, roster=public_roster(state.roster), hidden={})
    gone = {departure.seat: departure for departure in status.departures}
    return PublicView({"status": status, "gone": gone})


def status_secrets_view(state: Status) -> PrivateView:
    """The hidden night states for the judge's private file (``status --hidden``)."""
    return PrivateView(
        {"round": state.round, "rules": state.roster.rules, "hidden": dict(state.hidden)}
    )


def undo_view(done: Undone) -> PublicView:
    """What an undo voided (titles and effects written without secrets) and the game's
    state after it, as ``status`` shows it."""
    status = replace(done.status, roster=public_roster(done.status.roster), hidden={})
    recorded = local_text(done.step.recorded_at, done.status.roster.timezone)
    return PublicView({"undone": replace(done, status=status), "recorded": recorded})


def rules_view(
    rows: list[dict], summary: list[str], code: bool, lose_conditions: dict
) -> PublicView:
    """``killmod rules``: a rule set's summary and role table (no game in it)."""
    return PublicView(
        {"rows": rows, "summary": summary, "code": code, "lose_conditions": lose_conditions}
    )


@dataclass(frozen=True)
class PublicSuicide:
    """A killer's suicide as everyone may see it: who, when, the card shown, the posts."""

    round: int
    seat: int
    defending: bool
    out: tuple[int, ...]
    shown: tuple[tuple[int, str], ...]
    posts: tuple[str, ...]


def suicide_view(done: Suicide, roster: Roster) -> PublicView:
    """A killer's suicide: the rule text's posts (the card shown), never the game's state."""
    play = done.play
    suicide = PublicSuicide(done.round, done.seat, done.defending, play.out, play.shown, play.posts)
    return PublicView({"suicide": suicide, "names": names(roster)})


@dataclass(frozen=True)
class PublicDecision:
    """The judge's own decision (``killmod out``) as everyone may see it: who, the rule's
    words, the judge's note, who is out, what the rule set shows, the rule text's posts."""

    round: int
    seat: int
    words: str
    note: str | None
    out: tuple[int, ...]
    shown: tuple[tuple[int, str], ...]
    posts: tuple[str, ...]


def decision_view(done: JudgeDecision, roster: Roster) -> PublicView:
    """The judge's decision: the rule text's posts (what the set shows), never the game's state."""
    play = done.play
    decision = PublicDecision(
        done.round, done.seat, done.words, done.note, play.out, play.shown, play.posts
    )
    return PublicView({"decision": decision, "names": names(roster)})


def lurkers_view(report: LurkerReport, contact: str | None = None) -> PublicView:
    """The lurking check: posts per living player, lurkers, the warnings recorded;
    ``contact`` is the rule text's sentence on contacting a lurker first (1.2 二.2.2)."""
    return PublicView(
        {"report": replace(report, source=redact_url(report.source)), "contact": contact}
    )


def audit_view(found: Audit) -> PublicView:
    """The violations audit: posts without a right to post or without a vote, the dead's
    posts after their 诈尸 time, the recorded penalties."""
    check = found.game_thread
    if check is not None:
        unknown = tuple(PublicPlayer(p.seat, p.name, p.alive) for p in check.unknown)
        check = replace(check, source=redact_url(check.source), unknown=unknown)
    return PublicView({"audit": replace(found, game_thread=check)})


@dataclass(frozen=True)
class PublicKnives:
    """A 动刀 so far: the defender, how many knives put him out, who knifed and who passed
    (never the result: the vote is open)."""

    defender: int
    base: int
    threshold: int
    knives: tuple[int, ...]
    passes: tuple[int, ...]


@dataclass(frozen=True)
class PublicProvisional:
    """A provisional count (临时票型) as the vote thread may see it: the ballots cast so
    far, the counts without self votes, who has not voted, the invalid ballots — no
    outcome, no warning."""

    rules: str
    round: int
    deadline: datetime
    floor: int | None
    time: datetime | None
    made_at: datetime
    left: int
    source: Source
    standing: tuple[Ballot, ...]
    counts: tuple[Count, ...]
    not_voted: tuple[Ballot, ...]
    invalid: tuple[Rejection, ...]
    only_invalid: tuple[Rejection, ...]
    candidates: tuple[int, ...] = ()
    knives: PublicKnives | None = None


def public_provisional(counted: Provisional) -> PublicProvisional:
    """``counted`` without the roster, the judge's flags, the outcome and the warnings."""
    result = counted.result
    day = result.day
    knife = day.knife if day else None
    knives = (
        PublicKnives(knife.defender, knife.base, knife.threshold, knife.knives, knife.passes)
        if knife
        else None
    )
    return PublicProvisional(
        rules=result.rules,
        round=result.round,
        deadline=counted.deadline,
        floor=counted.cut.floor,
        time=counted.cut.time,
        made_at=counted.made_at,
        left=int(counted.remaining.total_seconds()),
        source=replace(result.source, url=redact_url(result.source.url)),
        standing=counted.standing,
        counts=counted.counts,
        not_voted=counted.not_voted,
        invalid=counted.invalid,
        only_invalid=counted.only_invalid,
        candidates=tuple(day.stage.candidates) if day else (),
        knives=knives,
    )


def provisional_view(counted: Provisional, rules: ModuleType) -> PublicView:
    """The provisional count's post: the count so far, names by seat, the rule set's tally
    policy (its words for an invalid ballot), whether it silences voters (V4.0)."""
    return PublicView(
        {
            "count": public_provisional(counted),
            "names": names(counted.result.roster),
            "policy": rules.TALLY_POLICY,
            "silences": rules.SILENCES_VOTERS,
        }
    )


def remind_view(counted: Provisional, rules: ModuleType, *, mention: bool) -> PublicView:
    """The reminder post: the provisional count now, and whether to @mention the players."""
    view = provisional_view(counted, rules)
    return PublicView({**view.values, "mention": mention})


def provisional_json(counted: Provisional) -> dict[str, Any]:
    """The ``killmod.provisional/1`` document: the count so far, as the post shows it."""
    from killmod.core.times import format_iso

    count = public_provisional(counted)
    return {
        "schema": "killmod.provisional/1",
        "final": False,
        "rules": count.rules,
        "round": count.round,
        "deadline": format_iso(count.deadline),
        "as_of": {
            "floor": count.floor,
            "time": format_iso(count.time) if count.time else None,
            "made_at": format_iso(count.made_at),
        },
        "seconds_left": count.left,
        "source": {"url": count.source.url, "title": count.source.title},
        "ballots": [
            {
                "seat": b.seat,
                "kind": b.kind,
                "target": b.target,
                "floor": b.floor,
                "posted_at": format_iso(b.posted_at) if b.posted_at else None,
            }
            for b in count.standing
        ],
        "counts": [
            {"seat": c.seat, "votes": c.votes, "voters": list(c.voters)} for c in count.counts
        ],
        "not_voted": [b.seat for b in count.not_voted],
        "invalid": [
            {"seat": r.seat, "floor": r.floor, "pid": r.pid, "reason": r.reason}
            for r in count.invalid
        ],
    }


def watch_view(
    update: Update, left: int, until_final: int, every: int, policy: TallyPolicy | None
) -> PublicView:
    """One update of ``killmod watch``: the provisional count now (``count``: no self
    votes), the new ballots, or a failed read; ``policy`` is the rule set's tally policy
    (whether a non-voter will count as a self vote at the deadline)."""
    result = update.result
    public = replace(
        update,
        result=public_tally(result) if result else None,
        new=tuple(public_verdict(v) for v in update.new),
        message=redact(update.message),
        provisional=None,
    )
    counted = update.provisional
    return PublicView(
        {
            "update": public,
            "count": public_provisional(counted) if counted else None,
            "names": names(result.roster) if result else {},
            "left": left,
            "until_final": until_final,
            "every": every,
            "policy": policy,
        }
    )


@dataclass(frozen=True)
class PublicOpening:
    """A vote opened, as the vote thread's first post shows it: the round, the vote's stage
    (its kind and phase, whom it may name, the defender of a 动刀), the deadline and its
    time zone, the living players."""

    round: int
    kind: str
    phase: str
    candidates: tuple[int, ...]
    defender: int | None
    deadline: datetime
    timezone: str
    utc_offset: str
    living: tuple[PublicPlayer, ...]
    knife_base: int
    knife_threshold: int


def open_view(opening: Opening, rules: ModuleType) -> PublicView:
    """The vote thread's opening post: the opening, names by seat, the rule set's voting
    rules in its own words for this phase (``VOTE_RULES``), its tally policy."""
    stage = opening.stage
    living = tuple(p for p in public_players(opening.roster) if p.alive)
    offset = opening.deadline.strftime("%z")
    base = len(living) - 1
    public = PublicOpening(
        round=opening.round,
        kind=stage.kind,
        phase=stage.phase,
        candidates=tuple(stage.candidates),
        defender=stage.defender,
        deadline=opening.deadline,
        timezone=opening.roster.timezone,
        utc_offset=f"UTC{offset[:3]}:{offset[3:]}",
        living=living,
        knife_base=base,
        knife_threshold=base // 2 + 1,
    )
    table = rules.VOTE_RULES
    return PublicView(
        {
            "opening": public,
            "names": names(opening.roster),
            "rules_name": rules.NAME,
            "vote_rules": table.get(stage.phase) or table.get("vote") or (),
            "policy": rules.TALLY_POLICY,
        }
    )


@dataclass(frozen=True)
class PublicSubstitution:
    """A substitution as everyone may see it: the seat, the two holders, from when."""

    seat: int
    old: str
    new: str
    at: datetime


def substitution_view(done: Substitution) -> PublicView:
    """The 换替补 post: the seat and its holders, never its role."""
    return PublicView({"sub": PublicSubstitution(done.seat, done.old, done.new, done.at)})


@dataclass(frozen=True)
class HistoryCell:
    """One seat in one recorded vote: ``kind`` vote, abstain, self (no ballot),
    ``defender`` (a 动刀's, whose own hand never counts) or ``absent`` (not a voter of it:
    out, or not yet in); ``earlier`` the targets it changed from (None: an abstention)."""

    kind: str
    target: int | None = None
    earlier: tuple[int | None, ...] = ()
    hit: bool = False  # a vote for the player this vote put out
    name: str = ""  # who held the seat in that vote


@dataclass(frozen=True)
class HistoryRow:
    """A seat across the game: its holders in order, its cell in every vote, the identity
    shown when it went out."""

    seat: int
    holders: tuple[str, ...]
    cells: tuple[HistoryCell, ...]
    shown: str | None


def history_rows(story: Chronicle) -> tuple[HistoryRow, ...]:
    """The history as a grid: a row per seat, a cell per recorded vote."""
    rows = []
    for seat in story.seats:
        cells = []
        for vote in story.votes:
            ballot = next((b for b in vote.ballots if b.seat == seat), None)
            if ballot is None:
                cells.append(HistoryCell("absent"))
                continue
            earlier = tuple(c.from_ for c in vote.changes if c.seat == seat)
            out = vote.outcome.seat if vote.outcome.kind == "eliminated" else None
            hit = ballot.kind == "vote" and ballot.target is not None and ballot.target == out
            kind = "defender" if seat == vote.defender else ballot.kind
            cells.append(HistoryCell(kind, ballot.target, earlier, hit, ballot.name))
        gone = story.departure(seat)
        rows.append(
            HistoryRow(
                seat,
                tuple(holder.name for holder in story.holders[seat]),
                tuple(cells),
                gone.shown if gone else None,
            )
        )
    return tuple(rows)


def history_view(story: Chronicle, rules: ModuleType) -> PublicView:
    """``killmod history``: every recorded vote's final ballots and changes, who went out,
    how and as what (what the rule set announced), each seat's holders, the end."""
    rows = history_rows(story)
    return PublicView(
        {
            "story": story,
            "rows": rows,
            "substituted": [row for row in rows if len(row.holders) > 1],
            "names": {seat: story.name(seat) for seat in story.seats},
            "policy": rules.TALLY_POLICY,
            "silences": rules.SILENCES_VOTERS,
        }
    )


def history_json(story: Chronicle) -> dict[str, Any]:
    """The ``killmod.history/1`` document: the votes, the departures, the holders, the end."""
    from killmod.core.times import format_iso

    return {
        "schema": "killmod.history/1",
        "rules": story.rules,
        "seats": [
            {
                "seat": seat,
                "holders": [
                    {"name": h.name, "until": format_iso(h.until) if h.until else None}
                    for h in story.holders[seat]
                ],
            }
            for seat in story.seats
        ],
        "votes": [
            {
                "round": vote.round,
                "stage": vote.stage,
                "deadline": format_iso(vote.deadline),
                "ballots": [
                    {"seat": b.seat, "kind": b.kind, "target": b.target, "floor": b.floor}
                    for b in vote.ballots
                ],
                "changes": [
                    {"seat": c.seat, "floor": c.floor, "from": c.from_, "to": c.to}
                    for c in vote.changes
                ],
                "counts": [
                    {"seat": c.seat, "votes": c.votes, "voters": list(c.voters)}
                    for c in vote.counts
                ],
                "out": list(vote.out),
                "defender": vote.defender,
                "outcome": {
                    "kind": vote.outcome.kind,
                    **({"seat": vote.outcome.seat} if vote.outcome.seat else {}),
                    **({"seats": list(vote.outcome.seats)} if vote.outcome.seats else {}),
                },
            }
            for vote in story.votes
        ],
        "departures": [
            {"round": d.round, "seat": d.seat, "name": d.name, "how": d.how, "shown": d.shown}
            for d in story.departures
        ],
        "game_over": story.winner.as_json() if story.winner else None,
    }


def record_view(**recorded: Any) -> PublicView:
    """What a step recorded, for the judge's screen (a leave, a penalty): no secret in it."""
    return PublicView(dict(recorded))


def roster_template_view(
    rules: str,
    title: str,
    players: int,
    lines: list[str],
    code: str | None,
    variants: tuple[str, ...],
    file_name: str,
) -> PublicView:
    """``killmod new``'s roster to fill in: the set, its count's table line, the seats."""
    return PublicView(
        {
            "rules": rules,
            "title": title,
            "players": players,
            "lines": lines,
            "code": code,
            "variants": variants,
            "seats": list(range(1, players + 1)),
            "file": file_name,
        }
    )


# --- private views ------------------------------------------------------------------------


def notice_view(
    player: Player,
    rules: str,
    partners: list[Player],
    powers: tuple[str, ...],
    judges: tuple[str, ...],
) -> PrivateView:
    """A player's notice (站内短信) at the deal: seat, role, what the role may do in the
    rule text's words, team partners, and the judges who sign it."""
    return PrivateView(
        {
            "player": player,
            "rules": rules,
            "partners": partners,
            "powers": powers,
            "judges": judges,
        }
    )


def prod_view(report: LurkerReport, seat: int, rules: ModuleType) -> PrivateView:
    """The message to one lurker (站内短信): his posts in the round, the minimum, the
    rule text's words on what his answer decides (1.2 二.2.2)."""
    count = next(c for c in report.counts if c.seat == seat and c.warnable)
    return PrivateView(
        {
            "count": count,
            "report": replace(report, source=redact_url(report.source)),
            "rules": rules.NAME,
            "contact": rules.LURKER_CONTACT,
        }
    )


def lots_view(made: Lottery, roster: Roster) -> PrivateView:
    """The lots for the 执行斑竹 (or the third person): lot → seat, and the canonical string."""
    return PrivateView({"lottery": made, "names": names(roster)})


@dataclass(frozen=True)
class PrivateNight:
    """A night's private part: the police's answers, the notices, the judge's resolution."""

    night: int
    checks: tuple[Check, ...]
    notices: tuple[NightNotice, ...]
    events: tuple[str, ...]


def night_secrets_view(done: RecordedNight, roster: Roster) -> PrivateView:
    """The night's private part, for the judge to hand out (not the game's whole state)."""
    play = done.play
    night = PrivateNight(done.night, play.checks, play.notices, play.events)
    return PrivateView({"night": night, "names": names(roster)})


# --- the night read from the inbox (private) --------------------------------------------------


@dataclass(frozen=True)
class InboxChoice:
    """One of the night's choices as the inbox settles it, in words for the judge."""

    name: str
    option: str
    settled: bool
    value: str
    by: str
    why: str


@dataclass(frozen=True)
class InboxLine:
    """One message read: when, from whom, what it says, and what was made of it."""

    time: str
    who: str
    text: str
    choice: str
    verdict: str
    flag: str


def inbox_night_view(reading: InboxNight, roster: Roster, explicit: dict[str, Any]) -> PrivateView:
    """The night's actions as read from the judge's 站内短信, with every message and why it
    counts or not, and the choices the judge gave himself (``explicit``): for the judge
    to check before the night is recorded.  Private: it says who acts and on whom."""
    from killmod.usecases.inbox import OPTION_NAMES, REASONS

    seats = names(roster)
    tz = ZoneInfo(roster.timezone)

    def who(seat: int | None, name: str, uid: int | None = None) -> str:
        return f"{seat}号 {name}" if seat is not None else f"{name}（uid {uid}，不在名单上）"

    def target_text(option: str, value: Any) -> str:
        if value in (None, ()):
            return "不行动"
        if option == "guard":
            return "、".join(f"{g}号守护{t}号" for g, t in value)
        return f"{value}号 {seats.get(value, '')}".rstrip()

    choices = []
    for decided in reading.decided:
        given = decided.option in explicit
        choices.append(
            InboxChoice(
                OPTION_NAMES.get(decided.option, decided.option),
                decided.option,
                decided.settled or given,
                target_text(decided.option, explicit[decided.option] if given else decided.value),
                "法官指定"
                if given
                else "、".join(f"{seat}号" for seat in decided.by) or "无人发来",
                decided.why,
            )
        )
    flags = {
        "time_ambiguous": "与截止同一分钟，可能在截止之后",
        "since_ambiguous": "与本夜开始同一分钟",
    }
    lines = [
        InboxLine(
            format_local(read.letter.at, tz)[:16],  # shown to the minute
            who(read.letter.seat, read.letter.name, read.letter.uid),
            read.letter.text.replace("\n", " "),
            OPTION_NAMES.get(read.option, "") if read.option else "",
            REASONS.get(read.verdict, read.verdict),
            flags.get(read.flag or "", ""),
        )
        for read in reading.reads
    ]
    return PrivateView(
        {
            "night": reading.night,
            "since": format_local(reading.since, tz),
            "until": format_local(reading.until, tz),
            "choices": choices,
            "lines": lines,
            "earlier": reading.earlier,
        }
    )
