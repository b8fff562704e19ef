"""A night under the game's rule set (``killmod night``): resolved by the set, recorded whole.

One step: the night — the number the judge gave it and what the rule set keeps of it
(the judge's choices, which the replay reads back; 1.2: its kills and vetoes) — its
deaths and the win check after it are all written, or nothing is; every check that
allows it (the next night, roles dealt, the game not over, the penalties that fall on
the night) runs inside it.  Recording a night again (``replace``) voids the old one and
what it caused (kept in the file); only the latest night can be recorded again, as
every later step was resolved on it.  Where the set has a 诈尸 window (``ZHASHI``) the
night keeps when the deaths were announced and until when the dead may speak.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput, about
from killmod.core.model import GameOver
from killmod.core.times import format_iso
from killmod.game.effects import record_if_over
from killmod.game.guards import (
    DAY_SKIPPED,
    already_recorded,
    expect_night,
    pending_day,
    refuse_if_over,
    refuse_unless_latest,
    require_dealt,
)
from killmod.game.penalties import Penalty, night_powers
from killmod.game.state import previous_game, state_for
from killmod.game.store import Delivery, Event, Game
from killmod.rules import registered, rule_set_of, title
from killmod.rules.base import NightChoice, NightPlay, NightRights, RuleSet

# ``--at`` without a date is the nearest such time: at most this far from now.
NEAREST = timedelta(hours=12)
# The choices whose target may be one of their own actors, which the judge confirms (a
# check of oneself, the 检查官's veto on himself, the killers' kill of one of theirs).
# Where the rule text forbids it the set refuses it itself (V4.0 【蝶衣】“其他角色”, 2.0
# 守护 “不得守护自己”, 鬼匪 附体 of his own camp); the 生死状 names a killer by its nature.
SELF_AIMED = {
    "kill": "杀人",
    "veto": "否决权",
    "check": "验人",
    "snipe": "狙杀",
    "inject": "注射",
    "silence": "沉默",
}
_GUARD = re.compile(r"\s*(\d+)\s*=\s*(\d+)\s*")


class SelfAimed(BadInput):
    """A night with a choice aimed at one of its own actors, not confirmed by the judge:
    nothing is recorded (``aimed``: the choices, as ``self_aimed`` says them)."""

    def __init__(self, aimed: tuple[str, ...]) -> None:
        self.aimed = aimed
        self.shown = f"请法官核对：{'；'.join(aimed)}。规则没有禁止，但要确认不是写错了座位号。"
        super().__init__(f"{self.shown}确认无误请加 --yes 再运行。什么也没有记录。")


@dataclass(frozen=True)
class RecordedNight:
    """A recorded night: its number, the round it belongs to, what it did, the game's end.

    ``announced_at`` and ``zhashi_until``: when the deaths were announced and until when
    the dead may 诈尸, for a set with a 诈尸 window (else None); ``penalties``: the
    penalties that fell on this night.
    """

    night: int
    round: int
    play: NightPlay
    winner: GameOver | None
    announced_at: datetime | None = None
    zhashi_until: datetime | None = None
    penalties: tuple[Penalty, ...] = ()

    def public_document(self, rules: RuleSet) -> dict[str, Any]:
        """The ``killmod.night/1`` document the game thread may see, with the 诈尸 window."""
        return self.timed(rules.dawn_document(self.night, self.play))

    def timed(self, document: dict[str, Any]) -> dict[str, Any]:
        """``document`` with when the deaths were announced, where the set keeps it."""
        if self.announced_at is None:
            return document
        until = self.zhashi_until
        return {
            **document,
            "announced_at": format_iso(self.announced_at),
            "zhashi_until": format_iso(until) if until else None,
            "winner": self.winner.winner if self.winner else None,
        }


def parse_guards(texts: Iterable[str]) -> tuple[tuple[int, int], ...]:
    """``--guard 8=3``: guardian 8 guards seat 3 this round."""
    pairs = []
    for text in texts:
        match = _GUARD.fullmatch(text)
        if match is None:
            raise BadInput(
                f"守护名单写法不对：「{text}」。应写作 守护神座位号=被守护座位号，如 8=3"
            )
        pairs.append((int(match[1]), int(match[2])))
    return tuple(pairs)


def record_night(
    game: Game,
    night_no: int,
    choice: NightChoice,
    *,
    at_text: str | None = None,
    replace: bool = False,
    skip_day: bool = False,
    self_aimed_confirmed: bool = False,
    now: datetime | None = None,
    deliver: Callable[[RecordedNight], Delivery] | None = None,
) -> RecordedNight:
    """Resolve night ``night_no`` over the game's state, record it and its deaths, check the win.

    ``at_text``: when the deaths are announced (``--at``; default now), for a set with a
    诈尸 window.  ``skip_day``: the day before it, whose vote is not recorded, is skipped —
    the judge's decision, recorded with the night (``killmod.game.guards.expect_night``).
    A choice aimed at one of its own actors (``self_aimed``) is refused unless
    ``self_aimed_confirmed``.
    """
    with game.transaction(kind="night") as step:
        roster = game.roster()
        rules = rule_set_of(roster)
        check_night_choice(rules, choice, night_no, at_text)
        name = rules.night_name(night_no)
        round_no = rules.round_of_night(night_no)
        step.describe(name, round_no=round_no)
        announced = (
            announcement_time(at_text, ZoneInfo(roster.timezone), now) if rules.ZHASHI else None
        )
        existing = standing_night(game, round_no)
        if existing and not replace:
            raise already_recorded(name, existing.recorded_at, roster.timezone)
        if existing:
            refuse_unless_latest(game, existing.step, name, "一夜")
        else:
            refuse_if_over(game)
        skipped = pending_day(game) if skip_day else None
        expect_night(game, rules, night_no, skip_day=skip_day)
        require_dealt(game)
        if skipped is not None:
            game.record(skipped, DAY_SKIPPED, None, {"night": night_no, "name": name})
        voided = _void(game, existing) if existing else []
        refuse_if_over(game)
        aimed = self_aimed(game, night_no, choice)
        if aimed and not self_aimed_confirmed:
            raise SelfAimed(aimed)
        current = state_for(game)
        rights, applied = night_rights(game, round_no)
        play = rules.night(current.state, choice, night_no, rights)
        if choice.kill is not None and not game.events("night"):
            rules.check_first_kill(current.roster.seat(choice.kill).name, previous_game(game))
        until = announced + rules.ZHASHI if announced and rules.ZHASHI and play.out else None
        data = play.record if play.record is not None else _choices(night_no, choice)
        if announced is not None:
            data = {
                **data,
                "announced_at": format_iso(announced),
                "zhashi_until": format_iso(until) if until else None,
            }
        night_id = game.record(round_no, "night", None, data)
        if existing:
            game.record(
                existing.round,
                "night_replaced",
                None,
                {"old": existing.id, "new": night_id, "voided_events": voided},
            )
        causes = dict(play.causes)
        for seat in play.out:
            why = causes.get(seat)
            cause = {"how": why[0], "causes": list(why)} if why else {"how": "night"}
            game.record(round_no, "death", seat, {**cause, "night_id": night_id})
        winner = record_if_over(game, round_no, {"night_id": night_id})
        night = RecordedNight(night_no, round_no, play, winner, announced, until, applied)
        if deliver is not None:
            step.deliver(deliver(night))
    return night


def self_aimed(game: Game, night_no: int, choice: NightChoice) -> tuple[str, ...]:
    """The night's choices aimed at one of their own actors (``SELF_AIMED``), each a
    sentence for the judge to confirm: its option and seat as he gave them, and no role."""
    current = state_for(game)
    rights, _ = night_rights(game, current.rules.round_of_night(night_no))
    found = []
    for skill in current.rules.night_skills(current.state, rights):
        if skill.option not in SELF_AIMED:
            continue
        for target in _targets(choice, skill.option):
            if target in skill.actors:
                whom = "本人" if len(skill.actors) == 1 else "本人或同伴"
                what = SELF_AIMED[skill.option]
                found.append(f"--{skill.option} {target}：{what}的目标是行使它的玩家{whom}")
    return tuple(found)


def _targets(choice: NightChoice, option: str) -> tuple[int, ...]:
    """The seats ``choice`` gives for ``option``."""
    if option == "kill":
        return choice.kills
    given = getattr(choice, option)
    return tuple(given) if isinstance(given, tuple) else () if given is None else (given,)


def announcement_time(at_text: str | None, tz: ZoneInfo, now: datetime | None = None) -> datetime:
    """When the judge announces the deaths: ``--at`` or now, in the roster's timezone.

    A time without a date (``22:30``) is the nearest such time to now.
    """
    now = (now or datetime.now(tz)).astimezone(tz).replace(microsecond=0)
    if at_text is None:
        return now
    with about("--at"):
        return parse_deadline(at_text, tz, now - NEAREST)


def standing_night(game: Game, round_no: int) -> Event | None:
    """The round's recorded night, if any (voided ones do not count)."""
    nights = [e for e in game.events("night") if e.round == round_no]
    return nights[-1] if nights else None


