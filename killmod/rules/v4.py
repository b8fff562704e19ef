"""The V4.0 rules (官方规则 S03 暨杀人游戏 V4.0): role table, version codes, night, win check.

Pure functions over a ``V4State``: no I/O, no clock. Each function cites the
sentence of the rule text it implements; decisions where the text leaves room
are written in docs/rules/v4.md, each with the test that holds it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, GameOver, KnifeCount, Outcome, Player, Stage
from killmod.rules.base import (
    Check,
    NightChoice,
    NightPlay,
    NightRights,
    NightSkill,
    OutPlay,
    RuleSet,
)
from killmod.rules.policy import JudgeOut, TallyPolicy
from killmod.rules.shared import deal_cards, dealt_roles, out_at_start

NAME = "v4"

KILLER = "杀手"
CIVILIAN = "平民"
POLICE = "警察"
DOCTOR = "医生"
SNIPER = "狙击手"
BUTTERFLY = "花蝴蝶"
OLD_MAN = "森林老人"
ROLES = (KILLER, CIVILIAN, POLICE, DOCTOR, SNIPER, BUTTERFLY, OLD_MAN)
# 二、身份与技能: each role's skill in the rule text's words, and the camps (一、身份分配).
_CAMPS = "杀手属于〖杀手阵营〗，其他身份均属于〖平民阵营〗。"
POWERS: dict[str, tuple[str, ...]] = {
    KILLER: (
        "【杀人】游戏日夜晚，所有存活状态的杀手可以共同选择一名角色，使之进入濒死状态。"
        "若杀手不共群，则由所有存活状态的杀手选出一名杀手执行技能。",
        _CAMPS,
    ),
    CIVILIAN: ("无技能。", _CAMPS),
    POLICE: (
        "【指认】游戏日夜晚，所有存活状态的警察可以共同查验某一存活角色的身份，反馈该角色所属阵营。"
        "每晚限用一次。若警察不共群，则由所有存活状态的警察选出一名警察执行技能。",
        _CAMPS,
    ),
    DOCTOR: (
        "【注射】游戏日夜晚，医生可以选择一名存活角色，若该角色处于濒死状态，则转变为存活状态；"
        "若该角色处于存活状态且无标记，则获得一个标记；若该角色处于存活状态且有标记，"
        "则转变为濒死状态。",
        _CAMPS,
    ),
    SNIPER: (
        "【狙杀】游戏日夜晚，狙击手可以选择一名存活角色，若该角色处于存活状态，"
        "则转变为濒死状态；若该角色处于濒死状态，则立即出局。",
        _CAMPS,
    ),
    BUTTERFLY: (
        "【蝶衣】游戏日夜晚，花蝴蝶可以选择一名存活状态的其他角色，"
        "该角色当晚发动技能无效且免疫一切技能。若花蝴蝶成为【指认】外其他技能目标，"
        "则该角色承担相同效果。",
        _CAMPS,
    ),
    OLD_MAN: (
        "【沉默】游戏日夜晚，森林老人可以选择一名存活角色，使之在次日白天进入癫狂状态，"
        "入夜自动解除。",
        _CAMPS,
    ),
}
# “每种情况下另有警察、医生、狙击手、花蝴蝶、森林老人各一人” (the table's 警察 column is the total).
SINGLE_ROLES = (DOCTOR, SNIPER, BUTTERFLY, OLD_MAN)
# 杀手阵营胜 2: “警察、医生、狙击手、花蝴蝶、森林老人全部出局”.
SPECIAL_ROLES = (POLICE, DOCTOR, SNIPER, BUTTERFLY, OLD_MAN)

KILLER_CAMP = "杀手阵营"
CIVILIAN_CAMP = "平民阵营"

# 游戏流程 13–14 (“讨论与投票开始”, “计票确定出局者”) sets no self vote and no warning.
TALLY_POLICY = TallyPolicy(non_voter="none", warn_non_voters=False)
# No rule of V4.0 lets the judge put a player out or end the game (``killmod out``).
JUDGE_OUTS: dict[str, JudgeOut] = {}
# 【沉默】: a 癫狂 player's ballot is not counted (``counts_vote``); the rule text never
# says the judge announces it, so the count says “未计票” and never whose or why.
SILENCES_VOTERS = True

# The rule text's own words on the day vote, for the vote thread's opening post (killmod
# open): 游戏流程 13、14 (docs/rules/v4.md, “The opening post”: the 【沉默】 sentence is left
# out, as every public output leaves out 癫狂).
VOTE_RULES = {
    "vote": (
        "进入第N天白天，讨论与投票开始；",
        "计票确定出局者；",
    ),
}

# 胜负判定〖平民阵营〗: the top 2 bits of the version code's prefix pick one.
LOSE_CONDITIONS = {
    "00": "平民全部出局",
    "01": "连续2名平民被投票出局",
    "10": "连续2名或累计3名平民被投票出局",
}

ALIVE = "存活"
DYING = "濒死"
OUT = "出局"


# ---------------------------------------------------------------- role table


@dataclass(frozen=True)
class RoleRow:
    """One row of 身份分配: 平民, 警察 and 杀手 counts and the reference version code."""

    players: int
    civilians: int
    police: int
    killers: int
    code: str

    @property
    def lose_condition(self) -> str:
        """The civilian lose condition the code picks: ``00``, ``01`` or ``10``."""
        return _lose_bits(self.code)

    def role_counts(self) -> dict[str, int]:
        """How many of each role a game of this size deals."""
        counts = {KILLER: self.killers, CIVILIAN: self.civilians, POLICE: self.police}
        return counts | dict.fromkeys(SINGLE_ROLES, 1)

    def as_json(self) -> dict:
        """``{"players", "civilians", "police", "killers", "code", "lose_condition"}``."""
        return {
            "players": self.players,
            "civilians": self.civilians,
            "police": self.police,
            "killers": self.killers,
            "code": self.code,
            "lose_condition": self.lose_condition,
        }


# 身份阵营 一、身份分配: 人数 | 平民 | 警察 | 杀手 | 参考规则版本.
ROLE_TABLE: dict[int, RoleRow] = {
    row.players: row
    for row in (
        RoleRow(11, 3, 1, 3, "04C13"),
        RoleRow(12, 4, 1, 3, "44C23"),
        RoleRow(13, 5, 1, 3, "84C33"),
        RoleRow(14, 5, 1, 4, "44C44"),
        RoleRow(15, 6, 1, 4, "A4C54"),
        RoleRow(16, 6, 1, 5, "64C65"),
        RoleRow(17, 7, 1, 5, "A4C75"),
        RoleRow(18, 7, 1, 6, "64C86"),
        RoleRow(19, 8, 1, 6, "A4C96"),
        RoleRow(20, 7, 2, 7, "24CA7"),
        RoleRow(21, 8, 2, 7, "64CB7"),
        RoleRow(22, 8, 2, 8, "24CC8"),
        RoleRow(23, 9, 2, 8, "64CD8"),
        RoleRow(24, 9, 2, 9, "24CE9"),
        RoleRow(25, 9, 3, 9, "24CF9"),
    )
}
_SIZES = f"{min(ROLE_TABLE)}–{max(ROLE_TABLE)}"
_CODE = re.compile(r"[0-9A-F]{5}")


def _lose_bits(code: str) -> str:
    """用语定义: “前缀3位十六进制数代表的二进制中高2位对应胜负判定”."""
    return format(int(code[:3], 16) >> 10, "02b")


def table_row(players: int) -> dict:
    """The 身份分配 row for ``players`` (11–25) as JSON, with its reference code."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in ROLE_TABLE:
        raise BadInput(f"V4.0 身份表只有 {_SIZES} 人局，没有 {players} 人局。")
    return ROLE_TABLE[players].as_json()


