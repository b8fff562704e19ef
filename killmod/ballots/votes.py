"""Reading one post's text for one vote intent (README “Reading a ballot”, rule 1.2 section 四).

A ``BallotReader`` is built once per roster (and grammar: a day vote, or the
指认 of 1.0/2.0, which also reads 指认 6号 / 指6号) and reads each post's text into a
``Reading``: a vote for a seat (or for a judge or substitute, an *outsider*), an
abstain, a vote on someone else's behalf (proxy), an ambiguous post, a vote for a
name it does not know, or no intent at all.  It does not judge the post (dead
voter, late, edited, dead target…): the tally does.

Texts are compared after ``killmod.core.names.fold`` (NFKC, casefold, traditional
characters as simplified, one space for any run of whitespace), so ``５号`` is ``5号``,
``Ｍｅｅｒ`` is ``meer`` and ``歐逆醬`` is ``欧逆酱``.  A target is the longest seat, name,
alias or part of a living player's name or alias (≥ 2 letters) at its place; a part of
several players' names is ambiguous.  Each vote says how its target was read
(``Reading.read_as``), so that the audit shows every loose reading.  The decisions taken
on ambiguous phrasings are listed in docs/rules/1.2.md.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal, NamedTuple

from killmod.core.model import Roster
from killmod.core.names import fold, unscripted

ReadingKind = Literal["vote", "abstain", "proxy", "none", "ambiguous", "unknown_target"]
# How a vote's target was read: a seat number, a player's name, one of his aliases, the
# name of the seat's former holder, a part of one living player's name or alias, the
# writer himself (投我: the tally knows his seat); a judge's or substitute's name is
# ``name`` too.
ReadAs = Literal["", "seat", "name", "alias", "former", "part", "writer"]


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
    read ("5,7", "5,abstain"; a part of two players' names "5,7" with ``read_as``
    ``part``); for ``proxy``, the player voted for ("9 号").  For a ``vote``, ``detail``
    is the target as read, ``read_as`` how it was read, and ``script`` says the name was
    written in another script than the roster's (欧逆酱 for 歐逆醬).  ``follow`` says the
    post says 跟票 or 补票 (X: an invalid ballot); ``unvote`` that a post without any vote
    says unvote (撤票), which no rule set knows.
    """

    kind: ReadingKind
    target: int | None = None
    outsider: str | None = None
    fragment: str = ""
    suggestion: int | None = None
    detail: str = ""
    writer: bool = False
    read_as: ReadAs = ""
    script: bool = False
    follow: bool = False
    unvote: bool = False


_NO_INTENT = Reading("none")

# Between a verb and its target: spaces, colons, commas, brackets, quotes and dashes.
_SEP_CLASS = r"[\s:,、\[\]【】()<>《》\"'“”‘’「」『』~=→—-]*"
_SEP = re.compile(_SEP_CLASS)
_NAME_SEP = re.compile(r"[\s:\[\]【】()<>《》\"'“”‘’「」『』~=→—-]*")
_VERB_WORD = (
    r"(?:投一?票[给給]|投回|投[给給]|改回|改[投票]回?[为爲成到给給]?|票投[给給]?|跟票|补票|投票|投"
    r"|(?<![a-z])vote[sd]?(?![a-z])(?:\s?(?:for|to)(?![a-z]))?)"
)
# X 注意事项 11 “不得跟票或补票”: the verbs that make a ballot a 跟票 or 补票.
_FOLLOW = re.compile("跟票|补票")
# …and said as the verb's lead: 跟投5号, 跟着投5号, 补投5号.
_FOLLOW_LEAD = re.compile("(?:跟着?|补)$")
# Taking a vote back (forum players' unvote): no rule set has it (docs/rules/1.2.md).
_UNVOTE = re.compile(r"(?<![a-z])unvote[sd]?(?![a-z])|撤票|(?:取消|撤回|撤销|收回)了?(?:投|票)")
# BBCode a board left as text ([b]vote: ako[/b]): the tags are no part of a ballot.
_MARKUP = re.compile(r"\[/?(?:b|i|u|s|color|size|font|align|backcolor)(?:=[^\]\[]*)?\]")
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