def _void(game: Game, existing: Event) -> list[int]:
    """Void the old night and everything it caused; the ids voided."""
    old = [existing.id] + [e.id for e in game.events() if e.data.get("night_id") == existing.id]
    game.void_events(old)
    return old


def _choices(night_no: int, choice: NightChoice) -> dict[str, Any]:
    """What the game file keeps of a night the replay resolves again: its number, the choices."""
    return {"night": night_no, "choice": choice.as_json()}


def night_rights(game: Game, round_no: int) -> tuple[NightRights, tuple[Penalty, ...]]:
    """What the record allows tonight: the penalties falling on the night (``killmod
    penalty``), and the one-time veto if a recorded night used it; with the penalties."""
    powers = night_powers(game, round_no)
    spent = [e for e in game.events("night") if e.data.get("veto")]
    rights = NightRights(
        kills=powers.kills,
        veto=powers.veto,
        extra_vetoes=powers.extra_vetoes,
        cancelled={camp: _penalty_text(p) for camp, p in powers.cancelled.items()},
        veto_spent=(spent[0].round, spent[0].data["veto"]) if spent else None,
    )
    return rights, (*powers.cancelled.values(), *powers.extra.values())


def _penalty_text(penalty: Penalty) -> str:
    """Where a penalty comes from, for the refusal."""
    who = f"第 {penalty.round} 轮 {penalty.seat}号 {penalty.name} 犯规"
    return f"{who}，对立阵营选择「{penalty.choice}」"


def check_night_choice(
    rules: RuleSet, choice: NightChoice, night_no: int, at_text: str | None = None
) -> None:
    """The options must be the set's, and the night one with something to record."""
    if not rules.night_options:
        raise BadInput(f"{rules.NAME} 规则的夜晚不杀人，没有要记录的行动：不用 killmod night。")
    unknown = choice.used() - rules.night_options
    if "veto" in unknown or (at_text is not None and rules.ZHASHI is None):
        having = "、".join(title(r.NAME) for r in registered() if "veto" in r.night_options)
        raise BadInput(f"--veto 和 --at 只用于 {having} 规则。")
    if "extra_kills" in unknown:
        raise BadInput(f"{rules.NAME} 规则的杀手每晚只杀一人：--kill 只能给一次。")
    if unknown:
        names = "、".join(f"--{name}" for name in sorted(unknown))
        raise BadInput(f"{rules.NAME} 规则的夜晚没有 {names}。")
    if night_no < rules.first_night:
        raise BadInput(
            f"{rules.NAME} 规则要记录的夜晚从第 {rules.first_night} 夜开始"
            f"（第 {night_no} 夜没有要记录的行动）。"
        )
