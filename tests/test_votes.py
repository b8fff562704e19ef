"""Reading one post's text for one vote intent (docs/rules/1.2.md, rule 1.2 四 关于投票)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from killmod.ballots.votes import POINT, BallotReader, Reading
from killmod.core.model import FormerHolder, Player, Roster
from killmod.core.names import fold

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
    assert reader.read(text) == Reading("vote", seat, fragment=fold(text))


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
    assert reader.read("投5号") == Reading("vote", 5, fragment="投5号")
    assert reader.read("投meer").kind == "unknown_target"


# --- the pointing round of 1.0/2.0 (指认) ---------------------------------------------------

POINTING = BallotReader(ROSTER, POINT)


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
