"""A board's names as real players have them (issue 27), for the tests of how players write
and the ballots bench: a traditional name (歐逆醬), long names players shorten (红叶晚潇潇),
two names sharing their start (红叶晚潇潇, 红叶子), latin names with a shared part (sakyas,
ako, kingpin), a nickname's stem (咸鱼王)."""

from __future__ import annotations

REAL_NAMES = {
    1: "歐逆醬",
    2: "红叶晚潇潇",
    3: "sakyas",
    4: "ako",
    5: "kingpin",
    6: "咸鱼王",
    7: "红叶子",
    8: "Lisa",
    9: "月下独酌",
    10: "兵长",
    11: "小明",
    12: "Tommy",
    13: "路人丁",
    14: "夜猫子",
    15: "老王",
    16: "白开水",
}