# A day vote (1.2, V4.0, X).
VOTE = _grammar(_VERB_WORD, "投改票跟补v弃棄放a")


@cache
def point_grammar() -> Grammar:
    """The pointing round's grammar (1.0/2.0 指认, which also reads 投), compiled when first
    asked for, like the night's: a day vote reads none of it (1.3 ms of a command's start)."""
    return _grammar(rf"(?:{_POINT_WORD}|{_VERB_WORD})", "投改票跟补v弃棄放a指")


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
# 不得不 (have to) are not negations.  Taking a vote back (取消投5号, 撤回投5号的票) is one:
# an unvote, no vote for 5 (``_UNVOTE``).
_TAKING_BACK = r"(?:取消|撤回|撤销|收回)了?"
_NEGATION = re.compile(
    r"(?:(?<![要得])(?:不|别|別|没|沒|勿|莫)"
    rf"(?:要|会|會|能|想|该|該|用|必|再|准|準|可以|应该|應該|打算)?|{_TAKING_BACK})\s*$"
)
# 不投 / 不想投 without a target is an abstain (今天不投，等遗言).
_REFUSAL = re.compile(r"(?<![要得])不想?\s*$")
_NEGATION_WINDOW = 8
# Someone else's words in quotation marks (他说“投5号”): reported speech, no ballot.
_REPORTED = re.compile(
    r"(?:说|說|讲|講|问|問|道|写|寫|喊)[:：]? ?(?:“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\")"
)
_QUOTES = ("“", "「", "『", '"')
# A question about a vote is no vote: 要不要投5号, 是不是该投5号了, 投5号？, 投5号吗.  要不投5号吧
# (how about) is no question.  Every asking word has 不: the window is searched only then.
_ASKING = re.compile(r"(?:要不要|该不该|該不該|是不是|能不能|会不会|會不會|可不可以|用不用).{0,2}$")
_ASKED = re.compile(r" ?(?:\?|[吗嗎么麼])")
_WRITER = re.compile(r"我自己|自己|本人|我(?![们們])|(?:me|myself)(?![a-z])")
# Proxy markers; the bare ones also make 代投 / 替投 / 代为投 a proxy.
_PROXY = re.compile(r"代替|替代|代表|代为|代爲|帮忙|幫忙|替|帮|幫|代")
_BARE_PROXY = frozenset({"代", "替", "代替", "替代", "代为", "代爲"})
_PRONOUN = re.compile(r"他们|她们|他們|她們|他|她|它|ta(?![a-z])|别人|別人|朋友|队友|隊友")
_PRONOUN_OR_WRITER = re.compile(f"(?:{_WRITER.pattern})|(?:{_PRONOUN.pattern})")
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
_FILLER = " ,.!?;:~。、'\"“”‘’()[]【】<>《》=*-#"
# A name ending in a latin letter or digit does not run on into more of them (meer2).
_RUN_ON = re.compile("[0-9a-z_]")
# The latin start of a token: glued to Chinese talk, the name (vote:kp希望你是兵长 names kp).
_LATIN_RUN = re.compile("[0-9a-z_]+")
# The words of the game: every rule set's roles and camps (tests check the rule sets' roles
# are here) and the judge.  投杀手 means the role, not 杀手不太冷: no part of a name.
GAME_WORDS = frozenset(
    (
        *("杀手", "水民", "检查官", "平民", "警察", "医生", "狙击手", "花蝴蝶", "森林老人"),
        *("好人", "坏人", "杀手方", "好人方", "警民", "法官", "替补"),
    )
)
# A verb chain ending in the latin ``vote``: talk may be glued on after the part of a name
# it names (vote:红叶晚希望你是兵长), as forum players write it.
_LATIN_VOTE = re.compile(r"vote[sd]?(?:\s?(?:for|to))?$")
# At least this many letters (Chinese characters or latin letters) make a part of a name.
_PART_LETTERS = 2


class _Target(NamedTuple):
    """A recognized target at ``start:end`` of the text, and how it was read.

    ``written`` are the roster's texts the target is (a name: the name as the roster
    writes it; a part: the names and aliases of its player).  A part of several living
    players' names has no ``seat`` but their ``seats``.
    """

    start: int
    end: int
    seat: int | None
    outsider: str | None = None
    read_as: ReadAs = "seat"
    written: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()


