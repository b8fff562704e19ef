"""What may never be posted: a private text of the game, or a living player's role.

A post goes out only when, read the way the board shows it — BBCode tags and HTML
character references rendered away, then folded (``killmod.core.names.fold``: NFKC, case,
traditional as simplified, zero-width and other format characters dropped) with every
space removed — it carries

- none of the private templates' fixed lines (``killmod.announce.render.private_marks``:
  a notice, the lots, the judge's night, what ``--print-secrets`` prints); and
- while the game is not over, no living player next to his role: on one line, his seat
  (``5号``, ``五号``, ``5#``, ``#5``), name or alias, then his role (or the role, then
  him) with at most ``PAIR_GAP`` characters between them, none of them another player or
  the end of a clause (``。；！？`` or a closing bracket): ``你是 5 号，身份是【杀手】``,
  ``杀手：5号``, ``5#：杀手``.  Names are read first, so a role inside a name (狼人杀手)
  is no role.

So a notice with a zero-width space inserted, converted to traditional characters, or with
``[b][/b]`` between its characters is refused as the notice itself is.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from killmod.announce.render import private_marks
from killmod.core.errors import BadInput
from killmod.core.model import Roster
from killmod.core.names import fold

PAIR_GAP = 12  # characters between a player and his role that still pair them (one clause)
_TAG = re.compile(r"\[/?[A-Za-z*]+(?:=[^\[\]\n]*)?\]")
_SPACE = re.compile(r"\s+")
_DIGITS = "零一二三四五六七八九"
# Where a clause ends: a player and a role on either side are not paired.
_CLAUSE_ENDS = "。；;！!？?）)】」』"


def shown(text: str) -> str:
    """``text`` as compared: tags and character references rendered away, folded, no spaces."""
    return _SPACE.sub("", fold(html.unescape(_TAG.sub("", text))))


def refuse_private(
    text: str, templates: Path | None = None, roster: Roster | None = None, *, over: bool = False
) -> None:
    """A ``BadInput`` when ``text`` carries a private text, or (``roster`` given, the game not
    ``over``) pairs a living player with his role; see the module."""
    seen = shown(text)
    for mark in private_marks(templates):
        if shown(mark) and shown(mark) in seen:
            raise BadInput(
                f"要发的内容里有保密内容的字样（「{mark}」）：站内短信、签位、夜晚的结算、"
                "--print-secrets 打印的内容都不能发到论坛。只发命令打印的公告。什么也没有发出。"
            )
    if roster is None or over:
        return
    paired = next(filter(None, (_paired(shown(line), roster) for line in text.splitlines())), None)
    if paired is not None:
        seat, role = paired
        player = roster.seat(seat)
        raise BadInput(
            f"要发的内容把存活的 {seat}号 {player.name} 和他的身份「{role}」写在了一起："
            "活着的玩家的身份不能发到论坛。什么也没有发出。"
        )


def _paired(seen: str, roster: Roster) -> tuple[int, str] | None:
    """The first living player (seat, role) the line ``seen`` names next to his role, if any."""
    marked = seen
    names = sorted(
        ((shown(name), p.seat) for p in roster.players for name in (p.name, *p.aliases)),
        key=lambda item: -len(item[0]),
    )
    for name, seat in names:
        if name:
            marked = marked.replace(name, f"\x00{seat}\x01")
    for seat in {p.seat for p in roster.players}:
        for form in (str(seat), _chinese(seat)):
            marked = re.sub(rf"(?<![\d\x00{_DIGITS}十]){form}号", f"\x00{seat}\x01", marked)
        # 5# and #5, as forum players write a seat
        marked = re.sub(rf"(?<![\d\x00#]){seat}#|#{seat}(?![\d号])", f"\x00{seat}\x01", marked)
    for player in roster.living:
        role = shown(player.role or "")
        if not role:
            continue
        me = f"\x00{player.seat}\x01"
        gap = rf"[^\x00{_CLAUSE_ENDS}]{{0,{PAIR_GAP}}}?"
        if re.search(re.escape(me) + gap + re.escape(role), marked) or re.search(
            re.escape(role) + gap + re.escape(me), marked
        ):
            return player.seat, player.role
    return None


def _chinese(number: int) -> str:
    """A seat in Chinese numerals, as players write it: 五, 十二, 二十九."""
    tens, ones = divmod(number, 10)
    if number < 10:
        return _DIGITS[number]
    if number >= 100:
        return str(number)
    return f"{_DIGITS[tens] if tens > 1 else ''}十{_DIGITS[ones] if ones else ''}"
