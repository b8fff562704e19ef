"""The game's plain data: posts, players, rosters, ballots and tally results.

Frozen dataclasses with no behaviour beyond small derived properties; every
layer (scrapers, votes, rules, store, announce) speaks in these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any, Literal

Precision = Literal["second", "minute", "hour", "day"]
# How long after ``posted_at`` a post of each precision may really have been written: a
# time the board showed to the minute is somewhere in that minute; "N 小时前" without its
# exact time, or counted back from a clock shown to the minute, is known to about an hour.
PRECISION_SPAN = {
    "second": timedelta(0),
    "minute": timedelta(seconds=59),
    "hour": timedelta(seconds=3659),
    "day": timedelta(seconds=86459),
}


@dataclass(frozen=True)
class Post:
    """One post of a forum thread, as a scraper read it.

    ``body`` is the post's own text as a reader of the thread sees it: quotes, signatures
    and the board's edit notice are removed (quotes are kept apart in ``quotes``), and so
    is text the board renders invisible — white on white, a size of 0, ``display:none``
    (kept apart in ``hidden``, one text per run: ``scrapers.hidden``).  ``posted_at`` is
    timezone-aware; ``precision`` says how exactly it is known: the post was written
    between ``posted_at`` and ``posted_at + PRECISION_SPAN[precision]``.
    """

    pid: int
    floor: int | None
    author: str
    uid: int | None
    posted_at: datetime
    precision: Precision
    body: str
    quotes: tuple[str, ...] = ()
    edited_at: datetime | None = None
    banned: bool = False
    page: int = 1
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """One fetched page of a thread, parsed: its posts and what it says about itself —
    its page number, how many pages its page bar shows, the thread's title and the
    thread's id on the board (None where the page does not show them), and whether the
    view shows only the first part of a longer thread (the printable view's 100 posts).

    ``zone`` is the zone the page declares its times are shown in (Discuz's footer:
    ``GMT+8``), None where it declares none; ``local_times`` whether it shows any time on
    the board's wall clock at all (an API answer's unix seconds are not: it needs no zone);
    ``clock`` the board's clock when it rendered the page, where the page shows it (the
    footer's, to the minute).

    What it declares of the whole, where it does (None where it does not), for the check
    that no post is missing (``killmod.fetch.whole``): ``counted``, its floors are counted
    (1, 2, 3… with no gap: a deleted post's floor goes to the next post, or shows as an
    empty place, listed in ``vacant``), so floors run on from page to page; ``replies``, the
    thread's replies (its posts but the first); ``per_page``, its page size; ``hidden``, how
    many posts the board gave a place but does not show (deleted, awaiting moderation) —
    when it changes between two pages, the floors were renumbered between them.
    ``edits_shown``: the view shows the board's edit notices (the mobile API's version 4
    does not).
    """

    posts: tuple[Post, ...]
    page_no: int
    page_count: int
    title: str | None = None
    thread_id: str | None = None
    partial: bool = False  # the view stops at its limit: the thread may go on past it
    zone: tzinfo | None = None
    local_times: bool = True
    clock: datetime | None = None
    counted: bool = False
    replies: int | None = None
    per_page: int | None = None
    hidden: int | None = None
    vacant: tuple[int, ...] = ()
    edits_shown: bool = True


@dataclass(frozen=True)
class FormerHolder:
    """Someone who held a seat before a substitute took it over at ``until``."""

    name: str
    until: datetime
    uid: int | None = None


@dataclass(frozen=True)
class Player:
    """A seat in the game and the forum user who currently holds it."""

    seat: int
    name: str
    uid: int | None = None
    aliases: tuple[str, ...] = ()
    alive: bool = True
    role: str | None = None
    former: tuple[FormerHolder, ...] = ()


@dataclass(frozen=True)
class Roster:
    """Who plays: seats, judges and the substitutes' queue.

    ``variants`` are the 2.0 花样玩法 in play; ``code`` is the V4.0 version code (None:
    the reference code of the table row for the player count).  ``judge_uids`` gives the
    forum uid of the judges whose roster entry names one, ``substitute_uids`` that of the
    substitutes (waiting or not) whose entry names one.
    """

    players: tuple[Player, ...]
    rules: str = "1.2"
    timezone: str = "Asia/Shanghai"
    judges: tuple[str, ...] = ()
    substitutes: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    warnings: dict[int, int] = field(default_factory=dict)
    code: str | None = None
    judge_uids: dict[str, int] = field(default_factory=dict)
    substitute_uids: dict[str, int] = field(default_factory=dict)

    def seat(self, seat: int) -> Player | None:
        """The player in ``seat``, or None when there is no such seat."""
        for player in self.players:
            if player.seat == seat:
                return player
        return None

    @property
    def living(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.alive)


BallotKind = Literal["vote", "abstain", "self"]


@dataclass(frozen=True)
class Ballot:
    """An entitled voter's standing ballot at the deadline (``self`` for a non-voter)."""

    seat: int
    name: str
    kind: BallotKind
    target: int | None
    floor: int | None = None
    posted_at: datetime | None = None


