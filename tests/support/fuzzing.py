"""Mutation fuzzing of every scraper: pages the tests build, damaged, then read again.

Shared by ``tests/test_fuzz_scrapers.py`` (a bounded run) and ``bench/fuzz.py`` (a long run).

Every scraper reads pages of the demo vote thread as its board serves them (every page of
the thread, every charset or edition the page builders make).  A page is damaged by one of
four kinds of mutation, each at one random place:

``truncate``     the page is cut off at a random byte (and half the time closed again with
                 ``</body></html>``, as a browser saves a half-loaded page);
``drop_tag``     one tag (``<…>``, opening or closing) is removed;
``garble_attr``  one attribute is removed, renamed, or has part of its value replaced by junk;
``encoding``     the page's bytes and its declared charset disagree: the declaration is swapped
                 for another charset, or the text is re-encoded in another one.

and read again the way ``killmod`` reads a page (``killmod.fetch.pages.parse_page``).  What a
correct scraper does with the damaged page — the invariants checked, per kind:

1. It never fails with anything but a ``KillmodError`` (a clear message, no traceback).
2. When it does not fail, it finds the page's place in the thread unchanged (``page_no``,
   ``page_count``): a wrong page count silently skips pages.
3. When it does not fail, it returns exactly as many posts as the undamaged page, with the
   same post ids (for views without ids, the same positions): no post silently lost, none
   made up.
4. ``truncate`` and ``encoding``: when it does not fail, every post is exactly the undamaged
   page's post.  A cut-off page or a page read in the wrong charset must fail — it cannot
   be read right.
5. ``drop_tag`` and ``garble_attr``: when it does not fail, at most one post differs from the
   undamaged page's.  One damaged place may change how the post around it reads (a dropped
   ``<br>`` joins two lines, a dropped ``title`` leaves a relative time): that is what the
   damaged page says.  It may never change another post.
6. ``garble_attr`` of an ``id`` or ``class`` — the hooks scrapers find a post's parts by —
   leaves that post unchanged, or fails: a post whose author, time or text can no longer be
   found must not come out with an empty author or an empty text.  The one exception is the
   class of the board's edit notice (``i.pstatus``, phpBB's ``div.notice``): that element is
   the only mark of an edit, and a notice that lost its class reads as the same words typed
   by the player (which change nothing) — invariant 5 holds for it.

The page title is not checked (it is shown, never counted).  The ``encoding`` mutations pair
each charset with UTF-8: GBK bytes declared Big5 (or the reverse) decode without an error
into other Chinese characters, which no reader can tell from the bytes alone.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from killmod.core.errors import KillmodError
from killmod.core.model import Page
from killmod.fetch.http import Fetched
from killmod.fetch.pages import parse_page
from scrapers.profile import Profile, load_profile
from tests.support.pagebuilder import DEMO_TID, Site, demo_thread, discuz_x_site
from tests.support.pagebuilder_dz72 import dz72_site
from tests.support.pagebuilder_more import (
    as_board_shows,
    discuz_x_archiver_site,
    discuz_x_printable_site,
    phpbb_site,
    sohu_site,
    sohu_thread_id,
    tieba_site,
    with_time_style,
)

SHANGHAI = ZoneInfo("Asia/Shanghai")
PROFILES = Path(__file__).resolve().parents[2] / "examples" / "profiles"
KINDS = ("truncate", "drop_tag", "garble_attr", "encoding")
OUTCOMES = ("same", "one_changed", "error", "violation", "crash")

_TAG = re.compile(rb"<[^<>]*>")
_ATTRIBUTE = re.compile(rb"""\s([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("[^"]*"|'[^']*')""")
_META_CHARSET = re.compile(rb"(charset\s*=\s*[\"']?)([A-Za-z0-9_-]+)", re.IGNORECASE)
_JUNK = b"qzxjvk!~^"
_STRICT_ATTRIBUTES = (b"id", b"class")
# The classes of the boards' own edit notices (Discuz's i.pstatus, phpBB's div.notice): the
# only mark of an edit, so one that lost its class reads as text (invariant 6).
_EDIT_NOTICES = (b"pstatus", b"notice")


@dataclass(frozen=True)
class Subject:
    """One undamaged page of one scraper: its bytes as the board sends them."""

    scraper: str  # the scraper's NAME, or the profile's name
    label: str  # which page: "utf-8 page 2"
    url: str
    body: bytes
    header_charset: str | None
    charset: str  # what the bytes really are
    profile: Profile | None = None


@dataclass(frozen=True)
class Mutant:
    """A damaged page and where it was damaged."""

    kind: str
    body: bytes
    header_charset: str | None
    at: int  # byte offset of the damage in the undamaged page
    strict: bool  # invariant 6 applies
    note: str


@dataclass(frozen=True)
class Verdict:
    outcome: str  # one of OUTCOMES
    detail: str = ""


@dataclass
class Tally:
    """Outcomes counted per (scraper, kind), with the first examples of each violation."""

    counts: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, subject: Subject, mutant: Mutant, verdict: Verdict) -> None:
        self.counts[(subject.scraper, mutant.kind, verdict.outcome)] += 1
        if verdict.outcome in ("violation", "crash") and len(self.examples) < 200:
            self.examples.append(
                f"{subject.scraper} {subject.label} {mutant.kind} @{mutant.at} "
                f"({mutant.note}): {verdict.detail}"
            )