def table() -> list[dict]:
    """Every row of 身份分配, 11–25 players, with its reference code."""
    return [row.as_json() for row in ROLE_TABLE.values()]


def deal(seats: Iterable[int], rng: random.Random) -> dict:
    """04.分发角色: roles by seat, the row's cards for the player count shuffled with ``rng``."""
    order = sorted(set(seats))
    table_row(len(order))
    return deal_cards(order, ROLE_TABLE[len(order)].role_counts(), rng)


def decode(code: str) -> dict:
    """Read a version code: “后缀……第一位等于玩家数-10，第二位等于杀手数”, prefix top bits.

    The role counts come from the table row of the code's player count; the
    code's killer count must match it. Lower case is accepted; the rest of the
    prefix (below the top two bits) is kept as given and not interpreted.
    """
    text = str(code).strip().upper()
    if not _CODE.fullmatch(text):
        raise BadInput(
            f"版本号「{code}」不对：应为 5 位十六进制数字（3 位前缀 + 2 位后缀），如 64C65。"
        )
    lose = _lose_bits(text)
    if lose not in LOSE_CONDITIONS:
        raise BadInput(
            f"版本号「{text}」前缀的二进制高 2 位是 {lose}，"
            f"规则只定义了 {'、'.join(LOSE_CONDITIONS)} 三种判负条件。"
        )
    players, killers = int(text[3], 16) + 10, int(text[4], 16)
    row = ROLE_TABLE.get(players)
    if row is None:
        raise BadInput(
            f"版本号「{text}」后缀第一位 {text[3]} 表示 {players} 人局，"
            f"V4.0 身份表只有 {_SIZES} 人局。"
        )
    if killers != row.killers:
        raise BadInput(
            f"版本号「{text}」后缀第二位表示 {killers} 名杀手，"
            f"但 {players} 人局按身份表是 {row.killers} 名杀手。"
        )
    return replace(row, code=text).as_json()