class _Intent(NamedTuple):
    """One vote intent found in a post (a tuple: a tally builds thousands).

    ``parts``: a part of several players' names (their seats in ``target.seats``).
    """

    kind: Literal["vote", "abstain", "unknown", "parts"]
    fragment: str
    seat: int | None = None
    outsider: str | None = None
    token: str = ""
    suggestion: int | None = None
    writer: bool = False
    change: bool = False
    target: _Target | None = None

    @property
    def label(self) -> str:
        """How the intent's target is listed in an ambiguous post's detail."""
        if self.kind == "abstain":
            return "abstain"
        if self.kind == "parts":
            return ",".join(str(seat) for seat in self.target.seats)
        if self.outsider is not None:
            return self.outsider
        return str(self.seat) if self.seat is not None else self.token


class _Known(NamedTuple):
    """A name the roster knows (folded): whose it is and how the roster writes it."""

    seat: int | None
    outsider: str | None
    read_as: ReadAs
    written: str


class BallotReader:
    """Reads post texts for vote intents against one roster, with ``grammar``'s verbs.

    ``bare``: a post that is nothing but a target is a vote for it (a ballot); a night
    action (``night_grammar``) names its verb.  Everything the reading looks names up in
    is made here, once per roster: the names and aliases (one regular expression, longest
    first) and every part of a living player's name or alias (a table by the part's text:
    a lookup per length tried, however long the thread).  A reading depends on the text
    alone, so each text is read once: a long thread repeats its short ballots (投5号, 弃权)
    thousands of times, and a repeated one costs a dictionary look-up.
    """

    def __init__(self, roster: Roster, grammar: Grammar = VOTE, *, bare: bool = True) -> None:
        self._grammar = grammar
        self._read_bare = bare
        self._seats = frozenset(p.seat for p in roster.players)
        self._names = _name_table(roster)
        self._player_names = {n: k.seat for n, k in self._names.items() if k.seat is not None}
        self._name_re = _alternation(self._names)
        self._written = {
            p.seat: (p.name, *p.aliases) for p in roster.players if p.alive
        }  # a living player's names as the roster writes them
        self._living = [
            (fold(text), seat) for seat, texts in self._written.items() for text in texts
        ]
        self._parts = _part_table(self._living)
        self._part_max = max(map(len, self._parts), default=0)
        self._readings: dict[str, Reading] = {}

    def read(self, text: str) -> Reading:
        """Read one post's text for its one vote intent."""
        reading = self._readings.get(text)
        if reading is None:
            reading = self._readings[text] = self._read(text)
        return reading

    def _read(self, text: str) -> Reading:
        norm = _MARKUP.sub("", fold(text))
        if not norm:
            return _NO_INTENT
        proxy = self._proxy(norm)
        if proxy is not None:
            return proxy
        intents, follow = self._intents(norm)
        if intents:
            reading, chosen = _resolve(intents)
        else:
            reading, chosen = (self._bare(norm) if self._read_bare else None) or (None, None)
            if reading is None:
                unvote = _UNVOTE.search(norm)
                return (
                    Reading("none", fragment=unvote.group(), unvote=True) if unvote else _NO_INTENT
                )
        if chosen is not None and reading.kind == "vote":  # made anew: replace() is slower
            return Reading(
                "vote",
                reading.target,
                reading.outsider,
                fragment=reading.fragment,
                detail=norm[chosen.start : chosen.end],
                read_as=reading.read_as,
                script=chosen.read_as != "seat" and self._script(text, norm, chosen),
                follow=follow,
            )
        return replace(reading, follow=True) if follow else reading

    def _target_at(self, text: str, pos: int) -> _Target | None:
        """The seat, known name or part of a name starting at ``pos``; the longest wins.

        On a tie (a name made of digits) the seat number wins when the seat exists; a
        whole name or alias wins over a part of another one as long.
        """
        found = None
        name = self._name_re.match(text, pos)
        if name:
            known = self._names[name.group()]
            found = _Target(
                pos, name.end(), known.seat, known.outsider, known.read_as, (known.written,)
            )
        seat = _SEAT.match(text, pos)
        if seat:
            number = _seat_number(seat)
            if (
                found is None
                or seat.end() > found.end
                or (seat.end() == found.end and number in self._seats)
            ):
                found = _Target(pos, seat.end(), number)
        part = self._part_at(text, pos, found.end - pos if found else _PART_LETTERS - 1)
        return part or found

    def _part_at(self, text: str, pos: int, shorter: int) -> _Target | None:
        """The longest part of a living player's name or alias at ``pos`` that is longer
        than ``shorter`` characters; a part ending in a latin letter or digit must not run
        on into more of them."""
        for length in range(min(self._part_max, len(text) - pos), shorter, -1):
            piece = text[pos : pos + length]
            seats = self._parts.get(piece)
            if seats is None:
                continue
            end = pos + length
            if piece[-1].isascii() and piece[-1].isalnum() and _RUN_ON.match(text, end):
                continue
            if len(seats) > 1:
                return _Target(pos, end, None, read_as="part", seats=seats)
            written = self._written[seats[0]]
            if any(_typo(text, pos, piece, fold(name)) for name in written):
                return None
            return _Target(pos, end, seats[0], read_as="part", written=written)
        return None

    def _script(self, text: str, norm: str, target: _Target) -> bool:
        """Whether the target was written in another script than any roster text it reads
        as (欧逆酱 for 歐逆醬, 红叶 for 紅葉晚瀟瀟): compared before the traditional-to-simplified
        step, span for span (``unscripted`` has the folded text's length)."""
        if norm.isascii():
            return False
        plain = _MARKUP.sub("", unscripted(text))
        if len(plain) != len(norm):
            return False
        said = plain[target.start : target.end]
        read = norm[target.start : target.end]
        for written in target.written:
            whole, kept = fold(written), unscripted(written)
            if len(whole) != len(kept):
                return False
            at = whole.find(read)
            while at >= 0:
                if kept[at : at + len(read)] == said:
                    return False
                at = whole.find(read, at + 1)
        return bool(target.written)

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

    def _intents(self, text: str) -> tuple[list[_Intent], bool]:
        """Every vote and abstain intent of the text, in order, and whether a verb of it
        that is not negated says 跟票 or 补票.

        Rule 1.2 补充说明 4: 所有存活玩家投票.可弃权 — and (3): 玩家可以投弃权票.
        """
        intents: list[_Intent] = []
        pos, pending_change, follow = 0, False, False
        quoting = any(mark in text for mark in _QUOTES)
        reported = [m.span() for m in _REPORTED.finditer(text)] if quoting else []
        while cue := self._grammar.cue.search(text, pos):
            quoted = next((end for start, end in reported if start < cue.start() < end), None)
            if quoted is not None:  # 他说“投5号”: his words, not the writer's ballot
                pos = quoted
                continue
            if cue.lastgroup == "abstain":
                intents.append(_Intent("abstain", cue.group(), change=pending_change))
                pos, pending_change = cue.end(), False
                continue
            negated = _negated(text, cue.start())
            comma = cue.group().find(",")
            if negated and comma > 0:  # 不跟票，投5号: the negation ends at the comma
                pos = cue.start() + comma + 1
                continue
            found, pos = self._clause(text, cue)
            follow = follow or (not negated and _FOLLOW.search(cue.group()) is not None)
            lead = _FOLLOW_LEAD.search(text, max(0, cue.start() - 2), cue.start())
            follow = follow or (lead is not None and not _negated(text, lead.start()))
            change = pending_change or "改" in cue.group()
            intents.extend(i._replace(change=True) if change else i for i in found)
            # 改票了，投7号: a change verb without a target marks the next clause.
            pending_change = change and not found
        return intents, follow

    def _clause(self, text: str, verb: re.Match[str]) -> tuple[list[_Intent], int]:
        """The intents of one verb clause and where the clause ends."""
        start = verb.start()
        window = max(0, start - _NEGATION_WINDOW)
        before = text[window:start]
        glued = _LATIN_VOTE.search(verb.group()) is not None
        choices, end = self._choices_after(text, verb.end(), glued)
        negation = _NEGATION.search(before)
        if negation:
            if choices or not verb.group().startswith("投") or not _REFUSAL.search(before):
                return [], end
            return [_Intent("abstain", text[window + negation.start() : verb.end()])], end
        if ("不" in before and _ASKING.search(before)) or (choices and _ASKED.match(text, end)):
            return [], end
        if choices:
            return [choice._replace(fragment=text[start:end]) for choice in choices], end
        if verb.group() == _BARE_POINT:
            return [], end
        unknown = self._unknown_at(text, verb.end(), start)
        return ([unknown] if unknown else []), end

    def _choices_after(self, text: str, pos: int, glued: bool = False) -> tuple[list[_Intent], int]:
        """The targets and abstains named from ``pos`` on (投3或者5 names two); ``glued``:
        a part of a name may have talk glued on after it (after ``vote``)."""
        choices: list[_Intent] = []
        while choice := self._choice_at(text, pos, glued):
            intent, pos = choice
            choices.append(intent)
            connector = _CONNECTOR.match(text, pos)
            if connector is None:
                break
            pos = connector.end()
        return choices, pos

    def _choice_at(self, text: str, pos: int, glued: bool) -> tuple[_Intent, int] | None:
        """A target or an abstain word (投弃权票) right after ``pos`` and where it ends.

        A name may start with a bracket ([狼]人), so the text is tried before the
        separators are skipped.  A part of a name followed by more letters is read only
        when ``glued`` (``vote:红叶晚希望你是兵长``); after a Chinese verb it is talk
        (``投票今天截止``, ``我投票明天再说``), not a part of 今天吃什么 or 明天会更好.
        """
        for at in dict.fromkeys((_skip_spaces(text, pos), _SEP.match(text, pos).end())):
            target = self._target_at(text, at)
            if target and target.read_as == "part" and not glued and _runs_on(text, target.end):
                target = None
            if target:
                kind = "parts" if target.seats else "vote"
                intent = _Intent(kind, "", target.seat, target.outsider, target=target)
                return intent, target.end
            abstain = _ABSTAIN.match(text, at)
            if abstain:
                return _Intent("abstain", ""), abstain.end()
        return None

    def _unknown_at(self, text: str, pos: int, start: int) -> _Intent | None:
        """A name-like token after a verb that matches no one, or the writer (投我).

        Unlike a known target, it must not follow a comma: 大家快投票，等结果 is talk.  A
        latin token glued to Chinese talk is the latin part (vote:kp希望你是兵长: kp).
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
        latin = _LATIN_RUN.match(core)
        if latin and _CJK.match(core, latin.end()):
            core = latin.group()
        core = core.rstrip("#*~=-")
        if not core or len(core) > _NAME_MAX or core[0].isdigit():
            return None
        suggestion, core = self._nearest(core)
        if suggestion is None and not _looks_like_name(core):
            return None
        fragment = text[start : pos + len(core)]
        return _Intent("unknown", fragment, token=core, suggestion=suggestion)

    def _nearest(self, token: str) -> tuple[int | None, str]:
        """The seat of the player whose name or alias ``token`` most likely means (never
        counted: a suggestion), and the token meant as his name.

        A name or alias close enough (difflib); else, for Chinese, the longest start of the
        token that is in one living player's name or alias and no other's (鱼 of 咸鱼王:
        vote:鱼希望你是兵长 means 鱼); else, for latin, a token whose letters come in order
        in one living player's name or alias and no other's, from its first (kp: kingpin).
        """
        close = difflib.get_close_matches(token, self._player_names, n=1, cutoff=_NEAR_MISS)
        if close:
            return self._player_names[close[0]], token
        if not _looks_like_name(token):
            return None, token
        if _CJK.match(token):
            for length in range(len(token), 0, -1):
                start = token[:length]
                seats = {seat for name, seat in self._living if start in name}
                if len(seats) == 1:
                    return seats.pop(), start
                if seats:
                    break
            return None, token
        seats = {seat for name, seat in self._living if _initials_of(token, name)}
        return (seats.pop(), token) if len(seats) == 1 else (None, token)

    def _bare(self, text: str) -> tuple[Reading, _Target] | None:
        """A post that is nothing but a target (5号！, meer, 五号, meer号) is a vote for it;
        one that asks (5号？) is not.

        A part of a name is no bare ballot: a post that is only ``ok``, ``路过`` or ``支持``
        is talk, whoever okami, 路过的酱油 or 支持正义 are (docs/rules/1.2.md)."""
        stripped = text.strip(_FILLER)
        for candidate in dict.fromkeys((text, stripped, stripped.rstrip("号號").rstrip(_FILLER))):
            offset = text.find(candidate)
            if "?" in text[offset + len(candidate) :]:  # 5号？ asks
                continue
            target = self._target_at(candidate, 0)
            if target and target.end == len(candidate) and target.read_as != "part":
                target = target._replace(start=offset, end=offset + len(candidate))
                reading = Reading(
                    "vote", target.seat, target.outsider, fragment=candidate, read_as=target.read_as
                )
                return reading, target
        return None


# The knife phase (1.0/2.0 动刀): 动刀 / 刀 / 杀 / 举手 / knife, and 过 / 不杀 / 不动刀 / 不刀 /
# 不举手 / pass — 1.0 “你觉得他是杀手就举手动刀。反之就不动”, 2.0 m) “动刀：指杀辩解者，过：指不杀
# 辩解者”.  A negation (不, 没, 别) before a knife word makes it a pass; 不过 (“but”) is no pass;
# 杀手 and 杀人 are talk, 自杀 and 暗杀 are not a knife.
_NOT = "不没沒别別"


@cache
def _knife_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The knife words and the pass words, compiled when a knife phase is first read."""
    knife = re.compile(
        rf"(?<![{_NOT}])(?:[动動]刀|[举舉]手)|(?<![{_NOT}动動])刀|(?<![{_NOT}自暗被])[杀殺](?![手人])"
        r"|(?<![a-z])knife(?![a-z])"
    )
    passed = re.compile(
        rf"[{_NOT}](?:[动動]刀?|刀|[杀殺]|[举舉]手)|(?<!不)[过過]|(?<![a-z])pass(?![a-z])"
    )
    return knife, passed


