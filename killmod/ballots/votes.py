"""Reading one post's text for one vote intent (README “Reading a ballot”, rule 1.2 section 四).

A ``BallotReader`` is built once per roster (and grammar: a day vote, or the
指认 of 1.0/2.0, which also reads 指认 6号 / 指6号) and reads each post's text into a
``Reading``: a vote for a seat (or for a judge or substitute, an *outsider*), an
abstain, a vote on someone else's behalf (proxy), an ambiguous post, a vote for a
name it does not know, or no intent at all.  It does not judge the post (dead
voter, late, edited, dead target…): the tally does.

Texts are compared after ``killmod.core.names.fold`` (NFKC, casefold, one space for any run of
whitespace), so ``５号`` is ``5号`` and ``Ｍｅｅｒ`` is ``meer``.  The decisions taken
on ambiguous phrasings are listed in docs/rules/1.2.md.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

from killmod.core.model import Roster
from killmod.core.names import fold

ReadingKind = Literal["vote", "abstain", "proxy", "none", "ambiguous", "unknown_target"]


@dataclass(frozen=True)
class Reading:
    """What one post's text says, before the tally judges it.

    ``target`` is the seat read for a ``vote`` (any number: the tally rejects a
    seat that does not exist or is dead); it is None when the vote names a judge
    or substitute, whose name is then in ``outsider``.  ``fragment`` is the
    normalised text read as the intent, for the audit.  For ``unknown_target``,
    ``detail`` is the unknown text, ``suggestion`` the seat of a near-miss name
    (never counted) and ``writer`` says the text names the writer (投我, 投自己),
    whom only the tally knows.  For ``ambiguous``, ``detail`` lists the targets
    read ("5,7", "5,abstain"); for ``proxy``, the player voted for ("9 号").
    """

    kind: ReadingKind
    target: int | None = None
    outsider: str | None = None
    fragment: str = ""
    suggestion: int | None = None
    detail: str = ""
    writer: bool = False


_NO_INTENT = Reading("none")

# Between a verb and its target: spaces, colons, commas, brackets and quotes.
_SEP_CLASS = r"[\s:,、\[\]【】()<>《》\"'“”‘’「」『』~=→-]*"
_SEP = re.compile(_SEP_CLASS)
_NAME_SEP = re.compile(r"[\s:\[\]【】()<>《》\"'“”‘’「」『』~=→-]*")
_VERB_WORD = (
    r"(?:投一?票[给給]|投回|投[给給]|改回|改[投票]回?[为爲成到给給]?|票投[给給]?|跟票|投票|投"
    r"|(?<![a-z])vote[sd]?(?![a-z])(?:\s?(?:for|to)(?![a-z]))?)"
)
_ABSTAIN_WORD = (
    r"(?:弃权|棄權|弃權|棄权|弃票|棄票|放弃投票|放棄投票|(?<![a-z])abstain(?:s|ed)?(?![a-z]))"
)
_ABSTAIN = re.compile(_ABSTAIN_WORD)
# The pointing round of 1.0/2.0 (指认): 指认 6号, 我指认3号, 指认：6号, 指6号. A bare 指 is a
# ballot only with a known target right after it (指出, 手指 are talk).
_POINT_WORD = r"(?:指[认認]|指)"
_BARE_POINT = "指"


class Grammar(NamedTuple):
    """The verbs a vote is read with: ``verb`` a chain of them, ``cue`` where an intent starts."""

    verb: re.Pattern[str]
    cue: re.Pattern[str]


def _grammar(verb_word: str, first_chars: str) -> Grammar:
    verb = re.compile(rf"{verb_word}(?:{_SEP_CLASS}{verb_word})*")
    # The lookahead lists the first characters of a verb or an abstain word: it makes
    # the search of a long post ~5x faster.
    cue = re.compile(
        rf"(?=[{first_chars}])(?:(?P<verb>{verb.pattern})|(?P<abstain>{_ABSTAIN_WORD}))"
    )
    return Grammar(verb, cue)


# A day vote (1.2, V4.0, X), and the pointing round (1.0/2.0 指认), which also reads 投.
VOTE = _grammar(_VERB_WORD, "投改票跟v弃棄放a")
POINT = _grammar(rf"(?:{_POINT_WORD}|{_VERB_WORD})", "投改票跟v弃棄放a指")

# The night's choices a player sends the judge by 站内短信 (杀 7号, 验 5号, 狙 3…), one
# grammar per choice (a ``NightChoice`` field, or 1.2's veto).  杀手 and 杀人 are talk,
# but 1.2's 杀人名单 names the list; 自杀 is no kill.
_NIGHT_VERBS = {  # choice: (its verbs, the first characters they start with)
    "kill": (
        r"(?:杀人名单|殺人名單|(?<![自暗被])(?:杀掉|杀死|殺掉|殺死|[杀殺](?![手人])|刀)"
        r"|(?<![a-z])kill(?![a-z]))",
        "杀殺刀k",
    ),
    "check": (r"(?:查验|查驗|[验驗]|查|指[认認]|(?<![a-z])check(?![a-z]))", "查验驗指c"),
    "veto": (r"(?:否[决決](?:权|權)?|否)", "否"),
    "snipe": (r"(?:狙[杀殺击擊]|狙)", "狙"),
    "inject": (r"(?:注射|注)", "注"),
    "silence": (r"(?:沉默|禁言)", "沉禁"),
    "butterfly": (r"(?:蝶衣)", "蝶"),
    "possess": (r"(?:附[体體身]|附)", "附"),
    "pact": (r"(?:生死[状狀])", "生"),
    "guard": (r"(?:守[护護]|守)", "守"),
}


@cache
def night_grammar(option: str) -> Grammar:
    """The grammar of one night choice (a key of ``_NIGHT_VERBS``), compiled when first
    asked for: a day's tally reads none of them, and a command starts sooner."""
    verb, first = _NIGHT_VERBS[option]
    return _grammar(verb, first + "弃棄放a")