# ---------------------------------------------------------------- camps and the day vote


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise BadInput(f"「{role}」不是 V4.0 的身份（可用：{'、'.join(ROLES)}）。")


def camp(role: str | None) -> str | None:
    """“杀手属于〖杀手阵营〗，其他身份均属于〖平民阵营〗” (None when unknown)."""
    if role is None:
        return None
    _check_role(role)
    return _camp_of(role)


def _camp_of(role: str) -> str:
    return KILLER_CAMP if role == KILLER else CIVILIAN_CAMP


# ---------------------------------------------------------------- game state


@dataclass(frozen=True)
class Elimination:
    """One day's vote-out (游戏流程 14 “计票确定出局者”): the day and the seat."""

    day: int
    seat: int


@dataclass(frozen=True)
class V4State:
    """A V4.0 game between steps: roles by seat, who is out, marks, frenzy, vote-outs.

    Between steps nobody is 濒死 (step 11 takes every 濒死 player out). ``marks``
    maps a seat still in the game to its marks (at most one: a marked player
    injected again turns 濒死). ``frenzy`` is who is 癫狂 for the coming day.
    ``voted_out`` is the day-vote history the 01/10 lose conditions read.
    """

    roles: Mapping[int, str]
    lose_condition: str
    out: frozenset[int] = frozenset()
    marks: Mapping[int, int] = field(default_factory=dict)
    frenzy: frozenset[int] = frozenset()
    voted_out: tuple[Elimination, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "roles", dict(self.roles))
        object.__setattr__(self, "out", frozenset(self.out))
        object.__setattr__(self, "marks", dict(self.marks))
        object.__setattr__(self, "frenzy", frozenset(self.frenzy))
        object.__setattr__(self, "voted_out", tuple(self.voted_out))
        _check_state(self)

    def in_game(self, seat: int) -> bool:
        """Whether ``seat`` is a player not yet 出局."""
        return seat in self.roles and seat not in self.out

    def holders(self, role: str) -> tuple[int, ...]:
        """The seats of ``role`` still in the game."""
        return tuple(s for s in sorted(self.roles) if self.roles[s] == role and self.in_game(s))

    @property
    def living(self) -> tuple[int, ...]:
        """Every seat still in the game, in seat order."""
        return tuple(seat for seat in sorted(self.roles) if seat not in self.out)


def _check_state(state: V4State) -> None:
    if state.lose_condition not in LOSE_CONDITIONS:
        raise BadInput(
            f"判负条件应为 {'、'.join(LOSE_CONDITIONS)} 之一，不是「{state.lose_condition}」。"
        )
    for seat, role in state.roles.items():
        _check_seat_number(seat)
        _check_role(role)
    for role in SINGLE_ROLES:
        count = list(state.roles.values()).count(role)
        if count > 1:
            raise BadInput(f"本局有 {count} 名{role}，V4.0 每局只有一名{role}。")
    for seat in (*state.out, *state.frenzy, *state.marks, *(e.seat for e in state.voted_out)):
        if seat not in state.roles:
            raise BadInput(f"没有 {seat} 号玩家。")
    for seat, count in state.marks.items():
        if seat in state.out:
            raise BadInput(f"{seat} 号已出局，不能带有标记。")
        if count != 1:
            raise BadInput(
                f"{seat} 号有 {count} 个标记：存活角色最多一个标记，再被【注射】即濒死。"
            )
    if state.frenzy & state.out:
        raise BadInput(f"{min(state.frenzy & state.out)} 号已出局，不能处于癫狂状态。")
    days = [elimination.day for elimination in state.voted_out]
    for elimination in state.voted_out:
        if elimination.seat not in state.out:
            raise BadInput(
                f"{elimination.seat} 号记为第 {elimination.day} 天被投票出局，却未出局。"
            )
    if days != sorted(set(days)):
        raise BadInput("投票出局记录应按天排列，每天至多一人。")