KnifeChoice = Literal["knife", "pass", "ambiguous"]


def read_knife(text: str) -> tuple[KnifeChoice, str] | None:
    """A knife-phase post's choice and the words read: 动刀/杀/举手, 过/不杀/不动刀, or both.

    ``None`` when the post says neither.
    """
    norm = fold(text)
    knife_words, pass_words = _knife_words()
    knife, passed = knife_words.search(norm), pass_words.search(norm)
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


def _name_table(roster: Roster) -> dict[str, _Known]:
    """Each folded name: players' names, aliases, former holders' names, then outsiders
    (judges and substitutes).

    An earlier kind of name wins a clash with a later one.
    """
    table: dict[str, _Known] = {}
    players = roster.players
    for names, read_as in (
        ([(p.name, p.seat) for p in players], "name"),
        ([(a, p.seat) for p in players for a in p.aliases], "alias"),
        ([(f.name, p.seat) for p in players for f in p.former], "former"),
    ):
        for name, seat in names:
            table.setdefault(fold(name), _Known(seat, None, read_as, name))
    for name in (*roster.judges, *roster.substitutes):
        table.setdefault(fold(name), _Known(None, name, "name", name))
    table.pop("", None)
    return table


def _alternation(names: dict[str, _Known]) -> re.Pattern[str]:
    """One regex matching any of ``names``, longest first; a name ending in a latin
    letter or digit must not run on into another one (meer is not meer2)."""
    alternatives = [
        re.escape(name) + ("(?![0-9a-z_])" if name[-1].isascii() and name[-1].isalnum() else "")
        for name in sorted(names, key=len, reverse=True)
    ]
    return re.compile("|".join(alternatives) or "(?!)")


