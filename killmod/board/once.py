"""Posting a form to the board so that it is done once: never twice, never lost.

The board answers a reply or a 站内短信 with its new id, or refuses it in its own words.
Two answers are no answer: a timeout (or a connection cut) after the form went out, and
a page that is neither (then the board may have done it).  ``submit_once`` posts the form,
and once more only when that cannot make a second copy:

- refused by flood control (两次发表间隔少于 N 秒 / 两次发送短消息太快): waited out (the
  seconds the board states, else the judge's interval) and posted once more;
- no answer: after the interval, the board is looked at (``find``: the thread's last page,
  the conversation); what is there is the one sent; what is not is posted once more;
- once an answer was lost, a refusal after it is checked on the board too: the lost one
  may be the post the board now refuses as a flood.

Refusals are ``BoardRefused``, with ``refusal``'s Chinese; an outcome still unknown after
the second try leaves the record ``sending``: the next run looks on the board first.  A
form the board took but holds for moderation (待审核) is neither done nor refused: ``held``
records it, and it is never posted again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from killmod.board.session import BoardOptions, BoardRefused, NotSent, Unknown
from scrapers.discuz_x_posting import Answer

_TAG = re.compile(r"\[/?[A-Za-z*]+(?:=[^\[\]\n]*)?\]")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Attempt:
    """How one form is posted and its outcome recorded.

    ``submit`` posts it; ``find`` looks for it on the board (its id, or None);
    ``done``/``failed`` record the outcome; ``refusal`` words a refusal; ``unknown``
    says what is unknown (and where to look) when nothing settles it; ``held`` records a
    form held for moderation (the board's answer) — without it, such an answer is read
    as any other.
    """

    submit: Callable[[], Answer]
    find: Callable[[], int | None]
    done: Callable[[int], None]
    failed: Callable[[str], None]
    refusal: Callable[[Answer], str]
    unknown: str
    id_key: str
    held: Callable[[Answer], None] | None = None


def submit_once(attempt: Attempt, options: BoardOptions) -> int | None:
    """Post ``attempt``'s form so that it is done once; returns the board's new id (None:
    held for moderation, recorded by ``attempt.held``, with no id given)."""
    uncertain = False
    answer = Answer("unknown", "", {})
    for tries in (1, 2):
        try:
            answer = attempt.submit()
        except NotSent as error:
            answer = Answer("error", error.message, {})
        except Unknown as error:
            answer = Answer("unknown", error.message, {})
        new_id = answer.values.get(attempt.id_key, "")
        if answer.kind == "held" and attempt.held is not None:
            attempt.held(answer)
            return int(new_id) if new_id.isdigit() else None
        if answer.kind in ("ok", "held") and new_id.isdigit():
            attempt.done(int(new_id))
            return int(new_id)
        refused = answer.kind in ("error", "system_error")
        if refused and not uncertain and not (is_flood(answer) and tries == 1):
            attempt.failed(answer.message)
            raise BoardRefused(attempt.refusal(answer))
        options.sleep(
            (flood_seconds(answer, options) if is_flood(answer) else options.interval) + 1
        )
        if uncertain or not refused:
            found = attempt.find()
            if found is not None:
                attempt.done(found)
                return found
        uncertain = uncertain or not refused
        if refused and tries == 2:
            attempt.failed(answer.message)
            raise BoardRefused(attempt.refusal(answer))
    raise BoardRefused(f"{attempt.unknown}（{answer.message}）")


def is_flood(answer: Answer) -> bool:
    """Whether the board refused for flood control (posts and messages alike)."""
    said = answer.message
    return "floodctrl" in answer.values or "间隔" in said or "太快" in said


def flood_seconds(answer: Answer, options: BoardOptions) -> float:
    """The seconds flood control asks for: as the board states them, else the interval."""
    stated = answer.values.get("floodctrl", "")
    return float(stated) if stated.isdigit() else options.interval


def comparable(text: str) -> str:
    """A text's words without BBCode tags and spaces: what the board shows of them (a post
    or a message found on the board is compared with the text sent by this)."""
    return _SPACE.sub("", _TAG.sub("", text))