# --- the undamaged pages ----------------------------------------------------------------------


def _served(site: Site, path: str) -> tuple[bytes, str | None]:
    response = site(path)
    assert response.status == 200, (path, response.status)
    content_type = response.headers.get("Content-Type", "")
    found = re.search(r"charset=([\w-]+)", content_type)
    return response.body, found.group(1) if found else None


def subjects() -> list[Subject]:
    """Every scraper's pages of the demo thread (every page, every charset or edition)."""
    demo = demo_thread()
    made: list[Subject] = []

    def add(scraper, label, site, path, charset, profile=None):
        body, header = _served(site, path)
        made.append(
            Subject(scraper, label, f"http://bbs.example.com{path}", body, header, charset, profile)
        )

    viewthread = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
    for charset in ("utf-8", "gbk"):
        site = discuz_x_site(demo, charset=charset)
        for page in range(1, 5):
            add("discuz_x", f"{charset} page {page}", site, f"{viewthread}&page={page}", charset)
        printable = discuz_x_printable_site(demo, charset=charset)
        add(
            "discuz_x_printable",
            charset,
            printable,
            f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}",
            charset,
        )
        archiver = discuz_x_archiver_site(demo, charset=charset)
        for page in range(1, 5):
            path = f"/archiver/?tid-{DEMO_TID}.html&page={page}"
            add("discuz_x_archiver", f"{charset} page {page}", archiver, path, charset)
    sohu = sohu_site(demo, per_page=10)
    for page in range(1, 4):
        suffix = "" if page == 1 else f"/p{page}"
        add("sohu", f"page {page}", sohu, f"/zz2286/thread/{sohu_thread_id(demo)}{suffix}", "gbk")
    for edition, charset in (("SC_UTF8", "utf-8"), ("SC_GBK", "gbk"), ("TC_BIG5", "big5")):
        site = dz72_site(demo, edition=edition)
        for page in range(1, 4):
            add(
                "discuz7",
                f"{edition} page {page}",
                site,
                f"/viewthread.php?tid={DEMO_TID}&page={page}",
                charset,
            )
        add(
            "discuz7_printable",
            edition,
            site,
            f"/viewthread.php?action=printable&tid={DEMO_TID}",
            charset,
        )
        for page in range(1, 3):
            path = f"/archiver/?tid-{DEMO_TID}-page-{page}.html"
            add("discuz7_archiver", f"{edition} page {page}", site, path, charset)
    phpbb = load_profile(PROFILES / "phpbb3.toml")
    for start in (0, 10, 20):
        path = f"/viewtopic.php?f=2&t={DEMO_TID}&start={start}"
        add("phpbb3", f"start {start}", phpbb_site(demo), path, "utf-8", phpbb)
    tieba = load_profile(PROFILES / "tieba.toml")
    shown = as_board_shows(with_time_style(demo, "minute"), edits=False, banned=False)
    for page in (1, 2):
        add(
            "tieba",
            f"page {page}",
            tieba_site(shown, per_page=10),
            f"/p/{DEMO_TID}?pn={page}",
            "utf-8",
            tieba,
        )
    return made