def _part_table(living: list[tuple[str, int]]) -> dict[str, tuple[int, ...]]:
    """Every part of the living players' folded names and aliases → the seats whose names
    hold it.

    A part has at least two letters (Chinese characters or latin letters: ``sa`` of
    sakyas, 红叶 of 红叶晚潇潇; not ``a1``, not a number), does not start or end with a
    space, does not start like talk after a verb (投一个…), is no pronoun (``me`` of
    meer is the writer, 他们 of 他们说 someone else) and no word of the game (杀手 of
    杀手不太冷 is the role: ``GAME_WORDS``; docs/rules/1.2.md).  A
    whole name is a part too: it is a part of another name as well (阿狸 of 阿狸狸), and
    the reader reads a whole name first.
    """
    seats: dict[str, set[int]] = {}
    for name, seat in living:
        for start in range(len(name)):
            if name[start] == " " or name[start] in _TALK_START:
                continue
            letters = 0
            for end in range(start + 1, len(name) + 1):
                letters += name[end - 1].isalpha()
                if letters >= _PART_LETTERS and name[end - 1] != " ":
                    seats.setdefault(name[start:end], set()).add(seat)
    return {
        part: tuple(sorted(holders))
        for part, holders in seats.items()
        if not _PRONOUN_OR_WRITER.fullmatch(part) and part not in GAME_WORDS
    }


