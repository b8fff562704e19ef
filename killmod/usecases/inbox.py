"""A night's actions read from the judge's 站内短信: the letters made into the night's choices.

The players who may act tonight, and how a team's choices make one, are the rule set's
(``RuleSet.night_skills``).  Every message a player sent the judge between the night's start
(the last vote's deadline, or the deal) and its deadline (``--until``) is read with the
ballot machinery (``killmod.ballots.votes``: 杀 7号, 验 5号, 狙 3, 注射 4号, 沉默 7, 蝶衣 2…; 弃权
or 不杀 is no action).  For each player and each of his choices the last message that
says one is taken (by ``pmid``: the order they were sent in); the others are listed with
why they are not: written by no player of the game, by one with no choice tonight, after
the deadline, replaced by a later one, not an action, unreadable.  A team that does not
agree as its rule set says is listed too: the judge then names the choice himself.

The board shows these times to the minute: a message in the deadline's minute (or the
night's start's) may be either side of it, and is flagged as a ballot is (and counted).
Nothing here is recorded: the reading is for the judge to check (a private file), the
night is recorded once he confirms (``killmod night``).  The letters are fetched by
``killmod.board.inbox``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.ballots.votes import _NIGHT_VERBS, BallotReader, night_grammar
from killmod.core.errors import BadInput, about
from killmod.core.model import Roster
from killmod.core.times import format_local
from killmod.game.state import rule_set_of
from killmod.game.store import Game
from killmod.rules.base import NightSkill

MINUTE = timedelta(seconds=59)
# The night's choices as the judge reads them.
OPTION_NAMES = {
    "kill": "杀人",
    "check": "验人",
    "veto": "否决权",
    "butterfly": "蝶衣",
    "snipe": "狙杀",
    "inject": "注射",
    "silence": "沉默",
    "pact": "生死状",
    "possess": "附体",
    "guard": "守护",
}
REASONS = {
    "taken": "采用",
    "not_player": "不是本局玩家",
    "not_entitled": "今晚没有可用的技能",
    "late": "在截止时间之后",
    "superseded": "之后又发了一条，以最后一条为准",
    "not_action": "不是行动（没有读到 杀/验… 加座位号）",
    "unreadable": "读不出目标",
    "disagreement": "同一方意见不一",
    "time_ambiguous": "只精确到分钟，与截止同一分钟：按规定不计",
}
_NO_ACTION = {
    option: re.compile(rf"(?:不|别|別|放弃|放棄|不再){verb}")
    for option, (verb, _) in _NIGHT_VERBS.items()
}


@dataclass(frozen=True)
class Letter:
    """A message a member sent the judge: its pmid, from whom (seat when a player), when
    (the minute the board shows) and what it says."""

    pmid: int
    uid: int
    name: str
    seat: int | None
    at: datetime
    text: str


@dataclass(frozen=True)
class Read:
    """One letter as read for one of the night's choices (``option`` None: for none)."""

    letter: Letter
    option: str | None
    verdict: str
    target: int | None = None
    fragment: str = ""
    flag: str | None = None


@dataclass(frozen=True)
class Decided:
    """One of the night's choices from the letters: ``value`` a seat (or the guards'
    pairs), None for no action; ``settled`` False when the letters do not make one
    (``why`` says why: the judge names it)."""

    option: str
    value: Any
    by: tuple[int, ...]
    settled: bool = True
    why: str = ""
    conflict: bool = False


@dataclass(frozen=True)
class InboxNight:
    """A night as the inbox tells it, for the judge to check before it is recorded."""

    night: int
    since: datetime
    until: datetime
    reads: tuple[Read, ...]
    decided: tuple[Decided, ...]
    earlier: int = 0
    skills: tuple[NightSkill, ...] = field(default=())

    def choices(self) -> dict[str, Any]:
        """The settled choices with a value: option → seat (or pairs)."""
        return {d.option: d.value for d in self.decided if d.settled and d.value not in (None, ())}

    def unsettled(self) -> list[Decided]:
        """The choices the letters do not settle."""
        return [d for d in self.decided if not d.settled]