def read(subject: Subject, body: bytes, header_charset: str | None) -> Page:
    """Read a page the way ``killmod`` does: its scraper forced, its board's clock given."""
    fetched = Fetched(subject.url, body, header_charset, demo_thread().now)
    forum = None if subject.profile else subject.scraper
    return parse_page(fetched, tz=SHANGHAI, forum=forum, profile=subject.profile)[1]


# --- mutations --------------------------------------------------------------------------------


def mutate(kind: str, subject: Subject, rng: random.Random) -> Mutant:
    """One damaged copy of ``subject``'s page."""
    return _MUTATORS[kind](subject, rng)


def _truncate(subject: Subject, rng: random.Random) -> Mutant:
    """Cut off; half the time closed again, as a browser saves a half-loaded page."""
    body = subject.body
    at = rng.randrange(1, len(body))
    if rng.random() < 0.5:
        return Mutant("truncate", body[:at], subject.header_charset, at, False, f"cut at {at}")
    closed = body[:at] + b"\n</body></html>\n"
    return Mutant("truncate", closed, subject.header_charset, at, False, f"cut at {at}, closed")


def _drop_tag(subject: Subject, rng: random.Random) -> Mutant:
    body = subject.body
    tags = list(_TAG.finditer(body))
    tag = rng.choice(tags)
    note = "dropped " + tag.group()[:60].decode("latin-1")
    mutated = body[: tag.start()] + body[tag.end() :]
    return Mutant("drop_tag", mutated, subject.header_charset, tag.start(), False, note)


def _garble_attr(subject: Subject, rng: random.Random) -> Mutant:
    body = subject.body
    attributes = [
        found
        for tag in _TAG.finditer(body)
        for found in _ATTRIBUTE.finditer(body, tag.start(), tag.end())
    ]
    found = rng.choice(attributes)
    name, value = found.group(1), found.group(2)
    strict = name.lower() in _STRICT_ATTRIBUTES and value.strip(b"\"'") not in _EDIT_NOTICES
    how = rng.choice(("drop", "rename", "value"))
    if how == "drop":
        replacement = b""
    elif how == "rename":
        position = rng.randrange(len(name))
        renamed = name[:position] + b"x" + name[position + 1 :]
        if renamed == name:
            renamed = name + b"x"
        replacement = b" " + renamed + b"=" + value
    else:
        inner = value[1:-1]
        start = rng.randrange(len(inner) + 1)
        end = rng.randrange(start, len(inner) + 1)
        junk = bytes(rng.choice(_JUNK) for _ in range(rng.randint(1, 4)))
        garbled = inner[:start] + junk + inner[end:]
        replacement = b" " + name + b"=" + value[:1] + garbled + value[-1:]
    note = f"{how} {found.group()[:60].decode('latin-1').strip()}"
    mutated = body[: found.start()] + replacement + body[found.end() :]
    return Mutant("garble_attr", mutated, subject.header_charset, found.start(), strict, note)


_OTHER_CHARSET = {"utf-8": "gbk", "gbk": "utf-8", "big5": "utf-8"}
_CODEC = {"utf-8": "utf-8", "gbk": "gb18030", "big5": "cp950"}