def _typo(text: str, pos: int, part: str, name: str) -> bool:
    """Whether the letters at ``pos`` are a slip of the pen for the rest of ``name`` from
    ``part`` on, rather than ``part`` with talk glued after it: as many letters as that
    rest, as close to it as a near miss, and then the end of the name as written (the
    end, or no letter but a particle: 投月下独饮 / 投月下独饮吧 for 月下独酌; 红叶晚希望你是兵长
    is 红叶晚 and talk)."""
    at = name.find(part)
    while at >= 0:
        rest = name[at:]
        end = pos + len(rest)
        written = text[pos:end]
        while end < len(text) and text[end] in _PARTICLES:
            end += 1
        if (
            written != rest
            and len(written) == len(rest)
            and written.isalpha()
            and (end == len(text) or not text[end].isalpha())
            and difflib.SequenceMatcher(None, written, rest).ratio() >= _NEAR_MISS
        ):
            return True
        at = name.find(part, at + 1)
    return False


def _initials_of(token: str, name: str) -> bool:
    """Whether the latin ``token``'s letters come in order in ``name``, from its first
    letter on (kp: kingpin; k: kingpin)."""
    if not token.isascii() or not name.startswith(token[0]):
        return False
    rest = iter(name)
    return all(letter in rest for letter in token)


