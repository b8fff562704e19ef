"""Any other board, described by a TOML profile: CSS selectors and a date format.

``killmod tally URL --profile board.toml`` reads the thread with ``load_profile(path)`` and
``ProfileScraper(profile)``, which offers what a scraper module does
(``scrapers.base.Scraper``).  Profiles are given explicitly, never picked
automatically.  A value is found by a *field*: a CSS selector string, or a table

    { selector = "span.tail-info", attribute = "data-field", json = "author.user_name",
      regex = '(\\d+)楼' }

— the elements ``selector`` matches inside the post (the post element itself when there
is no selector), their ``attribute`` (else their text), a dotted ``json`` path into it,
then ``regex`` (its group 1 when it has one): the first value that is found wins.

Keys (see ``examples/profiles/`` for complete profiles):

    name, description          the format's name, what it is
    url_pattern                regex a thread URL of the board matches
    charset                    decode pages with this charset, whatever they declare
    post                       CSS selector of one post's element in the page
    pid, floor                 fields: the post's id and floor number (one is needed;
                               without a pid the floor is the post's id)
    author, uid                fields: the author's name (needed) and numeric id
    time                       field: the post time (needed)
    time_format                "board" (what Discuz-like boards show: absolute, relative),
                               "iso" (ISO 8601) or a strptime format; "%S" in it means
                               seconds precision, else minutes
    body                       CSS selector of the post's text (needed)
    quote, remove              CSS selectors inside the body: quotes (kept apart, never
                               ballots) and other parts to drop (signatures, notices)
    strip                      regexes removed from the body text (e.g. a reply prefix)
    banned                     CSS selector present in a banned author's post
    end                        CSS selector of an element after the post list (a footer): a
                               page without it was cut off, and is an error, not a page with
                               its last posts missing (optional; recommended)
    edited, edited_format      field: the edit time, and its format (default time_format);
                               only the field's element marks an edit (the same words
                               typed in a post change nothing)
    title, page_count,         fields read in the whole page: the thread title, the page
    page_current               count (the largest number found), the current page (needed
                               with page_count: every page must show it is the one asked for)
    page_param, page_value     the query parameter that selects a page, and its value:
                               "{n}" (default) or "{offset}" = (n - 1) × per_page
    page_url, page_url_strip   or a URL template ("{url}/p{n}") applied to the URL after
                               removing the page_url_strip regex from it
    per_page                   posts a page, for "{offset}"
"""

from __future__ import annotations

import codecs
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from lxml import etree

from killmod.core.errors import BadInput
from killmod.core.model import Page, Post, Precision
from killmod.core.times import BoardClock, clock_time
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    document,
    drop,
    element_text,
    require_after_posts,
    require_agreement,
    require_end,
    require_not_nested,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.charset import codec_for
from scrapers.hidden import take_hidden

if TYPE_CHECKING:
    from lxml.cssselect import CSSSelector

_FIELD_KEYS = frozenset({"selector", "attribute", "json", "regex"})
_SAMPLE_TIME = datetime(2019, 5, 12, 22, 0, 5, tzinfo=UTC)
_SECONDS_DIRECTIVES = ("%S", "%X", "%c")


@dataclass(frozen=True)
class Field:
    """Where a value sits: see the module docstring."""

    selector: CSSSelector | None = None
    attribute: str | None = None
    json: tuple[str, ...] = ()
    regex: re.Pattern[str] | None = None

    def values(self, element: etree._Element) -> Iterator[str]:
        """Every value this field finds in ``element``, in document order."""
        targets = self.selector(element) if self.selector is not None else [element]
        for target in targets:
            value = self.value_of(target)
            if value is not None:
                yield value

    def value_of(self, target: etree._Element) -> str | None:
        """The value one element the selector matched gives, or None."""
        raw = target.get(self.attribute) if self.attribute else tidy_text(target.text_content())
        value = self._refine(raw)
        return value.strip() if value and value.strip() else None

    def first(self, element: etree._Element) -> str | None:
        """The first value this field finds in ``element``, or None."""
        return next(self.values(element), None)

    def _refine(self, raw: str | None) -> str | None:
        if raw is not None and self.json:
            raw = _json_path(raw, self.json)
        if raw is not None and self.regex is not None:
            found = self.regex.search(raw)
            raw = (found.group(1) if self.regex.groups else found.group()) if found else None
        return raw


