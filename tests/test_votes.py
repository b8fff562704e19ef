"""Reading one post's text for one vote intent (docs/rules/1.2.md, rule 1.2 四 关于投票)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from killmod.ballots.votes import BallotReader, Reading, point_grammar
from killmod.core.model import FormerHolder, Player, Roster
from killmod.core.names import fold
from tests.support.realnames import REAL_NAMES

CST = timezone(timedelta(hours=8))

NAMES = {
    1: "meer",
    2: "阿狸",
    3: "阿狸狸",
    4: "a.b*c",
    5: "[狼]人",
    6: "Big Cat",
    7: "(^_^)",
    8: "小明",
    9: "老王",
    10: "x+y?",
    11: "ＬＵＣＫＹ",
    12: "🐱猫",
    13: "风之子",
    14: "影子",
    15: "月下独酌",
    16: "1314",
}
ALIASES = {1: ("米尔",), 13: ("520",)}
DEAD = {9}
FORMER = {15: (FormerHolder("老李", until=datetime(2009, 7, 8, 12, 0, tzinfo=CST)),)}

ROSTER = Roster(
    players=tuple(
        Player(
            seat,
            name,
            aliases=ALIASES.get(seat, ()),
            alive=seat not in DEAD,
            former=FORMER.get(seat, ()),
        )
        for seat, name in NAMES.items()
    ),
    judges=("法官大人", "Judge*"),
    substitutes=("路人甲",),
)


@pytest.fixture(scope="module")
def reader() -> BallotReader:
    return BallotReader(ROSTER)


def cases(*rows: tuple) -> list:
    """Table rows ``(id, text, *expected)`` as pytest params named by their id."""
    return [pytest.param(*row[1:], id=row[0]) for row in rows]


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("digits", "投5", 5),
        ("digits-hao", "投5号", 5),
        ("traditional-hao", "投5號", 5),
        ("hash-after", "投 5#", 5),
        ("hash-before", "投#5", 5),
        ("full-width-digit", "投５号", 5),
        ("space-before-hao", "投 5 号", 5),
        ("ideographic-spaces", "投\u3000５\u3000号", 5),
        ("chinese-digit", "投五号", 5),
        ("chinese-ten", "投十号", 10),
        ("chinese-twelve", "投十二号", 12),
        ("chinese-twenty", "投二十号", 20),
        ("chinese-twenty-nine", "投二十九号", 29),
        ("liang-is-two", "投两号", 2),
        ("traditional-chinese-numeral", "投五號", 5),
        ("seat-not-in-game-is-still-read", "投99", 99),
        ("seat-zero", "投0号", 0),
    ),
)
def test_seat_number_forms_are_read_as_the_seat(reader: BallotReader, text: str, seat: int) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.fragment, reading.read_as) == (
        "vote",
        seat,
        fold(text),
        "seat",
    )


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("latin-name", "投meer", 1),
        ("casefolded", "vote MEER", 1),
        ("alias", "投给米尔", 1),
        ("longest-name-wins", "投阿狸狸", 3),
        ("shorter-name", "投阿狸", 2),
        ("dot-and-star-are-literal", "投a.b*c", 4),
        ("brackets-are-literal", "投[狼]人", 5),
        ("name-with-space", "投 BIG\u3000CAT", 6),
        ("parentheses-and-caret", "投 (^_^)", 7),
        ("plus-and-question-mark", "投x+y?", 10),
        ("full-width-name", "投lucky", 11),
        ("emoji-name", "投🐱猫", 12),
        ("name-starting-like-a-verb-compound", "投影子", 14),
        ("dead-player-for-the-tally-to-reject", "投老王", 9),
        ("former-holder-names-the-seat", "投老李", 15),
        ("digit-name-longer-than-a-seat", "投1314", 16),
        ("digit-alias-when-no-such-seat", "投520", 13),
        ("digit-name-tied-with-an-existing-seat-is-the-seat", "投12", 12),
        ("name-followed-by-talk", "投阿狸吧", 2),
        ("known-name-prefix-of-an-unknown-one", "投小明明", 8),
        ("quoted-name", "投“meer”", 1),
    ),
)
def test_names_and_aliases_are_matched_after_normalising(
    reader: BallotReader, text: str, seat: int
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.outsider) == ("vote", seat, None)


@pytest.mark.parametrize(
    "text",
    cases(
        ("dot-is-not-a-wildcard", "投axbbc"),
        ("latin-name-does-not-run-on", "投meer2"),
        ("spaces-are-part-of-the-name", "投bigcat"),
    ),
)
def test_names_match_literally_and_whole(reader: BallotReader, text: str) -> None:
    assert reader.read(text).kind == "unknown_target"


@pytest.mark.parametrize(
    ("text", "outsider"),
    cases(
        ("judge", "投法官大人", "法官大人"),
        ("judge-casefolded-with-star", "投JUDGE*", "Judge*"),
        ("substitute", "投路人甲", "路人甲"),
        ("bare-judge-name", "法官大人", "法官大人"),
    ),
)
def test_vote_for_a_judge_or_substitute_names_the_outsider(
    reader: BallotReader, text: str, outsider: str
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.outsider) == ("vote", None, outsider)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("tou", "投 3号", 3),
        ("toupiao-colon", "投票：5号", 5),
        ("toupiao-gei", "投票给5号", 5),
        ("tou-gei", "投给5号", 5),
        ("tou-gei-traditional", "投給 阿狸", 2),
        ("toupiao-gei-traditional", "投票給阿狸", 2),
        ("tou-yi-piao-gei", "投一票给5号", 5),
        ("gaitou", "改投7号", 7),
        ("gaitou-hui", "改投回5号", 5),
        ("touhui", "投回5号", 5),
        ("gaihui", "改回5号", 5),
        ("gaipiao", "改票 7号", 7),
        ("gaipiao-wei", "改票为7号", 7),
        ("gaipiao-then-tou", "改票：投 7号", 7),
        ("piaotou", "票投5号", 5),
        ("yi-piao-tou-gei", "一票投给5号", 5),
        ("genpiao", "跟票 3 号", 3),
        ("english-vote", "VOTE：５", 5),
        ("english-vote-for", "vote for meer", 1),
        ("english-voted", "I voted meer", 1),
        ("bracketed-target", "投【5号】", 5),
        ("bbcode-left-in-text", "[b]投4号[/b]", 4),
        ("markup-removed-by-scraper", "投4号", 4),
    ),
)
def test_each_vote_verb_reads_the_target_right_after_it(
    reader: BallotReader, text: str, seat: int
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("digit", "5", 5),
        ("digit-hao-exclaimed", "5号！！", 5),
        ("digit-space-hao", "5 号", 5),
        ("chinese-numeral", "五号。", 5),
        ("name", "meer", 1),
        ("name-with-filler", " Meer~", 1),
        ("name-with-trailing-hao", "meer号", 1),
        ("name-ending-in-punctuation", "x+y?", 10),
    ),
)
def test_bare_target_post_is_a_vote(reader: BallotReader, text: str, seat: int) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "kind", "seat"),
    cases(
        ("mention-without-verb", "7号狼面很大", "none", None),
        ("mention-then-vote", "7号狼面很大  投7", "vote", 7),
        ("mention-with-nbsp-then-vote", "7号狼面很大\xa0\xa0投7", "vote", 7),
        ("mention-of-other-seat-then-vote", "5号的逻辑有问题，投5", "vote", 5),
        ("vote-then-reason", "投 3号，发言太划水了", "vote", 3),
        ("reply-then-vote", "楼上说得对 但我还是投 3", "vote", 3),
        ("talk", "我是好人，昨晚什么也没看到", "none", None),
        ("question", "预言家跳一个？", "none", None),
        ("empty", "  ", "none", None),
    ),
)
def test_vote_inside_discussion_needs_a_verb(
    reader: BallotReader, text: str, kind: str, seat: int | None
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == (kind, seat)


@pytest.mark.parametrize(
    "text",
    cases(
        ("call-to-vote", "大家快投票啊"),
        ("question-about-deadline", "投票截止了吗"),
        ("deadline-statement", "投票截止"),
        ("time-is-not-a-seat", "投票 22:00截止"),
        ("floor-is-not-a-seat", "投5楼"),
        ("four-digits-are-not-a-seat", "投4567"),
        ("talk-after-a-comma", "大家快投票，等结果"),
        ("thread-title", "【第一天投票贴】"),
        ("verb-compound", "投降"),
        ("who-to-vote", "投谁好呢"),
        ("past-tense-report", "我投了5号"),
    ),
)
def test_verb_without_a_target_is_not_a_vote_intent(reader: BallotReader, text: str) -> None:
    assert reader.read(text) == Reading("none")


@pytest.mark.parametrize(
    "text",
    cases(
        ("qiquan", "弃权"),
        ("qipiao", "弃票"),
        ("qiquan-traditional", "棄權"),
        ("qipiao-traditional", "棄票"),
        ("butou", "不投"),
        ("butou-with-reason", "今天不投，等遗言"),
        ("bu-toupiao", "我不投票"),
        ("nobody", "谁都不投"),
        ("buxiang-tou", "不想投"),
        ("fangqi-toupiao", "放弃投票"),
        ("english", "ABSTAIN"),
        ("vote-abstain", "vote abstain"),
        ("tou-qiquan-piao", "投弃权票"),
        ("change-to-abstain", "改票：弃权"),
    ),
)
def test_abstain_forms(reader: BallotReader, text: str) -> None:
    assert reader.read(text).kind == "abstain"


@pytest.mark.parametrize(
    ("text", "principal"),
    cases(
        ("ti-seat-with-spaces", "替 9 号投 2 号（他掉线了）", "9 号"),
        ("bang-name", "帮meer投5", "meer"),
        ("bang-traditional", "幫meer投5", "meer"),
        ("dai-seat", "代9号投2号", "9号"),
        ("daibiao-seat", "代表3号投5号", "3号"),
        ("pronoun", "替他投5号", "他"),
        ("daitou", "代投", ""),
        ("daiwei-tou", "代为投5号", ""),
        ("with-own-vote-too", "投7号。另外替 9 号投 2 号", "9 号"),
    ),
)
def test_proxy_vote_rejects_the_whole_post(reader: BallotReader, text: str, principal: str) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.detail) == ("proxy", None, principal)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("tibu-is-a-substitute-not-a-proxy", "替补都满了，投5号", 5),
        ("daibiao-without-a-player", "我代表好人投5号", 5),
        ("bang-wo", "帮我投5号", 5),
        ("bangmang", "帮忙投5号", 5),
        ("bang-player-in-talk", "帮5号说话的人都可疑，投7号", 7),
    ),
)
def test_helping_words_without_a_vote_for_someone_are_not_proxy(
    reader: BallotReader, text: str, seat: int
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "detail"),
    cases(
        ("two-clauses", "投3号 投5号", "3,5"),
        ("either-or", "投3或者5", "3,5"),
        ("and", "投3号和5号", "3,5"),
        ("seat-and-name", "投5号 投meer", "5,1"),
        ("correction-in-the-same-post", "投5号（手滑，应该是投7）", "5,7"),
        ("vote-and-abstain", "投5号 弃权", "5,abstain"),
        ("vote-or-abstain", "投5号或者弃权", "5,abstain"),
        ("outsider-and-seat", "投法官大人 投5号", "法官大人,5"),
        ("two-changes", "改投5号 改投7号", "5,7"),
    ),
)
def test_two_different_targets_are_ambiguous(reader: BallotReader, text: str, detail: str) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.detail) == ("ambiguous", None, detail)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("repeated", "投5号，投5号", 5),
        ("seat-and-its-name", "投meer 投1号", 1),
        ("seat-and-its-alias", "投米尔或者1号", 1),
    ),
)
def test_same_target_twice_is_one_vote(reader: BallotReader, text: str, seat: int) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("gaitou-after-history", "原来投5号，改投7号", 7),
        ("gaipiao-then-new-vote", "原来投5号，我改票了，投7号", 7),
        ("history-after-change", "改投7号（之前投的5号）", 7),
    ),
)
def test_vote_change_in_the_post_sets_earlier_intents_aside(
    reader: BallotReader, text: str, seat: int
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "kind", "seat"),
    cases(
        ("not-this-but-that", "不投5号投7号", "vote", 7),
        ("do-not-then-vote", "不要投5号，投7号", "vote", 7),
        ("only-a-negation", "不投5号", "none", None),
        ("dont-vote-is-not-abstain", "别投票", "none", None),
        ("budebu-is-have-to", "不得不投5号", "vote", 5),
        ("yaobu-is-how-about", "要不投5号吧", "vote", 5),
    ),
)
def test_negated_vote_is_not_a_vote(
    reader: BallotReader, text: str, kind: str, seat: int | None
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target) == (kind, seat)


@pytest.mark.parametrize(
    ("text", "detail", "suggestion"),
    cases(
        ("typo-with-near-miss", "投月下独饮", "月下独饮", 15),
        ("latin-typo", "vote mere", "mere", 1),
        ("unknown-name", "投老张", "老张", None),
        ("unknown-name-before-particle", "投老张吧", "老张", None),
        ("unknown-latin", "vote xyz", "xyz", None),
        ("follow-the-post-above", "跟票楼上", "楼上", None),
    ),
)
def test_unknown_name_after_a_verb_is_unknown_target_with_a_suggestion(
    reader: BallotReader, text: str, detail: str, suggestion: int | None
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.target, reading.detail, reading.suggestion) == (
        "unknown_target",
        None,
        detail,
        suggestion,
    )


def test_unknown_name_is_set_aside_when_a_known_target_is_read(reader: BallotReader) -> None:
    reading = reader.read("投老张 投5号")
    assert (reading.kind, reading.target) == ("vote", 5)


@pytest.mark.parametrize(
    ("text", "detail"),
    cases(
        ("wo", "投我", "我"),
        ("ziji", "投自己", "自己"),
        ("vote-me-one", "投我一票", "我"),
        ("english-me", "vote me", "me"),
    ),
)
def test_vote_for_the_writer_is_left_to_the_tally(
    reader: BallotReader, text: str, detail: str
) -> None:
    reading = reader.read(text)
    assert (reading.kind, reading.detail, reading.writer) == ("unknown_target", detail, True)


@pytest.mark.parametrize(
    ("text", "fragment"),
    cases(
        ("vote", "7号狼面很大  投７号", "投7号"),
        ("chain", "改票：投 7号", "改票:投 7号"),
        ("abstain-by-negation", "今天不投，等遗言", "不投"),
        ("proxy", "替 9 号投 2 号（他掉线了）", "替 9 号投 2 号"),
        ("ambiguous", "投3号 投5号", "投3号 | 投5号"),
        ("bare", "5号！！", "5号"),
    ),
)
def test_fragment_is_the_normalised_text_read(
    reader: BallotReader, text: str, fragment: str
) -> None:
    assert reader.read(text).fragment == fragment


@pytest.mark.parametrize(
    ("text", "normalised"),
    cases(
        ("full-width", "Ｍｅｅｒ：５号", "meer:5号"),
        ("whitespace-runs", " 投\xa0\u3000 5号\n", "投 5号"),
        ("zero-width", "投\u200b5号", "投5号"),
    ),
)
def test_normalize_folds_width_case_and_whitespace(text: str, normalised: str) -> None:
    assert fold(text) == normalised


def test_a_roster_without_names_still_reads_seats() -> None:
    reader = BallotReader(Roster(players=()))
    reading = reader.read("投5号")
    assert (reading.kind, reading.target, reading.fragment) == ("vote", 5, "投5号")
    assert reader.read("投meer").kind == "unknown_target"


# --- the pointing round of 1.0/2.0 (指认) ---------------------------------------------------

POINTING = BallotReader(ROSTER, point_grammar())


@pytest.mark.parametrize(
    ("text", "kind", "target"),
    [
        ("指认 6号", "vote", 6),
        ("我指认3号", "vote", 3),
        ("指认：6号", "vote", 6),
        ("指6号", "vote", 6),
        ("指認 小明", "vote", 8),
        ("投5号", "vote", 5),  # the text calls the pointing 投票 too
        ("不指认3号，指认5号", "vote", 5),
        ("指认老张", "unknown_target", None),
        ("指出3号很可疑", "none", None),  # a bare 指 needs a known player right after it
        ("竖起一根手指", "none", None),
    ],
)
def test_the_pointing_reads_zhiren_forms(text, kind, target):
    """1.0 4.7 “任意指认一名心目中的杀手”."""
    reading = POINTING.read(text)
    assert (reading.kind, reading.target) == (kind, target)


@pytest.mark.parametrize("text", ["指认 6号", "指6号"])
def test_zhiren_is_no_ballot_in_a_day_vote(text):
    """X 术语 33 “指认：同‘验’”; 1.2 and V4.0 have no pointing."""
    assert BallotReader(ROSTER).read(text).kind == "none"


# --- real players' words (issue 27): scripts, parts of names, vote: inside chatter -------------

# The first ten of a board's names as players write them (``REAL_NAMES``), a nickname as alias.
PLAYERS = {seat: REAL_NAMES[seat] for seat in range(1, 11)}
WORDS = BallotReader(
    Roster(
        players=tuple(
            Player(seat, name, aliases=("小咸",) if seat == 6 else (), alive=seat != 10)
            for seat, name in PLAYERS.items()
        ),
        judges=("法官",),
    )
)


@pytest.mark.parametrize(
    ("text", "seat", "read_as", "detail", "script"),
    cases(
        ("simplified-for-a-traditional-name", "vote：欧逆酱", 1, "name", "欧逆酱", True),
        ("traditional-as-the-roster-writes-it", "vote：歐逆醬", 1, "name", "欧逆酱", False),
        ("traditional-for-a-simplified-name", "投紅葉晚瀟瀟", 2, "name", "红叶晚潇潇", True),
        ("mixed-scripts-in-one-name", "投紅叶晚潇潇", 2, "name", "红叶晚潇潇", True),
        ("part-of-a-name", "vote:红叶晚", 2, "part", "红叶晚", False),
        ("part-in-the-other-script", "vote:歐逆", 1, "part", "欧逆", False),
        ("part-of-a-traditional-name-in-simplified", "vote:欧逆", 1, "part", "欧逆", True),
        ("end-of-a-name", "投独酌", 9, "part", "独酌", False),
        ("latin-part", "vote saky", 3, "part", "saky", False),
        ("latin-part-of-two-letters", "vote:li", 8, "part", "li", False),
        ("alias", "投小咸", 6, "alias", "小咸", False),
        ("part-of-an-alias", "vote:鱼王", 6, "part", "鱼王", False),
        ("seat", "vote:4", 4, "seat", "4", False),
        ("whole-name-beats-a-longer-names-part", "vote:ako", 4, "name", "ako", False),
    ),
)
def test_names_read_across_scripts_and_from_a_part(text, seat, read_as, detail, script):
    """Issue 27.1–2: 歐逆醬 and 欧逆酱 are one name; a part of exactly one living player's
    name or alias is a vote for him, and the reading says how it was read."""
    reading = WORDS.read(text)
    assert (reading.kind, reading.target, reading.read_as, reading.detail, reading.script) == (
        "vote",
        seat,
        read_as,
        detail,
        script,
    )


@pytest.mark.parametrize(
    ("text", "detail"),
    cases(
        ("part-of-two-names", "vote:红叶", "2,7"),
        ("part-of-two-names-in-traditional", "投紅葉", "2,7"),
        ("latin-part-of-two-names", "vote:sa", "3,8"),
        ("part-of-two-names-then-a-particle", "投红叶吧", "2,7"),
    ),
)
def test_a_part_of_several_names_is_ambiguous_and_names_them(text, detail):
    reading = WORDS.read(text)
    assert (reading.kind, reading.target, reading.detail, reading.read_as) == (
        "ambiguous",
        None,
        detail,
        "part",
    )


@pytest.mark.parametrize(
    ("text", "token", "suggestion"),
    cases(
        ("one-letter-is-no-part", "vote:k", "k", 5),
        ("latin-part-running-on", "vote sakyax", "sakyax", 3),
        ("typo-for-the-rest-of-a-name", "投月下独饮", "月下独饮", 9),
        ("part-of-a-dead-players-name", "vote:兵长", None, None),
        ("nickname-by-initials", "vote kp", "kp", 5),
        ("nickname-glued-to-talk", "vote:kp希望你是兵长", "kp", 5),
        ("chinese-nickname-glued-to-talk", "vote:鱼希望你明天还在", "鱼", 6),
        ("one-character-nickname", "投鱼", "鱼", 6),
        ("unknown", "vote:老张", "老张", None),
    ),
)
def test_a_near_miss_or_a_nickname_is_a_suggestion_never_a_vote(text, token, suggestion):
    """A slip of the pen and a nickname nobody recorded are ``unknown_target``: the
    suggested seat is for the judge (killmod alias), never counted."""
    reading = WORDS.read(text)
    if token is None:  # 兵长 is dead: his whole name is read, and the tally rejects it
        assert (reading.kind, reading.target, reading.read_as) == ("vote", 10, "name")
        return
    assert (reading.kind, reading.detail, reading.suggestion) == (
        "unknown_target",
        token,
        suggestion,
    )


LONG_POST = (
    "昨天晚上的发言我看了好几遍，兵长的逻辑其实没问题，倒是红叶子一直在划水，"
    "ako的站边也很奇怪，前后矛盾。"
)


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("colon", "vote:ako", 4),
        ("full-width-colon", "vote：ako", 4),
        ("space", "vote ako", 4),
        ("capitals", "VOTE: Ako", 4),
        ("hashes", "## vote ako", 4),
        ("full-width-hashes", "＃＃vote:ako", 4),
        ("bbcode-around", "[b]vote: ako[/b]", 4),
        ("bbcode-inside", "vote:[b][color=red]ako[/color][/b]", 4),
        ("at-the-end-of-a-long-post", LONG_POST + "vote:ako", 4),
        ("at-the-start-of-a-long-post", "vote:ako\n" + LONG_POST, 4),
        ("in-the-middle-of-a-long-post", LONG_POST + "所以vote:ako，明天再看。" + LONG_POST, 4),
        ("talk-glued-on", "vote:ako希望你是兵长", 4),
        ("part-with-talk-glued-on", "vote:红叶晚希望你是兵长", 2),
        ("unvote-then-vote", "unvote: sakyas ## vote：欧逆酱", 1),
        ("unvote-hashes-then-vote", "##unvote\n##vote 红叶晚潇潇", 2),
        ("dash", "vote——ako", 4),
    ),
)
def test_vote_the_way_forum_players_write_it(text, seat):
    """Issue 27.3: ``vote:`` wherever it stands, however it is marked up, with talk glued on."""
    reading = WORDS.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    "text",
    [
        "unvote: sakyas",
        "##unvote",
        "UNVOTE",
        "撤票",
        "取消投5号",
        "撤回投5号的票",
        "我收回投ako的票",
        "取消了投票",
    ],
)
def test_an_unvote_alone_is_no_vote_and_says_so(text):
    """No rule set has a withdrawal: an unvote alone is no ballot (the tally keeps the
    earlier one, docs/rules/1.2.md)."""
    reading = WORDS.read(text)
    assert (reading.kind, reading.unvote) == ("none", True)


@pytest.mark.parametrize(
    ("text", "kind", "seat", "follow"),
    cases(
        ("genpiao", "跟票5号", "vote", 5, True),
        ("genpiao-name", "跟票 ako", "vote", 4, True),
        ("bupiao", "补票：5号", "vote", 5, True),
        ("bupiao-abstain", "补票 弃权", "abstain", None, True),
        ("genpiao-then-vote", "跟票，投5号", "vote", 5, True),
        ("not-following", "我不跟票，投5号", "vote", 5, False),
        ("gentou", "跟投5号", "vote", 5, True),
        ("following", "跟着投5号", "vote", 5, True),
        ("butou", "补投 ako", "vote", 4, True),
        ("not-gentou", "我不跟投，投5号", "vote", 5, False),
        ("plain-vote", "投5号", "vote", 5, False),
    ),
)
def test_genpiao_and_bupiao_are_read_as_votes_and_marked(text, kind, seat, follow):
    """X 注意事项 11 makes them invalid; the reader reads them and says so (``follow``)."""
    reading = WORDS.read(text)
    assert (reading.kind, reading.target, reading.follow) == (kind, seat, follow)


@pytest.mark.parametrize(
    ("text", "writer"),
    cases(
        ("pronoun-me-is-the-writer", "vote me", True),
        ("talk-start-is-no-part", "投一个吧", False),
    ),
)
def test_pronouns_and_talk_are_no_part_of_a_name(text, writer):
    """``me`` (of meer) is the writer; 一个 (of 一个人) starts like talk: neither is read
    as a part (a near miss may still be suggested, never counted)."""
    roster = Roster(players=(Player(1, "meer"), Player(2, "一个人")))
    reading = BallotReader(roster).read(text)
    assert (reading.kind, reading.writer) == ("unknown_target", writer)


def test_parts_are_looked_up_in_a_table_made_once_per_roster():
    """A part is a dictionary lookup per length tried: the table holds every part of the
    living players' names and aliases (precomputed), and nothing of the dead's."""
    table = WORDS._parts
    assert table["红叶"] == (2, 7)
    assert table["鱼王"] == (6,)
    assert "兵长" not in table  # 10 is dead
    assert "k" not in table and "a1" not in table


# Names that hold everyday words, as board names do: a part of them is also talk.
CHATTER = BallotReader(
    Roster(
        players=tuple(
            Player(seat, name)
            for seat, name in {
                1: "okami",
                2: "路过的酱油",
                3: "今天吃什么",
                4: "杀手不太冷",
                5: "小明",
                6: "明天会更好",
                7: "支持正义",
                8: "红叶晚潇潇",
                9: "红叶子",
            }.items()
        )
    )
)


@pytest.mark.parametrize(
    "text",
    [
        "ok",
        "OK!",
        "路过",
        "路过～",
        "支持！",
        "今天",
        "红叶晚",  # a part of one name: a judge would ask, not count
        "红叶",  # a part of two
    ],
)
def test_a_post_that_is_only_a_part_of_a_name_is_no_ballot(text):
    """A bare post is a ballot when it is a seat, a name or an alias (``5号！``, ``小明``);
    a post that is only a part of a name is talk (``ok`` is no vote for okami)."""
    assert CHATTER.read(text).kind == "none"


@pytest.mark.parametrize(
    ("text", "token", "suggestion"),
    cases(
        ("voting-ends-today", "投票今天截止，大家抓紧", "今天", 3),
        ("i-vote-tomorrow", "我投票明天再说", "明天", 6),
        ("the-role", "今天一定要投杀手！", "杀手", 4),
        ("the-role-after-vote", "vote 杀手", "杀手", 4),
        ("part-with-talk-after-a-chinese-verb", "投红叶晚希望你是兵长", "红叶晚", 8),
    ),
)
def test_a_part_of_a_name_that_is_talk_is_no_vote(text, token, suggestion):
    """A part of a name with talk glued on after a Chinese verb is talk (投票今天截止 is no
    vote for 今天吃什么); a word of the game is never a part (投杀手 means the role, not
    杀手不太冷).  Each is at most a suggestion, never counted."""
    reading = CHATTER.read(text)
    assert (reading.kind, reading.detail, reading.suggestion) == (
        "unknown_target",
        token,
        suggestion,
    )


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("part-at-the-end", "投红叶晚", 8),
        ("part-then-a-particle", "投红叶晚吧", 8),
        ("part-then-a-comma", "投红叶晚，明天见", 8),
        ("part-with-talk-after-vote", "vote:红叶晚希望你是兵长", 8),
        ("whole-name-of-everyday-words", "投今天吃什么", 3),
        ("bare-whole-name", "小明", 5),
    ),
)
def test_a_part_of_a_name_where_a_judge_reads_one_still_counts(text, seat):
    reading = CHATTER.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


def test_every_rule_sets_roles_are_words_of_the_game():
    """A role is never read as a part of a player's name (``GAME_WORDS``)."""
    from killmod.ballots.votes import GAME_WORDS
    from killmod.rules import RULE_SETS, rule_set

    for name in RULE_SETS:
        assert set(rule_set(name).ROLES) <= GAME_WORDS, name