@dataclass(frozen=True)
class Verdict:
    """What the tally made of one post: the audit line anyone can check.

    ``verdict`` is ``counted``, ``superseded`` (a ballot a later one replaced),
    ``judge``, ``ignored`` (the judge's ruling) or one of the reason codes.  ``read_as``
    says how a vote's target was read (``seat``, ``name``, ``alias``, ``former``,
    ``part``, ``writer``; a part of several names: ``part`` on an ambiguous post), and
    ``detail`` the target as read — for an ambiguous post the targets (“5,7”), for an
    unknown one the name not known (``killmod.ballots.votes.Reading``).
    """

    pid: int
    floor: int | None
    author: str
    seat: int | None
    posted_at: datetime
    verdict: str
    kind: str | None = None
    target: int | None = None
    fragment: str = ""
    ruling: str | None = None
    notes: tuple[str, ...] = ()
    read_as: str = ""
    detail: str = ""


@dataclass(frozen=True)
class Change:
    """A vote change: a later accepted ballot that differs from the voter's previous one."""

    seat: int
    floor: int | None
    from_: int | None
    to: int | None
    posted_at: datetime


@dataclass(frozen=True)
class Count:
    """Votes for one target, and who cast them (by seat)."""

    seat: int
    name: str
    votes: int
    voters: tuple[int, ...]


@dataclass(frozen=True)
class Outcome:
    """``eliminated`` (+seat), ``tie`` (+seats) or ``none``."""

    kind: Literal["eliminated", "tie", "none"]
    seat: int | None = None
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Rejection:
    """A post that is not a ballot, with the first reason that fits."""

    pid: int
    floor: int | None
    author: str
    seat: int | None
    reason: str
    posted_at: datetime | None = None


@dataclass(frozen=True)
class Flag:
    """Something the judge should look at; it does not change the count by itself."""

    floor: int | None
    seat: int | None
    reason: str
    detail: str = ""
    suggestion: int | None = None


@dataclass(frozen=True)
class GameWarning:
    """A warning given this round; ``action`` is warn, substitute or out (淹死 — or, for
    the player the same vote puts out, out by the vote: no substitute, no drowning)."""

    seat: int
    name: str
    total: int
    action: Literal["warn", "substitute", "out"]
    substitute: str | None = None


@dataclass(frozen=True)
class ViewRead:
    """One view of a thread that was read (``api``, ``printable``, ``pages``, ``archiver``,
    ``saved``), how many of its pages, and why (in Chinese, for the audit)."""

    view: str
    pages: int
    why: str


@dataclass(frozen=True)
class Source:
    """Where the posts came from, and which views of the thread were read for them."""

    url: str
    title: str | None
    pages: int
    posts: int
    views: tuple[ViewRead, ...] = ()


