"""The threads a game is played in, remembered in the game file: the game thread (游戏帖)
and each round's vote thread (投票帖).

Each is a ``thread`` event of a recorded step (``killmod thread``, ``killmod open
--thread``, ``killmod tally --record``): undoing the step forgets the address again, and
the latest standing one of a kind (and round) is the one remembered.  Commands that read
a thread (``tally``, ``watch``, ``lurkers``, ``audit``) take the remembered one when none
is given.  An address is kept as ``killmod.core.redact`` shows it (a login in it never is), and
a saved page or folder by its absolute path.

A thread is one thread whatever address names it (another page, another view, the rewritten
URL form, http or https: ``thread_key``), and it plays one part in a game: a thread the
file knows as the game thread or as another round's vote thread is refused as this round's
vote thread (``refuse_other_part``), before anything is recorded — counted as a vote,
the game thread's discussion would be read as fifteen self votes and their warnings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from killmod.core.errors import BadInput
from killmod.core.redact import HIDDEN, redact_url
from killmod.game.guards import next_day, refuse_if_over
from killmod.game.store import Game

GAME = "game"
VOTE = "vote"
KIND = "thread"


@dataclass(frozen=True)
class Threads:
    """The addresses remembered: the game thread, and the vote thread of each round."""

    game: str | None = None
    votes: dict[int, str] = field(default_factory=dict)

    def vote(self, round_no: int) -> str | None:
        """The vote thread of ``round_no``, if one is remembered."""
        return self.votes.get(round_no)

    def as_typed_here(self) -> Threads:
        """The same threads, a saved page near the current folder by its relative path (as
        a judge types it here)."""
        return Threads(
            _typed_here(self.game) if self.game else None,
            {n: _typed_here(address) for n, address in self.votes.items()},
        )


def _typed_here(address: str) -> str:
    """``address`` relative to the current folder when it is a local path under it or under
    its parent (``../examples/day1``); anything else as kept."""
    if "://" in address:
        return address
    try:
        relative = os.path.relpath(address)
    except ValueError:  # another drive
        return address
    return relative if relative.split(os.sep).count(os.pardir) <= 1 else address


def remembered(game: Game) -> Threads:
    """The threads the game file remembers (the latest standing address of each)."""
    game_thread, votes = None, {}
    for event in game.events(KIND):
        if event.data.get("thread") == GAME:
            game_thread = event.data["url"]
        elif event.round is not None:
            votes[event.round] = event.data["url"]
    return Threads(game_thread, votes)


def kept_address(source: str) -> str:
    """How an address is kept: a URL without its login, a local path made absolute."""
    if "://" not in source and os.path.exists(source):
        return str(Path(source).resolve())
    return redact_url(source)


def thread_key(address: str) -> str:
    """What names the thread at ``address`` whatever its form: a board's thread by its first
    page as the forum format writes it (any page, any view of a Discuz! X thread), without
    the scheme, the host in lower case; a saved page or folder by its absolute path."""
    kept = kept_address(address)
    if "://" not in kept:
        return kept
    import scrapers

    first = kept
    found = scrapers.views(kept, None)
    if found is not None:
        first = found.pages_url
    else:
        for scraper in scrapers.every():
            if scraper.matches(kept, ""):
                first = scraper.page_url(kept, 1)
                break
    parts = urlsplit(first)
    return urlunsplit(("", parts.netloc.lower(), parts.path, parts.query, ""))


def part_of(game: Game, address: str, round_no: int | None) -> str | None:
    """What the game file knows the thread at ``address`` as, other than ``round_no``'s vote
    thread (None: the game thread's part): the game thread, or another round's vote thread
    (remembered, or the source of its recorded tally); None when it plays no other part."""
    key = thread_key(address)
    known = remembered(game)
    if round_no is not None and known.game and thread_key(known.game) == key:
        return "游戏帖"
    votes = {n: url for n, url in known.votes.items()}
    for row in game.tallies():
        votes.setdefault(row["round"], row["source"])
    for number, url in sorted(votes.items()):
        if number != round_no and thread_key(url) == key:
            return f"第 {number} 轮的投票帖"
    return None


def refuse_other_part(game: Game, address: str, round_no: int | None) -> None:
    """Inside a step: ``address`` must not be a thread the game file knows in another part
    (``round_no``: as this round's vote thread; None: as the game thread)."""
    part = part_of(game, address, round_no)
    if part is None:
        return
    shown = kept_address(address)
    if round_no is None:
        raise BadInput(
            f"{shown} 是游戏文件记下的{part}，不能再记作游戏帖。网址弄错了？什么也没有记录。"
        )
    fix = (
        "如果记下的游戏帖本身不对，先用 killmod thread game 正确网址 改正它"
        if part == "游戏帖"
        else "一轮投票用一个专门的投票帖"
    )
    raise BadInput(
        f"{shown} 是游戏文件记下的{part}，不是第 {round_no} 轮的投票帖："
        f"网址弄错了？（{fix}。）什么也没有记录。"
    )


def remember(
    game: Game,
    source: str,
    *,
    thread: str,
    round_no: int | None = None,
    cause: dict | None = None,
) -> bool:
    """Inside a step: remember ``source`` as the game thread or the round's vote thread,
    unless it is the one remembered already; returns whether an event was written.
    ``cause`` goes into the event (a tally's id: its record replaced, it is voided too)."""
    address = kept_address(source)
    known = remembered(game)
    current = known.game if thread == GAME else known.vote(round_no or 0)
    if current == address:
        return False
    data = {"thread": thread, "url": address, **(cause or {})}
    game.record(round_no if thread == VOTE else None, KIND, None, data)
    return True


def set_thread(game: Game, source: str, *, thread: str, round_no: int | None = None) -> int | None:
    """Record, as a step of its own, the game thread or a round's vote thread (default: the
    round whose day comes next); returns the round of a vote thread."""
    if thread == VOTE:
        round_no = round_no or next_day(game)
    where = "游戏帖" if thread == GAME else f"第 {round_no} 轮的投票帖"
    with game.transaction(f"{where}：{kept_address(source)}", kind=KIND, round_no=round_no):
        refuse_if_over(game)
        refuse_other_part(game, source, round_no if thread == VOTE else None)
        if not remember(game, source, thread=thread, round_no=round_no):
            raise BadInput(f"{where}已经是 {kept_address(source)}，没有改动。")
    return round_no


def thread_or_remembered(
    game: Game | None, source: str | None, *, thread: str, round_no: int | None = None
) -> str:
    """``source`` when given, else the address the game file remembers; neither is bad input
    saying how to give one."""
    if source:
        return source
    where = "游戏帖" if thread == GAME else f"第 {round_no} 轮的投票帖"
    if game is None:
        raise BadInput(f"请给出{where}（网址、保存的网页或文件夹）。")
    known = remembered(game)
    address = known.game if thread == GAME else known.vote(round_no or 0)
    if address is None:
        command = (
            "killmod thread game 网址"
            if thread == GAME
            else f"killmod thread vote 网址 --round {round_no}"
        )
        raise BadInput(
            f"没有给出{where}，游戏文件 {game.path} 里也没有记下：请给出{where}的网址，"
            f"或先记下它（{command}）。"
        )
    if f"://{HIDDEN}@" in address:
        raise BadInput(
            f"游戏文件记下的{where} {address} 含登录信息（记录时已隐去）："
            "请在命令里重新给出完整网址。"
        )
    return address