def night_start(game: Game, night_no: int) -> datetime:
    """When night ``night_no`` begins: the deadline of the last vote recorded before it,
    else when the roles were dealt (a player can act only once he knows his role)."""
    roster = game.roster()
    rules = rule_set_of(roster)
    round_no = rules.round_of_night(night_no)
    earlier = [row for row in game.tallies() if row["round"] < round_no]
    if earlier:
        return datetime.fromisoformat(earlier[-1]["deadline"])
    deals = game.events("deal")
    if not deals:
        raise BadInput("还没有发身份（killmod deal），没有夜晚的行动可读。")
    return datetime.fromisoformat(deals[-1].recorded_at).replace(microsecond=0)


def inbox_window(
    game: Game, night_no: int, since_text: str | None, until_text: str | None
) -> tuple[datetime, datetime]:
    """The night's letters' window: from ``since_text`` (else the night's start) to
    ``until_text`` (the judge gives it: the players' deadline for their actions)."""
    if not until_text:
        raise BadInput(
            '--from-pm 要给出本夜行动的截止时间：--until，如 --until "2019-05-13 08:00"。',
            option="--until",
        )
    tz = ZoneInfo(game.roster().timezone)
    with about("--since"):
        since = parse_deadline(since_text, tz, None) if since_text else night_start(game, night_no)
    with about("--until"):
        until = parse_deadline(until_text, tz, since)
    return since, until


def refuse_early(until: datetime, now: datetime, early: bool) -> None:
    """Before the players' deadline more actions may come: recorded then only when the
    judge says so (``early``); ``now`` in the game's time zone."""
    if until > now and not early:
        raise BadInput(
            f"截止时间 {format_local(until, now.tzinfo)} 还没到：之后还可能有玩家发来行动，"
            "截止后再记录（确实要提前记录加 --early）。什么也没有记录。",
            option="--early",
        )


def settle_letters(
    night_no: int,
    since: datetime,
    until: datetime,
    letters: list[Letter],
    earlier: int,
    skills: tuple[NightSkill, ...],
    roster: Roster,
    reject_ambiguous: bool = False,
) -> InboxNight:
    """The night ``night_no`` the ``letters`` sent from ``since`` to ``until`` tell, for
    tonight's ``skills``; ``earlier`` is how many older letters the pages showed."""
    reads = _read_letters(letters, skills, roster, until, reject_ambiguous, since)
    decided = tuple(_decide(skill, reads) for skill in skills if skill.actors)
    reads = _mark_disagreements(reads, decided)
    return InboxNight(night_no, since, until, tuple(reads), decided, earlier, skills)


def _read_letters(
    letters: list[Letter],
    skills: tuple[NightSkill, ...],
    roster: Roster,
    until: datetime,
    reject_ambiguous: bool,
    since: datetime,
) -> list[Read]:
    """Each letter read for the choices its writer has tonight; the last one of each
    writer's choice taken."""
    readers = {
        skill.option: BallotReader(roster, night_grammar(skill.option), bare=False)
        for skill in skills
    }
    reads: list[Read] = []
    for letter in letters:
        mine = [s.option for s in skills if letter.seat is not None and letter.seat in s.actors]
        flag = _flag(letter, until, since)
        if letter.seat is None:
            reads.append(Read(letter, None, "not_player", flag=flag))
            continue
        said = [_say(readers[o], o, letter.text) for o in mine]
        said = [s for s in said if s is not None]
        if not said:
            anything = any(_say(readers[o], o, letter.text) for o in readers if o not in mine)
            verdict = "not_entitled" if anything else "not_action"
            reads.append(Read(letter, None, verdict, flag=flag))
            continue
        late = letter.at > until
        for option, kind, target, fragment in said:
            if late:
                verdict = "late"
            elif flag == "time_ambiguous" and reject_ambiguous:
                verdict = "time_ambiguous"
            else:
                verdict = "taken" if kind == "action" else "unreadable"
            reads.append(Read(letter, option, verdict, target, fragment, flag))
    return _keep_last(reads)