@dataclass(frozen=True)
class GameOver:
    """The end of a game: the winning camp (None for a draw) and why, in Chinese."""

    winner: str | None
    reason: str

    @property
    def draw(self) -> bool:
        """平局."""
        return self.winner is None

    @property
    def headline(self) -> str:
        """平局, or the winner: 杀手方胜利, 〖平民阵营〗 as 平民阵营胜利."""
        if self.winner is None:
            return "平局"
        return f"{self.winner}{'' if self.winner.endswith('阵营') else '方'}胜利"

    def as_json(self) -> dict:
        """``{"winner", "draw", "reason"}``."""
        return {"winner": self.winner, "draw": self.draw, "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOver:
        """Read back :meth:`as_json` (a 1.2 record before it kept only the winner)."""
        return cls(data["winner"], data.get("reason", ""))


@dataclass(frozen=True)
class Recorded:
    """What recording a tally in the game file wrote; ``winner`` is the game's end if it came.

    ``evidence`` is the SHA-256 of the vote's evidence (the count document of its bundle,
    ``killmod.usecases.evidence``), ``evidence_at`` where the judge publishes the bundle
    (None: players ask him for it).
    """

    tally_id: int
    snapshot: str
    winner: GameOver | None = None
    replaced: int | None = None
    early: bool = False
    evidence: str | None = None
    evidence_at: str | None = None


@dataclass(frozen=True)
class Recount:
    """A vote already recorded, counted again on the state it was counted on
    (``killmod.usecases.recount``): when it was recorded, with which deadline, and each
    difference of this count from the record in its outcome, ballots and warnings
    (``killmod.usecases.verify.Difference``; none: they agree).  ``replacing``: this count
    is recorded in the record's place (``--record --replace``); ``final`` False: a
    provisional count (before the deadline, or ``--as-of``), not compared; ``blocked``: why
    recording it anew would be refused now (the refusal's message), None when it would.
    """

    round: int
    recorded_at: datetime
    deadline: datetime
    differences: tuple[Any, ...] = ()
    replacing: bool = False
    final: bool = True
    blocked: str | None = None


@dataclass(frozen=True)
class Stage:
    """One vote of a round's day under the rule set's procedure.

    ``kind``: ``vote``; ``revote`` (V4.0: among the tied); ``tied_revote`` and
    ``final_revote`` (X's ties); ``point`` and ``repoint`` (1.0/2.0 指认); ``knife``
    (1.0/2.0 动刀 on ``defender``). ``candidates`` are the only seats a vote may name
    (empty: any living player). ``opened`` is the previous vote's deadline (or the
    time of the suicide that restarted the day): posts until then are not this vote's.
    """

    kind: str = "vote"
    candidates: tuple[int, ...] = ()
    defender: int | None = None
    opened: datetime | None = None

    @property
    def phase(self) -> Literal["vote", "point", "knife"]:
        """``knife``, ``point`` (指认) or ``vote`` (every other kind)."""
        if self.kind == "knife":
            return "knife"
        return "point" if self.kind in ("point", "repoint") else "vote"

    def as_json(self) -> dict[str, Any]:
        """The stage as stored in the game file and shown in the tally's JSON."""
        return {
            "kind": self.kind,
            "candidates": list(self.candidates),
            "defender": self.defender,
            "opened": self.opened.isoformat() if self.opened else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Stage:
        """Read back :meth:`as_json`."""
        opened = data.get("opened")
        return cls(
            kind=data["kind"],
            candidates=tuple(data.get("candidates", ())),
            defender=data.get("defender"),
            opened=datetime.fromisoformat(opened) if opened else None,
        )


@dataclass(frozen=True)
class KnifeCount:
    """One knife phase counted: who knifed, who passed, the threshold and the result.

    ``base`` is how many players the half is taken of — the living players
    other than the defender; ``threshold`` the knives needed (more than half of
    ``base``); ``silent`` the living players with no ballot (counted as 过 once
    the phase closes); ``ignored`` the defender's own ballot, which never
    counts. ``out`` is whether the knives already pass the threshold;
    ``settled`` whether the result can no longer change (out, or too few
    players left to reach it); ``needed`` the knives still missing.
    """

    defender: int
    base: int
    threshold: int
    knives: tuple[int, ...]
    passes: tuple[int, ...]
    silent: tuple[int, ...]
    ignored: tuple[int, ...]

    @property
    def out(self) -> bool:
        """The defender is out: the knives are more than half of ``base``."""
        return len(self.knives) >= self.threshold

    @property
    def needed(self) -> int:
        """How many more knives the defender is from out (0 once out)."""
        return max(0, self.threshold - len(self.knives))

    @property
    def settled(self) -> bool:
        """The result cannot change: out, or the silent players cannot make up the rest."""
        return self.out or len(self.knives) + len(self.silent) < self.threshold

    @property
    def verdict(self) -> str:
        """The result once the phase closed, in the rule text's words (超过半数 or not).

        A tally counts at the deadline: the silent players count as 过 by then.
        """
        if self.out:
            return f"动刀已超过半数：{self.defender}号出局。"
        return f"动刀未超过半数：{self.defender}号存活。"

    @property
    def text(self) -> str:
        """The count as one Chinese line, for the judge's post."""
        parts = [f"动刀 {len(self.knives)} 人", f"过 {len(self.passes)} 人"]
        if self.silent:
            parts.append(f"未表态 {len(self.silent)} 人（按过计）")
        return (
            f"{'，'.join(parts)}；除辩解者外存活 {self.base} 人，超过半数须至少 "
            f"{self.threshold} 刀。{self.verdict}"
        )

    def as_json(self) -> dict:
        """The count as JSON for a forum tally."""
        return {
            "defender": self.defender,
            "base": self.base,
            "threshold": self.threshold,
            "knives": list(self.knives),
            "passes": list(self.passes),
            "silent": list(self.silent),
            "ignored": list(self.ignored),
            "out": self.out,
            "settled": self.settled,
            "needed": self.needed,
        }


@dataclass(frozen=True)
class DayStep:
    """What a counted vote leads to under the rule set.

    ``out`` are the seats it puts out, ``voted`` those the vote named (a guardian
    may die in the place of one); ``shown`` the identities announced now, by the
    set's reveal rules; ``next`` the round's next vote (None: the day is over);
    ``posts`` the rule text's lines for the judge's next post; ``knife`` the 动刀
    count of a knife phase; ``over`` an end the vote itself decides (X's third tie).
    """

    stage: Stage
    out: tuple[int, ...] = ()
    voted: tuple[int, ...] = ()
    shown: tuple[tuple[int, str], ...] = ()
    next: Stage | None = None
    posts: tuple[str, ...] = ()
    knife: KnifeCount | None = None
    over: GameOver | None = None


@dataclass(frozen=True)
class TallyResult:
    """Everything a tally decided, in the shape of the ``killmod.tally/1`` document (README).

    ``excused`` are the non-voters not warned because they were on leave (1.2 请假).
    ``pinned`` are the players' uids this read took from the board (the roster had none):
    ``killmod.ballots.uids.Pin``; ``roster`` carries them.  ``recount``: the vote was
    already recorded, and how this count compares with the record.
    """

    rules: str
    round: int
    deadline: datetime
    source: Source
    ballots: tuple[Ballot, ...]
    counts: tuple[Count, ...]
    outcome: Outcome
    changes: tuple[Change, ...]
    rejected: tuple[Rejection, ...]
    flags: tuple[Flag, ...]
    warnings: tuple[GameWarning, ...]
    verdicts: tuple[Verdict, ...]
    roster: Roster
    recorded: Recorded | None = None
    day: DayStep | None = None
    excused: tuple[int, ...] = ()
    early: bool = False  # counted before its deadline
    pinned: tuple[Any, ...] = ()
    recount: Recount | None = None