def _runs_on(text: str, end: int) -> bool:
    """Whether a letter other than a particle follows ``end`` (talk glued on after it)."""
    return end < len(text) and text[end].isalpha() and text[end] not in _PARTICLES


def _negated(text: str, start: int) -> bool:
    """Whether a negation stands right before ``start`` (不跟票)."""
    return _NEGATION.search(text[max(0, start - _NEGATION_WINDOW) : start]) is not None


def reads_as_seat(text: str) -> int | None:
    """The seat number ``text`` reads as on its own (5, 5号, 五号), if it is one."""
    seat = _SEAT.fullmatch(fold(text))
    return _seat_number(seat) if seat else None


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


def _resolve(intents: list[_Intent]) -> tuple[Reading, _Target | None]:
    """One reading from a post's intents, and the target it read.

    A vote change (改投/改票) in the post sets aside its other intents: the rule
    (允许改票，但必须重新发帖) asks for a new post, and this post is one; two
    different known targets (or a target and an abstain), or a part of several players'
    names, are ambiguous; unknown names only count when nothing known was read.
    """
    if any(i.change for i in intents):
        intents = [i for i in intents if i.change]
    known: dict[str, _Intent] = {}
    for intent in intents:
        if intent.kind != "unknown":
            known.setdefault(intent.label, intent)
    parts = any(i.kind == "parts" for i in known.values())
    if len(known) > 1 or parts:
        fragments = dict.fromkeys(i.fragment for i in known.values())
        ambiguous = Reading(
            "ambiguous",
            fragment=" | ".join(fragments),
            detail=",".join(known),
            read_as="part" if parts else "",
        )
        return ambiguous, None
    if known:
        (intent,) = known.values()
        if intent.kind == "abstain":
            return Reading("abstain", fragment=intent.fragment), None
        vote = Reading(
            "vote",
            intent.seat,
            intent.outsider,
            fragment=intent.fragment,
            read_as=intent.target.read_as,
        )
        return vote, intent.target
    first = intents[0]
    unknown = Reading(
        "unknown_target",
        fragment=first.fragment,
        suggestion=first.suggestion,
        detail=first.token,
        writer=first.writer,
    )
    return unknown, None