@dataclass(frozen=True)
class Profile:
    """A board format read from a TOML profile (``load_profile``), checked and compiled."""

    name: str
    source: str
    url_pattern: re.Pattern[str]
    post: CSSSelector
    author: Field
    time: Field
    body: CSSSelector
    time_format: str = "board"
    description: str = ""
    charset: str | None = None
    pid: Field | None = None
    floor: Field | None = None
    uid: Field | None = None
    quote: tuple[CSSSelector, ...] = ()
    remove: tuple[CSSSelector, ...] = ()
    strip: tuple[re.Pattern[str], ...] = ()
    banned: CSSSelector | None = None
    end: CSSSelector | None = None
    edited: Field | None = None
    edited_format: str | None = None
    title: Field | None = None
    page_count: Field | None = None
    page_current: Field | None = None
    page_param: str | None = None
    page_value: str = "{n}"
    page_url: str | None = None
    page_url_strip: re.Pattern[str] | None = None
    per_page: int | None = None


class ProfileScraper:
    """What reads the board a profile describes, as a scraper module does
    (``scrapers.base.Scraper``)."""

    AGAIN_ON_REDIRECT = False

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.NAME = profile.name
        self._posts_anywhere = _anywhere(profile.post.css)

    def matches(self, url: str, html: str) -> bool:
        """A page of this board, by its URL."""
        return bool(self.profile.url_pattern.search(url))

    def page_url(self, url: str, n: int) -> str:
        """The URL of page ``n`` of the thread that ``url`` belongs to."""
        profile = self.profile
        offset = (n - 1) * (profile.per_page or 0)
        if profile.page_url is not None:
            base = profile.page_url_strip.sub("", url) if profile.page_url_strip else url
            return profile.page_url.format(url=base, n=n, offset=offset)
        if profile.page_param is None:
            return url
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        kept = [(key, value) for key, value in query if key != profile.page_param]
        kept.append((profile.page_param, profile.page_value.format(n=n, offset=offset)))
        return urlunsplit(parts._replace(query=urlencode(kept), fragment=""))

    def address(self, url: str) -> Address:
        """A profile's URLs say nothing checkable about their thread: pages are checked by
        the page number they show."""
        return Address()

    def board_message(self, url: str, html: str) -> None:
        """A profile describes no message page: a Discuz board's is recognised by the
        registry (``scrapers.board_message``)."""
        return None

    def seconds_view(self, url: str) -> None:
        """A profile names no view with finer times."""
        return None

    def views(self, url: str) -> None:
        """A profile's board is read from its thread pages alone."""
        return None

    def fingerprint(self, body: bytes) -> str:
        """What a page holds: the SHA-256 of its bytes."""
        return sha256_fingerprint(body)

    def zone_url(self, url: str) -> None:
        """A profile's board declares no zone: its times are read in the game's."""
        return None

    def parse(self, html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
        """Read one page of the board into posts; a page without posts is a ScrapeError.

        Times are read in ``tz`` (a time that carries its offset, in ``iso`` or a ``%z``
        format, keeps it); relative ones count back from ``clock``.
        """
        profile = self.profile
        root = document(html)
        containers = profile.post(root)
        if not containers:
            raise ScrapeError(
                f"页面里没有帖子：profile「{profile.name}」的 post 选择器没有匹配任何元素"
            )
        require_end(html)
        if profile.end is not None:
            require_after_posts(bool(profile.end(root)), f"部分（profile「{profile.name}」的 end）")
        self._check_structure(root, containers)
        posts = tuple(
            self._read_post(index, container, tz=tz, clock=clock)
            for index, container in enumerate(containers, start=1)
        )
        counts = [_number(v) for v in profile.page_count.values(root)] if profile.page_count else []
        page_count = max([1, *(count for count in counts if count is not None)])
        page_no = self._page_no(root, page_count)
        page_count = max(page_no, page_count)
        title = profile.title.first(root) if profile.title else None
        return Page(posts=posts, page_no=page_no, page_count=page_count, title=title)

    def _check_structure(self, root, containers: list) -> None:
        """Posts where the post selector does not find them, or two posts' texts in one
        post, mean a damaged page (a lost closing tag): an error, not fewer posts."""
        profile = self.profile
        require_not_nested(containers)
        chosen = set(containers)
        strays = any(
            profile.time.first(e) is not None for e in self._posts_anywhere(root) if e not in chosen
        )
        if profile.time.selector is not None:  # a post's time outside every post
            strays = strays or any(
                profile.time.value_of(e) and not chosen.intersection(e.iterancestors())
                for e in profile.time.selector(root)
            )
        if strays:
            raise ScrapeError(
                f"页面结构损坏：有帖子不在 profile「{profile.name}」的 post 选择器"
                "找到的位置（页面可能被截断或改动过）"
            )
        for container in containers:
            if len(_outermost(profile.body(container))) > 1:
                raise ScrapeError(
                    f"页面结构损坏：profile「{profile.name}」的一个帖子里有多处正文"
                    "（页面可能被截断或改动过）"
                )

    def _page_no(self, root, page_count: int) -> int:
        """This page's number; a thread of several pages must show it, the same everywhere."""
        if self.profile.page_current is None:
            return 1
        shown = {_number(value) for value in self.profile.page_current.values(root)} - {None}
        require_agreement(shown, "当前页码")
        if not shown and page_count > 1:
            raise ScrapeError(
                f"页面结构损坏：读不到当前页码（profile「{self.profile.name}」的 page_current）"
            )
        return shown.pop() if shown else 1

    def _read_post(self, index: int, container, *, tz: tzinfo, clock: BoardClock) -> Post:
        profile = self.profile
        floor = _number(profile.floor.first(container)) if profile.floor else None
        pid = _whole_number(profile.pid.first(container)) if profile.pid else floor
        if pid is None:
            raise ScrapeError(f"第 {index} 个帖子读不出 pid（profile「{profile.name}」）")
        stamp = profile.time.first(container)
        if stamp is None:
            raise ScrapeError(f"帖子 pid={pid} 读不出发帖时间（profile「{profile.name}」的 time）")
        posted_at, precision = self._time(stamp, profile.time_format, tz, clock)
        banned = profile.banned is not None and bool(profile.banned(container))
        body, quotes, hidden = ("", (), ()) if banned else self._body(pid, container)
        author = profile.author.first(container)
        if author is None:
            raise ScrapeError(f"帖子 pid={pid} 读不出作者（profile「{profile.name}」的 author）")
        return Post(
            pid=pid,
            floor=floor,
            author=author,
            uid=_number(profile.uid.first(container)) if profile.uid else None,
            posted_at=posted_at,
            precision=precision,
            body=body,
            quotes=quotes,
            edited_at=self._edited_at(container, tz, clock),
            banned=banned,
            hidden=hidden,
        )

    def _body(self, pid: int, container) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        profile = self.profile
        cells = profile.body(container)
        if not cells:
            raise ScrapeError(f"帖子 pid={pid} 没有正文（profile「{profile.name}」的 body）")
        cell = cells[0]
        for selector in profile.remove:
            for element in selector(cell):
                drop(element)
        quotes = []
        for element in _outermost([e for selector in profile.quote for e in selector(cell)]):
            quotes.append(element_text(element))
            drop(element)
        hidden = take_hidden(cell)
        text = element_text(cell)
        for pattern in profile.strip:
            text = pattern.sub("", text)
        return tidy_text(text), tuple(quotes), hidden

    def _edited_at(self, container, tz: tzinfo, clock: BoardClock) -> datetime | None:
        """The edit time the board's own notice (the ``edited`` field's element) shows; the
        same words typed in a post's text are the author's, and change nothing."""
        profile = self.profile
        stamp = profile.edited.first(container) if profile.edited else None
        if stamp is None:
            return None
        fmt = profile.edited_format or profile.time_format
        return self._time(stamp, fmt, tz, clock)[0]

    def _time(
        self, text: str, fmt: str, tz: tzinfo, clock: BoardClock
    ) -> tuple[datetime, Precision]:
        try:
            return _read_time(text, fmt, tz, clock)
        except (ValueError, BadInput):
            raise ScrapeError(
                f"按 profile「{self.profile.name}」的时间格式「{fmt}」读不出时间「{text}」"
            ) from None


def _read_time(text: str, fmt: str, tz: tzinfo, clock: BoardClock) -> tuple[datetime, Precision]:
    """A post time in ``fmt`` ("board", "iso" or strptime), aware in ``tz``, and its precision
    (a relative time counts back from ``clock``).

    Raises ``ValueError`` (or ``BadInput`` for "board") when ``text`` is not in ``fmt``.
    """
    if fmt == "board":
        return clock_time(clock, text, tz)
    if fmt == "iso":
        moment = datetime.fromisoformat(text)
        seconds = re.search(r"\d{1,2}:\d{2}:\d{2}", text) is not None
    else:
        moment = datetime.strptime(text, fmt)
        seconds = any(directive in fmt for directive in _SECONDS_DIRECTIVES)
    aware = moment.astimezone(tz) if moment.tzinfo else moment.replace(tzinfo=tz)
    return aware, "second" if seconds else "minute"


def load_profile(path: Path | str) -> Profile:
    """Read and check a board profile; any problem is a BadInput naming the file, line and key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"找不到 profile 文件：{path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"无法读取 profile 文件 {path}（{error}）") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BadInput(f"profile 文件 {path} 不是有效的 TOML：{error}") from None
    return _Reader(path, text, data).profile()


class _Reader:
    """Checks a profile's TOML data key by key and compiles it."""

    _KEYS = frozenset(Profile.__dataclass_fields__) - {"source"}

    def __init__(self, path: Path, text: str, data: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        self.data = data

    def profile(self) -> Profile:
        unknown = sorted(set(self.data) - self._KEYS)
        if unknown:
            self.fail(unknown[0], f"未知的键；可用的键：{'、'.join(sorted(self._KEYS))}")
        for key in ("name", "url_pattern", "post", "author", "time", "body"):
            if key not in self.data:
                self.fail(key, "缺少这个必需的键")
        if "pid" not in self.data and "floor" not in self.data:
            self.fail("pid", "需要 pid 或 floor（没有 pid 时用楼层作帖子编号）")
        values = {key: self.value(key) for key in self.data}
        self.check_paging(values)
        return Profile(source=str(self.path), **values)

    def value(self, key: str) -> Any:
        raw = self.data[key]
        if key in ("name", "description", "page_param"):
            return self.string(key, raw)
        if key in ("url_pattern", "page_url_strip"):
            return self.regex(key, raw)
        if key in ("post", "body", "banned", "end"):
            return self.selector(key, raw)
        if key in ("quote", "remove"):
            return tuple(self.selector(key, item) for item in self.strings(key, raw))
        if key == "strip":
            return tuple(self.regex(key, item) for item in self.strings(key, raw))
        if key in ("time_format", "edited_format"):
            return self.time_format(key, raw)
        if key in ("page_value", "page_url"):
            return self.template(key, raw)
        if key == "per_page":
            return self.positive(key, raw)
        if key == "charset":
            return self.charset(key, raw)
        return self.field(key, raw)

    def check_paging(self, values: dict[str, Any]) -> None:
        if "page_url" in values and "page_param" in values:
            self.fail("page_url", "page_url 与 page_param 只能用一个")
        if "page_count" in values and not ({"page_url", "page_param"} & set(values)):
            self.fail("page_count", "有 page_count 时还需要 page_param 或 page_url")
        if "page_count" in values and "page_current" not in values:
            self.fail(
                "page_count",
                "有 page_count 时还需要 page_current（当前页码）：每一页都要核对是不是要读的那一页",
            )
        templates = [values.get("page_url") or "", values.get("page_value") or ""]
        if any("{offset}" in t for t in templates) and "per_page" not in values:
            self.fail("per_page", "用到 {offset} 时需要 per_page（每页帖数）")

    def field(self, key: str, raw: Any) -> Field:
        if isinstance(raw, str):
            return Field(selector=self.selector(key, raw))
        if not isinstance(raw, dict) or not raw or set(raw) - _FIELD_KEYS:
            self.fail(key, "应为 CSS 选择器字符串，或只含 selector/attribute/json/regex 的表")
        parts = {name: self.string(f"{key}.{name}", value) for name, value in raw.items()}
        return Field(
            selector=self.selector(f"{key}.selector", parts["selector"])
            if "selector" in parts
            else None,
            attribute=parts.get("attribute"),
            json=tuple(parts["json"].split(".")) if "json" in parts else (),
            regex=self.regex(f"{key}.regex", parts["regex"]) if "regex" in parts else None,
        )

    def string(self, key: str, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            self.fail(key, "应为非空字符串")
        return raw

    def strings(self, key: str, raw: Any) -> list[str]:
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, list):
            self.fail(key, "应为字符串或字符串列表")
        return [self.string(key, item) for item in items]

    def selector(self, key: str, raw: Any) -> CSSSelector:
        # cssselect is imported only for a profile: most commands never read one.
        from cssselect import SelectorError
        from lxml.cssselect import CSSSelector

        try:
            return CSSSelector(self.string(key, raw))
        except SelectorError as error:
            self.fail(key, f"无效的 CSS 选择器「{raw}」（{error}）")

    def regex(self, key: str, raw: Any) -> re.Pattern[str]:
        try:
            return re.compile(self.string(key, raw))
        except re.error as error:
            self.fail(key, f"无效的正则表达式「{raw}」（{error}）")

    def time_format(self, key: str, raw: Any) -> str:
        fmt = self.string(key, raw)
        if fmt in ("board", "iso"):
            return fmt
        try:
            datetime.strptime(_SAMPLE_TIME.strftime(fmt), fmt)
        except ValueError as error:
            self.fail(key, f"无效的时间格式「{fmt}」（{error}）")
        if "%" not in fmt:
            self.fail(key, f"时间格式「{fmt}」里没有任何 % 指令；可用 board、iso 或 strptime 格式")
        return fmt

    def template(self, key: str, raw: Any) -> str:
        template = self.string(key, raw)
        try:
            filled = template.format(url="", n=2, offset=2)
        except (KeyError, IndexError, ValueError) as error:
            self.fail(
                key, f"无效的模板「{template}」：只能用 {{url}}、{{n}}、{{offset}}（{error}）"
            )
        if filled == template.format(url="", n=3, offset=3):
            self.fail(key, f"模板「{template}」里没有 {{n}} 或 {{offset}}")
        return template

    def positive(self, key: str, raw: Any) -> int:
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
            self.fail(key, "应为正整数")
        return raw

    def charset(self, key: str, raw: Any) -> str:
        charset = self.string(key, raw)
        try:
            codecs.lookup(codec_for(charset))
        except LookupError:
            self.fail(key, f"未知的字符集「{charset}」")
        return charset

    def fail(self, key: str, problem: str) -> NoReturn:
        line = _line_of(self.text, key)
        where = f"第 {line} 行，" if line else ""
        raise BadInput(f"profile 文件 {self.path}：{where}键「{key}」：{problem}")


def _line_of(text: str, key: str) -> int | None:
    """The line that sets ``key`` ("time" or "time.selector"), best effort."""
    lines = text.splitlines()
    table, _, leaf = key.rpartition(".")
    start = 0
    if table:
        header = re.compile(rf"\s*\[\s*{re.escape(table)}\s*\]")
        start = next((i for i, line in enumerate(lines) if header.match(line)), -1)
        if start < 0:  # an inline table: `time = { selector = "…" }`
            return _line_of(text, table)
    setting = re.compile(rf"\s*(?:{re.escape(leaf)}\s*=|\[\s*{re.escape(leaf)}\s*\])")
    return next((i + 1 for i in range(start, len(lines)) if setting.match(lines[i])), None)


def _json_path(raw: str, path: tuple[str, ...]) -> str | None:
    """The value at a dotted path in a JSON text, as text; None when it is not there."""
    try:
        value: Any = json.loads(raw)
    except ValueError:
        return None
    for step in path:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            return None
    return None if value is None or isinstance(value, dict | list) else str(value)


def _whole_number(text: str | None) -> int | None:
    """``text`` as a number when it is nothing but one (a post id is never "900qz")."""
    return int(text) if text is not None and text.isascii() and text.isdigit() else None


def _number(text: str | None) -> int | None:
    """The first whole number in ``text``, or None."""
    found = re.search(r"\d+", text) if text else None
    return int(found.group()) if found else None


def _anywhere(css: str) -> etree.XPath:
    """The elements the last step of a CSS selector matches anywhere in the page
    (``#list > div.post`` → every ``div.post``): where posts may be found when the page's
    structure is damaged."""
    from cssselect import HTMLTranslator
    from cssselect import parse as parse_css
    from cssselect.parser import CombinedSelector

    translator = HTMLTranslator()
    steps = []
    for selector in parse_css(css):
        tree = selector.parsed_tree
        while isinstance(tree, CombinedSelector):
            tree = tree.subselector
        steps.append(f"descendant-or-self::{translator.xpath(tree)}")
    return etree.XPath(" | ".join(steps))


def _outermost(elements: list) -> list:
    """The elements that are not inside another of them (a quote inside a quote goes with it)."""
    chosen = set(elements)
    return [e for e in elements if not any(a in chosen for a in e.iterancestors())]


# The profile scraper's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "a phpBB 3.3 board (examples/profiles/phpbb3.toml): pid, uid, seconds, no floor",
        "site": "phpbb_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/viewtopic.php?f=2&t=3",
        "profile": "examples/profiles/phpbb3.toml",
        "posts": [
            {
                "floor": None,
                "pid": 501,
                "author": "法官",
                "uid": 1,
                "time": "2019-05-12T21:00:05+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": None,
                "pid": 502,
                "author": "白开水",
                "uid": 12,
                "time": "2019-05-12T21:59:30+08:00",
                "text": "投 3 号",
            },
            {
                "floor": None,
                "pid": 503,
                "author": "花生米",
                "uid": 13,
                "time": "2019-05-12T22:00:20+08:00",
                "text": "投白开水",
            },
        ],
    },
]
