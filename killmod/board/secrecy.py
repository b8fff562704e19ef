"""What may never be posted: a private text of the game, or a living player's role.

A post goes out only when, read the way the board shows it — BBCode tags and HTML
character references rendered away, then folded (``killmod.core.names.fold``: NFKC, case,
traditional as simplified, zero-width and other format characters dropped) with every
space and line break removed — it carries

- none of the private templates' fixed lines (``killmod.announce.render.private_marks``:
  a notice, the lots, the judge's night, what ``--print-secrets`` prints);
- no salt of a lottery not drawn yet (``refuse_secrets``: its check string holds the lots);
- while the game is not over (then the roles are revealed, 揭秘, police checks included):
  no line of a private file of the game (``private_texts``: what its standing steps wrote
  — the notices, the lots until they are drawn, the judge's night…) that names a living
  player beside other words, read the same way: ``你的同伴：2号 玩家2、3号 玩家3`` alone is
  refused, a line that is only names (``5号 玩家5``) is no secret; and no living player
  next to his role: his seat (``5号``, ``五号``, ``5#``, ``#5``), name or alias, then his
  role (or the role, then him) with at most ``PAIR_GAP`` characters of the folded text
  between them, none of them another player or the end of a clause (``。；！？`` or a
  closing bracket) — a line break is no end of a clause, so ``1号`` and ``杀手`` on two
  lines pair as ``1号 杀手`` does: ``你是 5 号，身份是【杀手】``, ``杀手：5号``,
  ``5#：杀手``.  Names are read first, so a role inside a name (狼人杀手) is no role.

So a notice with a zero-width space inserted, converted to traditional characters, or with
``[b][/b]`` between its characters is refused as the notice itself is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from killmod.announce.render import private_marks
from killmod.core.errors import BadInput
from killmod.core.model import Roster
from killmod.core.names import fold

if TYPE_CHECKING:
    from killmod.game.store import Game

PAIR_GAP = 12  # characters between a player and his role that still pair them (one clause)
_TAG = re.compile(r"\[/?[A-Za-z*]+(?:=[^\[\]\n]*)?\]")
_SPACE = re.compile(r"\s+")
_DIGITS = "零一二三四五六七八九"
# Where a clause ends: a player and a role on either side are not paired.
_CLAUSE_ENDS = "。；;！!？?）)】」』"
_PLAYER = re.compile(r"\x00(\d+)\x01")  # a player marked in the folded text (``_marked``)
_ENDS = re.compile(r"^\W+|\W+$")  # a line's punctuation before and after its words


def shown(text: str) -> str:
    """``text`` as compared: tags and character references rendered away, folded, no spaces."""
    return _SPACE.sub("", fold(html.unescape(_TAG.sub("", text))))


def refuse_secrets(game: Game, text: str, templates: Path | None = None) -> None:
    """``refuse_private`` with what ``game`` knows: its roster, whether it is over, and its
    private files (``private_texts``); and a ``BadInput`` when ``text`` carries the salt of
    a lottery not drawn yet (its check string, ``killmod-lottery/1|…|<salt>``, holds the
    lots too)."""
    seen = shown(text)
    drawn = _drawn(game)
    for lottery in game.events("lottery"):
        salt = shown(lottery.data.get("salt") or "")
        if lottery.round not in drawn and salt and salt in seen:
            raise BadInput(
                f"要发的内容里有第 {lottery.round} 轮抽签的密钥：抽签之前，签位和密钥只给"
                "执行斑竹（或第三人），不能发到论坛。什么也没有发出。"
            )
    over = bool(game.events("game_over"))
    refuse_private(text, templates, game.roster(), over=over, private=private_texts(game))


def refuse_private(
    text: str,
    templates: Path | None = None,
    roster: Roster | None = None,
    *,
    over: bool = False,
    private: Mapping[str, str] | None = None,
) -> None:
    """A ``BadInput`` when ``text`` carries a private template's fixed line, or (``roster``
    given, the game not ``over``) a line of one of the ``private`` texts (by file) that names
    a living player, or a living player paired with his role; see the module."""
    seen = shown(text)
    for mark in private_marks(templates):
        if shown(mark) and shown(mark) in seen:
            raise BadInput(
                f"要发的内容里有保密内容的字样（「{mark}」）：站内短信、签位、夜晚的结算、"
                "--print-secrets 打印的内容都不能发到论坛。只发命令打印的公告。什么也没有发出。"
            )
    if roster is None or over:
        return
    for name, private_text in (private or {}).items():
        number = _private_line(seen, private_text, roster)
        if number is not None:
            raise BadInput(
                f"要发的内容里有本局私密文件 {name} 第 {number} 行的内容（它写着存活的玩家）："
                "站内短信、签位、夜晚的结算都不能发到论坛，哪怕只是其中一行。什么也没有发出。"
            )
    if over:
        return
    paired = _paired(seen, roster)
    if paired is not None:
        seat, role = paired
        player = roster.seat(seat)
        raise BadInput(
            f"要发的内容把存活的 {seat}号 {player.name} 和他的身份「{role}」写在了一起："
            "活着的玩家的身份不能发到论坛。什么也没有发出。"
        )


def private_texts(game: Game) -> dict[str, str]:
    """The game's private files as they stand, by path: what its standing steps wrote
    (``killmod.game.store.PRIVATE_FILES``), a lottery's lots left out once they are drawn
    (the draw's post shows them).  A file moved or removed since is not read."""
    from killmod.game.store import PRIVATE_FILES

    drawn = _drawn(game)
    kinds = {step.id: step.kind for step in game.steps()}
    texts: dict[str, str] = {}
    for event in game.events(PRIVATE_FILES):
        if kinds.get(event.step) == "lottery_make" and event.round in drawn:
            continue
        for name in event.data["files"]:
            try:
                texts[name] = Path(name).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return texts


def _drawn(game: Game) -> set[int]:
    """The rounds whose lottery is drawn: its lots and salt are public since."""
    return {event.round for event in game.events("lottery_reveal")}


def _private_line(seen: str, private_text: str, roster: Roster) -> int | None:
    """The number of the first line of ``private_text`` that names a living player beside
    other words and that the folded post ``seen`` holds (its punctuation at either end
    aside), if any."""
    living = {player.seat for player in roster.living}
    for number, line in enumerate(private_text.splitlines(), 1):
        folded = _ENDS.sub("", shown(line))
        if not folded or folded not in seen:
            continue
        marked = _marked(folded, roster)
        named = {int(seat) for seat in _PLAYER.findall(marked)}
        if named & living and any(char.isalnum() for char in _PLAYER.sub("", marked)):
            return number
    return None


def _marked(seen: str, roster: Roster) -> str:
    """The folded text ``seen`` with each player it names (name, alias or seat) replaced
    by ``\\x00<seat>\\x01``: names first, longest first, so a role inside a name is no role."""
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
    return marked


def _paired(seen: str, roster: Roster) -> tuple[int, str] | None:
    """The first living player (seat, role) the folded text ``seen`` names next to his
    role, if any: across line breaks, which folding removed."""
    marked = _marked(seen, roster)
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