# A seat: 5, 5号, 5號, 5#, #5, 五号, 十二号, 二十九号, 两号.  Digits followed by a time,
# a floor or a count (22:00, 5楼, 3票) are not a seat.
_SEAT = re.compile(
    r"#?(?P<arabic>[0-9]{1,3})"
    r"(?![0-9]|\s?(?:[:.][0-9]|[点點时時分楼樓层層票次天轮輪人个個%]))(?:\s?[号號#])?"
    r"|(?P<chinese>[一二三四五六七八九]?十[一二三四五六七八九]?|[零〇一二三四五六七八九两兩])\s?[号號]"
)
_CHINESE_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {
    "〇": 0,
    "两": 2,
    "兩": 2,
}
# One more target in the same clause: 投3或者5, 投3号和5号, 投3、5.
_CONNECTOR = re.compile(r"\s?(?:或者|或是|或|还是|還是|和|与|與|及|、|/|\|)\s?|\s(?:or|and)\s")
# A negation right before a verb (不投5号, 别投, 不要投); 要不 (how about) and
# 不得不 (have to) are not negations.
_NEGATION = re.compile(
    r"(?<![要得])(?:不|别|別|没|沒|勿|莫)"
    r"(?:要|会|會|能|想|该|該|用|必|再|准|準|可以|应该|應該|打算)?\s*$"
)
# 不投 / 不想投 without a target is an abstain (今天不投，等遗言).
_REFUSAL = re.compile(r"(?<![要得])不想?\s*$")
_NEGATION_WINDOW = 8
_WRITER = re.compile(r"我自己|自己|本人|我(?![们們])|(?:me|myself)(?![a-z])")
# Proxy markers; the bare ones also make 代投 / 替投 / 代为投 a proxy.
_PROXY = re.compile(r"代替|替代|代表|代为|代爲|帮忙|幫忙|替|帮|幫|代")
_BARE_PROXY = frozenset({"代", "替", "代替", "替代", "代为", "代爲"})
_PRONOUN = re.compile(r"他们|她们|他們|她們|他|她|它|ta(?![a-z])|别人|別人|朋友|队友|隊友")
_TOKEN = re.compile(r"[^\s,.!?;:、。~'\"“”‘’()\[\]{}<>《》【】「」『』/\\|]+")
_CJK = re.compile("[\u3400-\u9fff]")
# Chinese text after a verb that starts like this is talk, not a name; particles at the
# end of a name are dropped (投老张吧).
_PARTICLES = "了吗嗎呢吧啊呀哦噢喔哈么麼嘛哟咯啦"
_TALK_START = frozenset(
    _PARTICLES + "的地得着過过谁誰啥什怎哪几幾多少完错錯对對中入降资資机機稿诉訴篮籃胎靠身放"
    "递遞掷擲毒缘緣弃棄废廢保截结結开開时時前后後期环環阶階轮輪帖贴貼权權数數区區率"
    "一个個这這那其些之要就都也还還再又才在是给給不没沒别別很太真好已进進行我"
)
_NAME_MAX = 15
_NEAR_MISS = 0.6
_FILLER = " ,.!?;:~。、'\"“”‘’()[]【】<>《》=*-"