def _check_seat_number(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise BadInput(f"座位号应为正整数，不是「{seat}」。")


def new_game(roles: Mapping[int, str], code: str) -> V4State:
    """A game's first state: the dealt ``roles`` must match the row of version ``code``."""
    row = decode(code)
    if len(roles) != row["players"]:
        raise BadInput(f"版本号 {row['code']} 是 {row['players']} 人局，名单有 {len(roles)} 人。")
    state = V4State(roles=roles, lose_condition=row["lose_condition"])
    dealt = list(state.roles.values())
    expected = ROLE_TABLE[row["players"]].role_counts()
    wrong = [
        f"{r} {dealt.count(r)} 名（应为 {n}）" for r, n in expected.items() if dealt.count(r) != n
    ]
    if wrong:
        raise BadInput(f"身份分配与版本号 {row['code']} 不符：{'，'.join(wrong)}。")
    return state


def vote_out(state: V4State, seat: int, day: int) -> V4State:
    """游戏流程 14 “计票确定出局者”: ``seat`` is out by the vote of ``day``."""
    if not state.in_game(seat):
        raise BadInput(_not_in_game(state, seat, "被投票出局"))
    if isinstance(day, bool) or not isinstance(day, int) or day < 1:
        raise BadInput(f"投票出局的天数应为正整数，不是「{day}」。")
    if state.voted_out and day <= state.voted_out[-1].day:
        raise BadInput(f"第 {day} 天不在上一次投票出局（第 {state.voted_out[-1].day} 天）之后。")
    return replace(
        state,
        out=state.out | {seat},
        marks={s: n for s, n in state.marks.items() if s != seat},
        frenzy=state.frenzy - {seat},
        voted_out=(*state.voted_out, Elimination(day, seat)),
    )


def counts_vote(state: V4State, seat: int) -> bool:
    """Whether ``seat``'s day-vote posts count: in the game and not 癫狂 (【沉默】).

    Decision (docs/rules/v4.md): the skill that makes a player 癫狂 is called
    【沉默】 (silence), so a 癫狂 player's posts carry no ballot that day; the
    player is still alive, may be voted for, and is not warned.
    """
    if seat not in state.roles:
        raise BadInput(f"没有 {seat} 号玩家。")
    return state.in_game(seat) and seat not in state.frenzy


def _not_in_game(state: V4State, seat: int, what: str) -> str:
    if seat not in state.roles:
        return f"没有 {seat} 号玩家，不能{what}。"
    return f"{seat} 号已出局，不能{what}。"


# ---------------------------------------------------------------- the night


@dataclass(frozen=True)
class NightActions:
    """The targets chosen for one night (seats; None = the skill is not used)."""

    butterfly: int | None = None
    kill: int | None = None
    check: int | None = None
    snipe: int | None = None
    inject: int | None = None
    silence: int | None = None


@dataclass(frozen=True)
class Skill:
    """A night skill: the ``NightActions`` field, the role using it, its name and flow step."""

    action: str
    role: str
    name: str
    step: int


# 游戏流程 08–10, in the order they resolve (docs/rules/v4.md, “Order within step 10”).
SKILLS = (
    Skill("butterfly", BUTTERFLY, "【蝶衣】", 8),
    Skill("kill", KILLER, "【杀人】", 9),
    Skill("check", POLICE, "【指认】", 9),
    Skill("snipe", SNIPER, "【狙杀】", 10),
    Skill("inject", DOCTOR, "【注射】", 10),
    Skill("silence", OLD_MAN, "【沉默】", 10),
)
_SKILL = {skill.action: skill for skill in SKILLS}
JUDGE_STEP = 11  # 游戏流程 11 “判定出局”


@dataclass(frozen=True)
class NightLine:
    """One line of the night's explanation, for the judge's audit.

    ``step`` is the seed's flow step (8 夜晚1, 9 夜晚2, 10 夜晚3–4, 11 判定出局);
    ``code`` is one of cover, void, immune, transfer, no_effect, dying, out,
    saved, mark, frenzy, check, no_feedback; ``text`` is the Chinese sentence.
    """

    step: int
    code: str
    seats: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class PoliceCheck:
    """The 【指认】 feedback: the checked seat and its camp."""

    seat: int
    camp: str


@dataclass(frozen=True)
class NightResult:
    """The night after step 11: the new state, who went out, and why.

    ``out`` is every seat out this night; ``dying`` those of them who were 濒死
    when step 11 took them out (the rest were shot out at once by 【狙杀】).
    """

    state: V4State
    out: tuple[int, ...]
    dying: tuple[int, ...]
    police: PoliceCheck | None
    events: tuple[NightLine, ...]


@dataclass(frozen=True)
class _Night:
    """The night being resolved: the status of every seat in the game at nightfall."""

    roles: Mapping[int, str]
    status: Mapping[int, str]
    marks: Mapping[int, int]
    frenzy: frozenset[int]
    covered: int | None = None
    butterfly: int | None = None
    events: tuple[NightLine, ...] = ()

    def log(self, step: int, code: str, seats: tuple[int, ...], text: str) -> _Night:
        return replace(self, events=(*self.events, NightLine(step, code, seats, text)))

    def with_status(self, seat: int, status: str) -> _Night:
        return replace(self, status={**self.status, seat: status})

    def with_mark(self, seat: int) -> _Night:
        return replace(self, marks={**self.marks, seat: 1})

    def holders(self, role: str) -> tuple[int, ...]:
        return tuple(seat for seat in sorted(self.status) if self.roles[seat] == role)


Effect = Callable[[_Night, int, Skill], _Night]


def resolve_night(state: V4State, actions: NightActions) -> NightResult:
    """Resolve one night, 游戏流程 08–11, and return the state for the coming day.

    08 花蝴蝶【蝶衣】; 09 杀手【杀人】 and 警察【指认】; 10 狙击手【狙杀】, 医生【注射】,
    森林老人【沉默】 in that order; 11 every 濒死 player is out. 癫狂 from the day
    before ends at nightfall (“入夜自动解除”). Illegal choices raise ``BadInput``.
    """
    _check_actions(state, actions)
    night = _Night(
        roles=state.roles,
        status=dict.fromkeys(state.living, ALIVE),
        marks=dict(state.marks),
        frenzy=frozenset(),
    )
    night = _cover(night, actions.butterfly)
    night = _use(night, _SKILL["kill"], actions.kill, _kill_effect)
    night, police = _check(night, actions.check)
    night = _use(night, _SKILL["snipe"], actions.snipe, _snipe_effect)
    night = _use(night, _SKILL["inject"], actions.inject, _inject_effect)
    night = _use(night, _SKILL["silence"], actions.silence, _silence_effect)
    return _judge(state, night, police)


def _check_actions(state: V4State, actions: NightActions) -> None:
    for skill in SKILLS:
        target = getattr(actions, skill.action)
        if target is None:
            continue
        if skill.role not in state.roles.values():
            raise BadInput(f"本局没有{skill.role}，不能使用{skill.name}。")
        if not state.holders(skill.role):
            already = "已全部出局" if skill.role in (KILLER, POLICE) else "已出局"
            raise BadInput(f"{skill.role}{already}，不能使用{skill.name}。")
        if isinstance(target, bool) or not isinstance(target, int):
            raise BadInput(f"{skill.name}的目标应为座位号，不是「{target}」。")
        if not state.in_game(target):
            raise BadInput(_not_in_game(state, target, f"作为{skill.name}的目标"))
        if skill.role == BUTTERFLY and target in state.holders(BUTTERFLY):
            raise BadInput("花蝴蝶不能对自己使用【蝶衣】，只能选择一名存活状态的其他角色。")


def _cover(night: _Night, target: int | None) -> _Night:
    """【蝶衣】: “该角色当晚发动技能无效且免疫一切技能”."""
    if target is None:
        return night
    (butterfly,) = night.holders(BUTTERFLY)
    night = replace(night, covered=target, butterfly=butterfly)
    return night.log(
        8,
        "cover",
        (butterfly, target),
        f"花蝴蝶（{butterfly}号）【蝶衣】{target}号：{target}号当晚发动技能无效，且免疫一切技能。",
    )


def _blocked(night: _Night, skill: Skill) -> _Night | None:
    """The night with the reason logged when ``skill`` fails at its source, else None.

    FAQ: “若【蝶衣】目标为杀手之一，则当晚【杀人】无效……若目标为警察之一，则当晚
    【指认】无效……若目标为医生、狙击手、森林老人，则技能不会产生任何效果”.
    """
    actors = night.holders(skill.role)
    if night.covered in actors:
        who = f"{skill.role}之一" if skill.role in (KILLER, POLICE) else skill.role
        return night.log(
            skill.step,
            "void",
            (night.covered,),
            f"{who}（{night.covered}号）受【蝶衣】影响，当晚{skill.name}无效。",
        )
    if all(night.status[seat] == OUT for seat in actors):
        return night.log(
            skill.step,
            "void",
            actors,
            f"{skill.role}（{_seats(actors)}）已在本夜出局，{skill.name}无效。",
        )
    return None


def _seats(seats: tuple[int, ...]) -> str:
    return "、".join(f"{seat}号" for seat in seats)


def _use(night: _Night, skill: Skill, target: int | None, effect: Effect) -> _Night:
    """Use ``skill`` on ``target`` unless it fails at its source."""
    if target is None:
        return night
    blocked = _blocked(night, skill)
    return blocked if blocked is not None else _aim(night, skill, target, effect)


def _aim(night: _Night, skill: Skill, target: int, effect: Effect) -> _Night:
    """Land ``effect`` on ``target``: the covered seat is immune; the butterfly passes it on.

    “若花蝴蝶成为【指认】外其他技能目标，则该角色承担相同效果……花蝴蝶自己同样受到技能影响”.
    """
    if night.status[target] == OUT:
        return night.log(
            skill.step, "no_effect", (target,), f"{skill.name}的目标{target}号已出局，无效果。"
        )
    if target == night.covered:
        return night.log(
            skill.step,
            "immune",
            (target,),
            f"{skill.name}的目标{target}号受【蝶衣】保护，免疫，无任何效果。",
        )
    night = effect(night, target, skill)
    if target != night.butterfly:
        return night
    covered = night.covered
    assert covered is not None  # a butterfly seat is set only with its covered seat
    night = night.log(
        skill.step,
        "transfer",
        (target, covered),
        f"{skill.name}的目标是花蝴蝶（{target}号），【蝶衣】目标{covered}号承担相同效果。",
    )
    return effect(night, covered, skill)


def _kill_effect(night: _Night, seat: int, skill: Skill) -> _Night:
    """【杀人】: “使之进入濒死状态”."""
    if night.status[seat] == OUT:
        return _no_effect(night, seat, skill)
    night = night.with_status(seat, DYING)
    return night.log(skill.step, "dying", (seat,), f"{seat}号被{skill.name}，进入濒死状态。")


def _snipe_effect(night: _Night, seat: int, skill: Skill) -> _Night:
    """【狙杀】: “若该角色处于存活状态，则转变为濒死状态；若该角色处于濒死状态，则立即出局”."""
    status = night.status[seat]
    if status == OUT:
        return _no_effect(night, seat, skill)
    if status == DYING:
        night = night.with_status(seat, OUT)
        return night.log(
            skill.step, "out", (seat,), f"{seat}号处于濒死状态，被{skill.name}，立即出局。"
        )
    night = night.with_status(seat, DYING)
    return night.log(skill.step, "dying", (seat,), f"{seat}号被{skill.name}，进入濒死状态。")


def _inject_effect(night: _Night, seat: int, skill: Skill) -> _Night:
    """【注射】: 濒死 → 存活; 存活 without a mark → a mark; 存活 with a mark → 濒死."""
    status = night.status[seat]
    if status == OUT:
        return _no_effect(night, seat, skill)
    if status == DYING:
        night = night.with_status(seat, ALIVE)
        return night.log(
            skill.step, "saved", (seat,), f"{seat}号处于濒死状态，被{skill.name}，转为存活状态。"
        )
    if night.marks.get(seat):
        night = night.with_status(seat, DYING)
        return night.log(
            skill.step, "dying", (seat,), f"{seat}号已有标记，被{skill.name}，进入濒死状态。"
        )
    night = night.with_mark(seat)
    return night.log(skill.step, "mark", (seat,), f"{seat}号被{skill.name}，获得一个标记。")


def _silence_effect(night: _Night, seat: int, skill: Skill) -> _Night:
    """【沉默】: “使之在次日白天进入癫狂状态，入夜自动解除”."""
    if night.status[seat] == OUT:
        return _no_effect(night, seat, skill)
    night = replace(night, frenzy=night.frenzy | {seat})
    return night.log(
        skill.step, "frenzy", (seat,), f"{seat}号被{skill.name}，次日白天进入癫狂状态。"
    )


def _no_effect(night: _Night, seat: int, skill: Skill) -> _Night:
    return night.log(skill.step, "no_effect", (seat,), f"{seat}号已出局，{skill.name}无效果。")


def _check(night: _Night, target: int | None) -> tuple[_Night, PoliceCheck | None]:
    """【指认】: “反馈该角色所属阵营”, unless the police or the target is covered."""
    skill = _SKILL["check"]
    if target is None:
        return night, None
    blocked = _blocked(night, skill)
    if blocked is not None:
        return blocked, None
    if target == night.covered:
        text = f"【指认】的目标{target}号受【蝶衣】保护，警察不会收到反馈信息。"
        return night.log(skill.step, "no_feedback", (target,), text), None
    result = PoliceCheck(target, _camp_of(night.roles[target]))
    night = night.log(skill.step, "check", (target,), f"警察【指认】{target}号：{result.camp}。")
    return night, result


def _judge(state: V4State, night: _Night, police: PoliceCheck | None) -> NightResult:
    """游戏流程 11 “判定出局”: every 濒死 player is out; the new state for the day."""
    dying = tuple(seat for seat in sorted(night.status) if night.status[seat] == DYING)
    for seat in dying:
        night = night.with_status(seat, OUT)
        night = night.log(JUDGE_STEP, "out", (seat,), f"{seat}号处于濒死状态，判定出局。")
    out = tuple(seat for seat in sorted(night.status) if night.status[seat] == OUT)
    new_state = replace(
        state,
        out=state.out | set(out),
        marks={seat: n for seat, n in night.marks.items() if seat not in out},
        frenzy=night.frenzy - set(out),
    )
    return NightResult(new_state, out, dying, police, night.events)


def night_json(result: NightResult, round_no: int) -> dict:
    """The ``killmod.night/1`` document; ``round_no`` is the seed's N (第零晚 is 0)."""
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 0:
        raise BadInput(f"夜晚轮次应为 0 或正整数（第零晚为 0），不是「{round_no}」。")
    police = result.police
    return {
        "schema": "killmod.night/1",
        "round": round_no,
        "out": list(result.out),
        "dying": list(result.dying),
        "marks": {str(seat): n for seat, n in sorted(result.state.marks.items())},
        "frenzy": sorted(result.state.frenzy),
        "police": None if police is None else {"seat": police.seat, "camp": police.camp},
    }


# ---------------------------------------------------------------- win, lose, draw


@dataclass(frozen=True)
class Ending:
    """The end of the game: the winning camp (None for a draw) and the conditions met."""

    winner: str | None
    reasons: tuple[str, ...]

    @property
    def draw(self) -> bool:
        """平局: both camps met a lose condition."""
        return self.winner is None


def check_win(state: V4State) -> Ending | None:
    """胜负判定, checked after flow steps 11 and 14; None while the game goes on.

    “未曾达到判负条件且最先达到判胜条件的阵营将获得胜利。若有且只有一个阵营未达到
    判负条件，则该阵营获得胜利。” 平局: “夜晚结算完毕时，〖平民阵营〗与〖杀手阵营〗
    均满足判负条件” (one vote-out cannot make both camps lose, so only a night can).
    """
    civilians_lost = _civilians_lost(state)
    killers_lost = _killers_lost(state)
    if civilians_lost and killers_lost:
        return Ending(None, (civilians_lost, killers_lost))
    if killers_lost:
        return Ending(CIVILIAN_CAMP, (killers_lost,))
    if civilians_lost:
        return Ending(KILLER_CAMP, (civilians_lost,))
    wins = _killers_win(state)
    return Ending(KILLER_CAMP, wins) if wins else None


def _civilians_lost(state: V4State) -> str | None:
    """〖平民阵营〗负, by the condition the version code picks (“平民” is the 平民 role)."""
    condition = state.lose_condition
    reason = f"〖平民阵营〗负（{condition}）：{LOSE_CONDITIONS[condition]}"
    if condition == "00":
        return reason if not state.holders(CIVILIAN) else None
    voted = [state.roles[elimination.seat] == CIVILIAN for elimination in state.voted_out]
    if _longest_run(voted) >= 2 or (condition == "10" and sum(voted) >= 3):
        return reason
    return None


def _longest_run(flags: list[bool]) -> int:
    """The longest run of consecutive True values."""
    longest = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        longest = max(longest, run)
    return longest


def _killers_lost(state: V4State) -> str | None:
    """〖杀手阵营〗负: “杀手全部出局”."""
    return None if state.holders(KILLER) else "〖杀手阵营〗负：杀手全部出局"


def _killers_win(state: V4State) -> tuple[str, ...]:
    """〖杀手阵营〗胜 1 and 2, each met condition as a reason."""
    killers, living = len(state.holders(KILLER)), len(state.living)
    reasons = []
    if killers * 2 >= living:
        reasons.append(f"〖杀手阵营〗胜：杀手 {killers} 人，占存活 {living} 人的一半或以上")
    if not any(state.holders(role) for role in SPECIAL_ROLES):
        reasons.append("〖杀手阵营〗胜：警察、医生、狙击手、花蝴蝶、森林老人全部出局")
    return tuple(reasons)


def summary(players: int | None = None) -> list[str]:
    """The rule set in Chinese lines, for ``killmod rules v4``."""
    lose = "；".join(f"{bits} {text}" for bits, text in LOSE_CONDITIONS.items())
    lines = [
        "V4.0 规则（官方规则 S03 暨杀人游戏 V4.0）",
        f"人数：{_SIZES} 人；平民、警察、杀手按身份表分配，"
        "另有医生、狙击手、花蝴蝶、森林老人各一人。",
        "版本号：3 位前缀 + 2 位后缀的十六进制数；前缀的二进制高 2 位是〖平民阵营〗的判负条件"
        f"（{lose}），后缀第一位为玩家数-10，第二位为杀手数。",
        "夜晚（从第零晚起）：花蝴蝶【蝶衣】；杀手【杀人】、警察【指认】；"
        "狙击手【狙杀】、医生【注射】、森林老人【沉默】；最后濒死者判定出局。",
        "白天：讨论与投票，得票最多者出局；不投票不计票，也不警告；"
        "癫狂（被【沉默】）的玩家当天的发言不计票。",
        "平票：法官选择抽签，或在平票者之间重新投票。",
        "身份公布：出局不公布身份，游戏结束时揭秘。",
        "胜负：杀手全部出局，〖杀手阵营〗负；杀手占存活人数一半或以上，或警察、医生、狙击手、"
        "花蝴蝶、森林老人全部出局，〖杀手阵营〗胜；〖平民阵营〗按版本号判负；"
        "夜晚结算后双方均判负为平局。",
    ]
    if players is not None:
        row = ROLE_TABLE[table_row(players)["players"]]
        lines.append(
            f"{players} 人局：平民 {row.civilians} 人，警察 {row.police} 人，"
            f"杀手 {row.killers} 人，医生、狙击手、花蝴蝶、森林老人各 1 人；参考版本号 {row.code}"
            f"（判负条件 {row.lose_condition}：{LOSE_CONDITIONS[row.lose_condition]}）。"
        )
    return lines


# ---------------------------------------------------------------- the rule set


class V4Rules(RuleSet):
    """官方规则 S03 暨杀人游戏 V4.0: the four-step night, 癫狂 in the day vote, ties by lot
    or re-vote.

    Decision (docs/rules/v4.md, “In the commands”): a tie is settled as the judge
    chooses — by lot (``killmod lottery``) or by a re-vote among the tied (the
    round's next tally); the announcement offers both.
    """

    NAME = NAME
    ROLES = ROLES
    POWERS = POWERS
    TALLY_POLICY = TALLY_POLICY
    VOTE_RULES = VOTE_RULES
    JUDGE_OUTS = JUDGE_OUTS

    # 游戏流程 11 “判定出局，并通知准备遗言”; identities come out only at 16 “宣布胜利阵营并揭秘”.
    REVEAL_CAMP = False
    SILENCES_VOTERS = SILENCES_VOTERS
    LOSE_CONDITIONS = LOSE_CONDITIONS
    lottery = True
    night_base = 0
    first_night = 0
    night_options = frozenset({"butterfly", "kill", "check", "snipe", "inject", "silence"})
    teams = (frozenset({KILLER}), frozenset({POLICE}))

    def table(self) -> list[dict]:
        """Every row of 身份分配, 11–25 players."""
        return table()

    def table_row(self, players: int) -> dict:
        """The 身份分配 row for ``players``, with its reference code."""
        return table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The V4.0 rules in Chinese lines."""
        return summary(players)

    def decode(self, code: str) -> dict:
        """版本号: the row of the code's player count, with the code's lose condition."""
        return decode(code)

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """04.分发角色: roles by seat, shuffled with ``rng``."""
        return deal(seats, rng)

    def camp(self, role: str | None) -> str | None:
        """杀手 is the 杀手阵营, every other role the 平民阵营."""
        return camp(role)

    def start(self, players: Sequence[Player]) -> V4State:
        """The dealt roles against the version code (the row's reference code by default)."""
        roles = dealt_roles(players)
        code = self.code or table_row(len(roles))["code"]
        return replace(new_game(roles, code), out=frozenset(out_at_start(players)))

    def night(
        self,
        state: V4State,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """游戏流程 08–11 over the state at nightfall."""
        actions = NightActions(
            butterfly=choice.butterfly,
            kill=choice.kill,
            check=choice.single_check(),
            snipe=choice.snipe,
            inject=choice.inject,
            silence=choice.silence,
        )
        result = resolve_night(state, actions)
        police = result.police
        return NightPlay(
            state=result.state,
            out=result.out,
            document=night_json(result, night_no),
            checks=() if police is None else (Check(police.seat, police.camp),),
            events=tuple(line.text for line in result.events),
        )

    def night_skills(
        self, state: V4State, rights: NightRights | None = None
    ) -> tuple[NightSkill, ...]:
        """二、身份与技能: the living players of each role with a skill.

        “所有存活状态的杀手可以共同选择一名角色……若杀手不共群，则由所有存活状态的杀手选出
        一名杀手执行技能” (and the same of the 警察): one choice, the team's; killers who send
        different ones have not chosen (docs/rules/v4.md, “Night actions by 站内短信”).
        """
        together = "共同选择；若不共群，则选出一名执行技能"
        return (
            NightSkill("butterfly", state.holders(BUTTERFLY)),
            NightSkill("kill", state.holders(KILLER), "agree", together),
            NightSkill("check", state.holders(POLICE), "agree", together),
            NightSkill("snipe", state.holders(SNIPER)),
            NightSkill("inject", state.holders(DOCTOR)),
            NightSkill("silence", state.holders(OLD_MAN)),
        )

    def hidden_state(self, state: V4State) -> dict[str, Any]:
        """【注射】's marks and the 癫狂 (【沉默】) of the coming day."""
        hidden: dict[str, Any] = {}
        if state.marks:
            hidden["marks"] = sorted(seat for seat, marks in state.marks.items() if marks)
        if state.frenzy:
            hidden["frenzy"] = sorted(state.frenzy)
        return hidden

    def vote_out(self, state: V4State, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """游戏流程 14: the day of the vote is the round."""
        (seat,) = seats
        return OutPlay(vote_out(state, seat, round_no), seats)

    def day(
        self,
        state: V4State,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """A tie offers a re-vote among the tied (or the lottery); else the default."""
        if outcome.kind == "tie":
            return DayStep(stage, next=Stage("revote", candidates=outcome.seats))
        return super().day(state, stage, outcome, round_no, knife)

    def silenced(self, state: V4State) -> frozenset[int]:
        """The 癫狂 players (``counts_vote``): their posts carry no ballot today."""
        return frozenset(seat for seat in state.living if not counts_vote(state, seat))

    def verdict(self, state: V4State) -> GameOver | None:
        """胜负判定, its conditions met joined in one reason."""
        ending = check_win(state)
        return None if ending is None else GameOver(ending.winner, "；".join(ending.reasons))