@pytest.mark.parametrize(
    "text",
    [
        "投5号？",
        "投5号 ?",
        "投5号吗",
        "投ako么",
        "要不要投5号",
        "是不是该投5号了？",
        "大家觉得要不要vote ako?",
        "5号？",
        "ako？",
    ],
)
def test_a_question_about_a_vote_is_no_vote(text):
    """要不要投5号, 投5号？ ask; they cast nothing (the player's earlier ballot stands)."""
    assert WORDS.read(text).kind == "none"


@pytest.mark.parametrize(
    ("text", "seat"),
    cases(
        ("suggestion", "要不投5号吧", 5),
        ("exclaimed", "投5号！", 5),
        ("still", "我还是投5号", 5),
        ("asked-then-decided", "投5号？不，就投5号", 5),
        ("doubt-then-vote", "我不知道该不该投5号，最后还是投7号", 7),
    ),
)
def test_a_vote_after_a_question_or_with_a_particle_counts(text, seat):
    reading = WORDS.read(text)
    assert (reading.kind, reading.target) == ("vote", seat)


@pytest.mark.parametrize(
    ("text", "kind", "seat"),
    cases(
        ("reported", "他说“投5号”", "none", None),
        ("reported-then-talk", "3楼说“投5号”是开玩笑的吧", "none", None),
        ("reported-then-own-vote", "楼上说“投5号”，我不同意，投7号", "vote", 7),
        ("reported-latin", '他说"vote ako"，我不信', "none", None),
        ("reported-abstain", "他说：「弃权」", "none", None),
        ("own-vote-in-quotes", "我的票：“投5号”", "vote", 5),
        ("target-in-quotes", "投“ako”", "vote", 4),
    ),
)
def test_someone_elses_words_in_quotation_marks_are_no_ballot(text, kind, seat):
    """A quote without the board's quote box: 他说“投5号” reports someone's words."""
    reading = WORDS.read(text)
    assert (reading.kind, reading.target) == (kind, seat)