class _Intent(NamedTuple):
    """One vote intent found in a post (a tuple: a tally builds thousands)."""

    kind: Literal["vote", "abstain", "unknown"]
    fragment: str
    seat: int | None = None
    outsider: str | None = None
    token: str = ""
    suggestion: int | None = None
    writer: bool = False
    change: bool = False

    @property
    def label(self) -> str:
        """How the intent's target is listed in an ambiguous post's detail."""
        if self.kind == "abstain":
            return "abstain"
        if self.outsider is not None:
            return self.outsider
        return str(self.seat) if self.seat is not None else self.token


class _Target(NamedTuple):
    """A recognized target at some position of the text."""

    end: int
    seat: int | None
    outsider: str | None = None


class BallotReader:
    """Reads post texts for vote intents against one roster, with ``grammar``'s verbs.

    ``bare``: a post that is nothing but a target is a vote for it (a ballot); a night
    action (``night_grammar``) names its verb.
    """

    def __init__(self, roster: Roster, grammar: Grammar = VOTE, *, bare: bool = True) -> None:
        self._grammar = grammar
        self._read_bare = bare
        self._seats = frozenset(p.seat for p in roster.players)
        self._names = _name_table(roster)
        self._player_names = {n: t[0] for n, t in self._names.items() if t[0] is not None}
        self._name_re = _alternation(self._names)

    def read(self, text: str) -> Reading:
        """Read one post's text for its one vote intent."""
        norm = fold(text)
        if not norm:
            return _NO_INTENT
        proxy = self._proxy(norm)
        if proxy is not None:
            return proxy
        intents = self._intents(norm)
        if intents:
            return _resolve(intents)
        return (self._bare(norm) if self._read_bare else None) or _NO_INTENT

    def _target_at(self, text: str, pos: int) -> _Target | None:
        """The seat or known name starting at ``pos``; the longest match wins.

        On a tie (a name made of digits) the seat number wins when the seat exists.
        """
        name = self._name_re.match(text, pos)
        seat = _SEAT.match(text, pos)
        if seat:
            number = _seat_number(seat)
            longer = not name or seat.end() > name.end()
            if longer or (seat.end() == name.end() and number in self._seats):
                return _Target(seat.end(), number)
        if name:
            seat_of, outsider = self._names[name.group()]
            return _Target(name.end(), seat_of, outsider)
        return None

    def _proxy(self, text: str) -> Reading | None:
        """A vote on someone else's behalf: 替/帮/代 + seat, name or pronoun + 投.

        Rule 1.2 补充说明 (5): 投票不允许代投 — the whole post is rejected, even when it
        also carries the writer's own vote.
        """
        for marker in _PROXY.finditer(text):
            pos = _skip_spaces(text, marker.end())
            principal_end = self._principal_end(text, pos)
            if principal_end is None and marker.group() not in _BARE_PROXY:
                continue
            after = pos if principal_end is None else _skip_spaces(text, principal_end)
            principal = "" if principal_end is None else text[pos:principal_end]
            verb = self._grammar.verb.match(text, after)
            if verb:
                target = self._target_at(text, _SEP.match(text, verb.end()).end())
                end = target.end if target else verb.end()
                return Reading("proxy", fragment=text[marker.start() : end], detail=principal)
        return None

    def _principal_end(self, text: str, pos: int) -> int | None:
        """Where the player a proxy votes for ends, if one is named at ``pos``."""
        target = self._target_at(text, pos)
        if target:
            return target.end
        pronoun = _PRONOUN.match(text, pos)
        return pronoun.end() if pronoun else None

    def _intents(self, text: str) -> list[_Intent]:
        """Every vote and abstain intent of the text, in order.

        Rule 1.2 补充说明 4: 所有存活玩家投票.可弃权 — and (3): 玩家可以投弃权票.
        """
        intents: list[_Intent] = []
        pos, pending_change = 0, False
        while cue := self._grammar.cue.search(text, pos):
            if cue.lastgroup == "abstain":
                intents.append(_Intent("abstain", cue.group(), change=pending_change))
                pos, pending_change = cue.end(), False
                continue
            found, pos = self._clause(text, cue)
            change = pending_change or "改" in cue.group()
            intents.extend(i._replace(change=True) if change else i for i in found)
            # 改票了，投7号: a change verb without a target marks the next clause.
            pending_change = change and not found
        return intents

    def _clause(self, text: str, verb: re.Match[str]) -> tuple[list[_Intent], int]:
        """The intents of one verb clause and where the clause ends."""
        start = verb.start()
        window = max(0, start - _NEGATION_WINDOW)
        before = text[window:start]
        choices, end = self._choices_after(text, verb.end())
        negation = _NEGATION.search(before)
        if negation:
            if choices or not verb.group().startswith("投") or not _REFUSAL.search(before):
                return [], end
            return [_Intent("abstain", text[window + negation.start() : verb.end()])], end
        if choices:
            return [choice._replace(fragment=text[start:end]) for choice in choices], end
        if verb.group() == _BARE_POINT:
            return [], end
        unknown = self._unknown_at(text, verb.end(), start)
        return ([unknown] if unknown else []), end

    def _choices_after(self, text: str, pos: int) -> tuple[list[_Intent], int]:
        """The targets and abstains named from ``pos`` on (投3或者5 names two)."""
        choices: list[_Intent] = []
        while choice := self._choice_at(text, pos):
            intent, pos = choice
            choices.append(intent)
            connector = _CONNECTOR.match(text, pos)
            if connector is None:
                break
            pos = connector.end()
        return choices, pos

    def _choice_at(self, text: str, pos: int) -> tuple[_Intent, int] | None:
        """A target or an abstain word (投弃权票) right after ``pos`` and where it ends.

        A name may start with a bracket ([狼]人), so the text is tried before the
        separators are skipped.
        """
        for at in dict.fromkeys((_skip_spaces(text, pos), _SEP.match(text, pos).end())):
            target = self._target_at(text, at)
            if target:
                return _Intent("vote", "", seat=target.seat, outsider=target.outsider), target.end
            abstain = _ABSTAIN.match(text, at)
            if abstain:
                return _Intent("abstain", ""), abstain.end()
        return None

    def _unknown_at(self, text: str, pos: int, start: int) -> _Intent | None:
        """A name-like token after a verb that matches no one, or the writer (投我).

        Unlike a known target, it must not follow a comma: 大家快投票，等结果 is talk.
        """
        pos = _NAME_SEP.match(text, pos).end()
        writer = _WRITER.match(text, pos)
        if writer:
            fragment = text[start : writer.end()]
            return _Intent("unknown", fragment, token=writer.group(), writer=True)
        token = _TOKEN.match(text, pos)
        if token is None:
            return None
        core = token.group().rstrip(_PARTICLES)
        if not core or len(core) > _NAME_MAX or core[0].isdigit():
            return None
        suggestion = self._nearest(core)
        if suggestion is None and not _looks_like_name(core):
            return None
        fragment = text[start : pos + len(core)]
        return _Intent("unknown", fragment, token=core, suggestion=suggestion)

    def _nearest(self, token: str) -> int | None:
        """The seat of the player name or alias closest to ``token``, if close enough."""
        close = difflib.get_close_matches(token, self._player_names, n=1, cutoff=_NEAR_MISS)
        return self._player_names[close[0]] if close else None

    def _bare(self, text: str) -> Reading | None:
        """A post that is nothing but a target (5号！, meer, 五号, meer号) is a vote for it."""
        stripped = text.strip(_FILLER)
        for candidate in dict.fromkeys((text, stripped, stripped.rstrip("号號").rstrip(_FILLER))):
            target = self._target_at(candidate, 0)
            if target and target.end == len(candidate):
                return Reading("vote", target.seat, target.outsider, fragment=candidate)
        return None