def _say(reader: BallotReader, option: str, text: str) -> tuple[str, str, int | None, str] | None:
    """What ``text`` says for ``option``: an action on a seat (None: no action), something
    unreadable, or nothing (None)."""
    reading = reader.read(text)
    if reading.kind == "vote" and reading.target is not None:
        return option, "action", reading.target, reading.fragment
    if reading.kind == "abstain":
        return option, "action", None, reading.fragment
    if reading.kind in ("ambiguous", "unknown_target", "proxy") or reading.outsider:
        return option, "unreadable", None, reading.fragment
    refusal = _NO_ACTION[option].search(text)
    if refusal:
        return option, "action", None, refusal.group()
    return None


def _flag(letter: Letter, until: datetime, since: datetime) -> str | None:
    """A minute that holds the deadline (or the night's start) may be either side of it."""
    if letter.at <= until < letter.at + MINUTE:
        return "time_ambiguous"
    if letter.at < since <= letter.at + MINUTE:
        return "since_ambiguous"
    return None


def _keep_last(reads: list[Read]) -> list[Read]:
    """Of each writer's choice, the last letter taken; the earlier ones superseded."""
    last: dict[tuple[int, str], int] = {}
    for index, read in enumerate(reads):
        if read.option is not None and read.verdict in ("taken", "unreadable"):
            last[(read.letter.seat, read.option)] = index
    kept = []
    for index, read in enumerate(reads):
        counted = read.option is not None and read.verdict in ("taken", "unreadable")
        if counted and last[(read.letter.seat, read.option)] != index:
            read = Read(
                read.letter, read.option, "superseded", read.target, read.fragment, read.flag
            )
        kept.append(read)
    return kept


def _decide(skill: NightSkill, reads: list[Read]) -> Decided:
    """The choice ``skill`` makes from its actors' last letters, by its split."""
    last = {
        read.letter.seat: read
        for read in reads
        if read.option == skill.option and read.verdict in ("taken", "unreadable")
    }
    unreadable = sorted(seat for seat, read in last.items() if read.verdict == "unreadable")
    if unreadable:
        seats = "、".join(f"{seat}号" for seat in unreadable)
        return Decided(skill.option, None, tuple(unreadable), False, f"{seats}的站内短信读不出目标")
    opinions = {seat: read.target for seat, read in last.items()}
    by = tuple(sorted(opinions))
    if skill.option == "guard":
        pairs = tuple((seat, target) for seat, target in sorted(opinions.items()) if target)
        return Decided("guard", pairs, by)
    named = sorted({target for target in opinions.values() if target is not None})
    if skill.split == "majority" and len(named) > 1:
        from killmod.rules.shared import team_choice

        try:
            return Decided(skill.option, team_choice(opinions, skill.actors), by)
        except BadInput as error:
            why = f"{error.message}（规则：{skill.rule}）"
            return Decided(skill.option, None, by, False, why, conflict=True)
    if len(named) > 1:
        listed = "、".join(
            f"{seat}号→{target}号" for seat, target in sorted(opinions.items()) if target
        )
        why = f"意见不一（{listed}）" + (f"；规则：{skill.rule}" if skill.rule else "")
        return Decided(skill.option, None, by, False, why, conflict=True)
    return Decided(skill.option, named[0] if named else None, by)


def _mark_disagreements(reads: list[Read], decided: tuple[Decided, ...]) -> list[Read]:
    """The letters of a team that did not agree: listed as the disagreement they are."""
    split = {d.option for d in decided if d.conflict}
    return [
        Read(r.letter, r.option, "disagreement", r.target, r.fragment, r.flag)
        if r.option in split and r.verdict == "taken"
        else r
        for r in reads
    ]