def _encoding(subject: Subject, rng: random.Random) -> Mutant:
    """Bytes and declaration disagree: the declaration swapped, or the text re-encoded."""
    other = _OTHER_CHARSET[subject.charset]
    if rng.random() < 0.5:
        body = _META_CHARSET.sub(lambda m: m.group(1) + other.encode(), subject.body)
        header = other if subject.header_charset else None
        if body == subject.body and header is None:  # nothing declared: declare it wrongly
            header = other
        note = f"declared {other}, bytes {subject.charset}"
    else:
        text = subject.body.decode(_CODEC[subject.charset])
        body = text.encode(_CODEC[other], errors="xmlcharrefreplace")
        header = subject.header_charset
        note = f"bytes {other}, declared {subject.charset}"
    return Mutant("encoding", body, header, 0, False, note)


_MUTATORS: dict[str, Callable[[Subject, random.Random], Mutant]] = {
    "truncate": _truncate,
    "drop_tag": _drop_tag,
    "garble_attr": _garble_attr,
    "encoding": _encoding,
}


# --- the invariants -----------------------------------------------------------------------------


def judge(subject: Subject, original: Page, mutant: Mutant) -> Verdict:
    """What reading the damaged page gave, against the invariants of the module docstring."""
    try:
        page = read(subject, mutant.body, mutant.header_charset)
    except KillmodError as error:
        return Verdict("error", error.message[:120])
    except Exception as error:  # invariant 1
        return Verdict("crash", f"{type(error).__name__}: {error}"[:200])
    if (page.page_no, page.page_count) != (original.page_no, original.page_count):  # 2
        return Verdict(
            "violation",
            f"page {page.page_no}/{page.page_count}, was {original.page_no}/{original.page_count}",
        )
    pids, was = [p.pid for p in page.posts], [p.pid for p in original.posts]
    if pids != was:  # 3
        return Verdict("violation", f"{len(pids)} posts {pids[:12]}…, was {len(was)} {was[:12]}…")
    changed = [
        (old, new) for old, new in zip(original.posts, page.posts, strict=True) if old != new
    ]
    if not changed:
        return Verdict("same")
    old, new = changed[0]
    difference = _difference(old, new)
    if mutant.kind in ("truncate", "encoding"):  # 4
        return Verdict("violation", f"{len(changed)} posts changed, pid {old.pid}: {difference}")
    if len(changed) > 1:  # 5
        return Verdict("violation", f"{len(changed)} posts changed, pid {old.pid}: {difference}")
    if mutant.strict:  # 6
        return Verdict("violation", f"post pid {old.pid} changed: {difference}")
    return Verdict("one_changed", difference)


def _difference(old, new) -> str:
    fields = [
        f"{name}: {getattr(old, name)!r} -> {getattr(new, name)!r}"
        for name in old.__dataclass_fields__
        if getattr(old, name) != getattr(new, name)
    ]
    return "; ".join(fields)[:240]


@functools.cache
def pages_by_scraper() -> dict[str, list[tuple[Subject, Page]]]:
    """Each scraper's undamaged pages, with what it reads from them."""
    by_scraper: dict[str, list[tuple[Subject, Page]]] = {}
    for subject in subjects():
        original = read(subject, subject.body, subject.header_charset)
        by_scraper.setdefault(subject.scraper, []).append((subject, original))
    return by_scraper


def run(scraper: str, kind: str, count: int, seed: int, tally: Tally | None = None) -> Tally:
    """``count`` mutations of one kind of one scraper's pages (its pages in turn)."""
    tally = tally if tally is not None else Tally()
    pages = pages_by_scraper()[scraper]
    rng = random.Random(f"{seed}/{scraper}/{kind}")
    for n in range(count):
        subject, original = pages[n % len(pages)]
        mutant = mutate(kind, subject, rng)
        tally.add(subject, mutant, judge(subject, original, mutant))
    return tally


def forever(seed: int) -> Iterator[tuple[Subject, Mutant, Verdict]]:
    """Mutations without end: every scraper and kind in turn, on a random page (long runs)."""
    rng = random.Random(seed)
    while True:
        for pages in pages_by_scraper().values():
            for kind in KINDS:
                subject, original = rng.choice(pages)
                mutant = mutate(kind, subject, rng)
                yield subject, mutant, judge(subject, original, mutant)