# The knife phase (1.0/2.0 动刀): 动刀 / 刀 / 杀 / 举手 / knife, and 过 / 不杀 / 不动刀 / 不刀 /
# 不举手 / pass — 1.0 “你觉得他是杀手就举手动刀。反之就不动”, 2.0 m) “动刀：指杀辩解者，过：指不杀
# 辩解者”.  A negation (不, 没, 别) before a knife word makes it a pass; 不过 (“but”) is no pass;
# 杀手 and 杀人 are talk, 自杀 and 暗杀 are not a knife.
_NOT = "不没沒别別"
_KNIFE = re.compile(
    rf"(?<![{_NOT}])(?:[动動]刀|[举舉]手)|(?<![{_NOT}动動])刀|(?<![{_NOT}自暗被])[杀殺](?![手人])"
    r"|(?<![a-z])knife(?![a-z])"
)
_PASS = re.compile(
    rf"[{_NOT}](?:[动動]刀?|刀|[杀殺]|[举舉]手)|(?<!不)[过過]|(?<![a-z])pass(?![a-z])"
)

KnifeChoice = Literal["knife", "pass", "ambiguous"]


def read_knife(text: str) -> tuple[KnifeChoice, str] | None:
    """A knife-phase post's choice and the words read: 动刀/杀/举手, 过/不杀/不动刀, or both.

    ``None`` when the post says neither.
    """
    norm = fold(text)
    knife, passed = _KNIFE.search(norm), _PASS.search(norm)
    if knife and passed:
        return "ambiguous", f"{knife.group()} | {passed.group()}"
    if knife:
        return "knife", knife.group()
    return ("pass", passed.group()) if passed else None


class KnifeReader:
    """Reads knife-phase posts as ballots on the defender: 动刀 (杀) a vote for him, 过 abstains."""

    def __init__(self, defender: int) -> None:
        self.defender = defender

    def read(self, text: str) -> Reading:
        """One post's knife choice as the tally reads a ballot."""
        found = read_knife(text)
        if found is None:
            return _NO_INTENT
        choice, fragment = found
        if choice == "knife":
            return Reading("vote", self.defender, fragment=fragment)
        if choice == "pass":
            return Reading("abstain", fragment=fragment)
        return Reading("ambiguous", fragment=fragment, detail="knife,pass")


def _name_table(roster: Roster) -> dict[str, tuple[int | None, str | None]]:
    """Normalised name -> (seat, outsider): names, aliases, former holders, then outsiders.

    An earlier kind of name wins a clash with a later one.
    """
    table: dict[str, tuple[int | None, str | None]] = {}
    players = roster.players
    for names in (
        [(p.name, p.seat) for p in players],
        [(a, p.seat) for p in players for a in p.aliases],
        [(f.name, p.seat) for p in players for f in p.former],
    ):
        for name, seat in names:
            table.setdefault(fold(name), (seat, None))
    for name in (*roster.judges, *roster.substitutes):
        table.setdefault(fold(name), (None, name))
    table.pop("", None)
    return table


def _alternation(names: dict[str, tuple[int | None, str | None]]) -> re.Pattern[str]:
    """One regex matching any of ``names``, longest first; a name ending in a latin
    letter or digit must not run on into another one (meer is not meer2)."""
    alternatives = [
        re.escape(name) + ("(?![0-9a-z_])" if name[-1].isascii() and name[-1].isalnum() else "")
        for name in sorted(names, key=len, reverse=True)
    ]
    return re.compile("|".join(alternatives) or "(?!)")


def _seat_number(seat: re.Match[str]) -> int:
    """The number of a seat match: arabic digits or a Chinese numeral up to 九十九."""
    if seat.group("arabic"):
        return int(seat.group("arabic"))
    numeral = seat.group("chinese")
    if "十" not in numeral:
        return _CHINESE_DIGITS[numeral]
    tens, _, ones = numeral.partition("十")
    return _CHINESE_DIGITS.get(tens, 1) * 10 + _CHINESE_DIGITS.get(ones, 0)


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] == " ":
        pos += 1
    return pos


def _looks_like_name(token: str) -> bool:
    """Latin, digits or emoji are a name; Chinese must not start like talk (投票截止)."""
    return not _CJK.search(token) or token[0] not in _TALK_START


def _resolve(intents: list[_Intent]) -> Reading:
    """One reading from a post's intents.

    A vote change (改投/改票) in the post sets aside its other intents: the rule
    (允许改票，但必须重新发帖) asks for a new post, and this post is one; two
    different known targets (or a target and an abstain) are ambiguous; unknown
    names only count when nothing known was read.
    """
    if any(i.change for i in intents):
        intents = [i for i in intents if i.change]
    known: dict[str, _Intent] = {}
    for intent in intents:
        if intent.kind != "unknown":
            known.setdefault(intent.label, intent)
    if len(known) > 1:
        fragments = dict.fromkeys(i.fragment for i in known.values())
        return Reading("ambiguous", fragment=" | ".join(fragments), detail=",".join(known))
    if known:
        (intent,) = known.values()
        if intent.kind == "abstain":
            return Reading("abstain", fragment=intent.fragment)
        return Reading("vote", intent.seat, intent.outsider, fragment=intent.fragment)
    first = intents[0]
    return Reading(
        "unknown_target",
        fragment=first.fragment,
        suggestion=first.suggestion,
        detail=first.token,
        writer=first.writer,
    )
