"""Fetching forum pages over HTTP: one session, timeouts, retries, politeness, a cache.

A ``Fetcher`` holds one ``requests`` session (a real User-Agent, the judge's cookies,
urllib3's ``Retry``: exponential backoff on connection errors, read timeouts, 429 and 5xx,
honouring a ``Retry-After`` that is a number of seconds or an HTTP date), a pacer that
spaces request starts to the same host, and the page cache it answers from when allowed
(``killmod.fetch.pages`` keeps what it parses there).  Pages are fetched at most ``jobs`` at
once, in the order given, with a progress line on stderr when it is a terminal.

What a board may not do to a page: redirect it to another host (refused; the judge's
cookies never leave the board's host), send more than ``max_page_bytes`` once
decompressed (read and inflated in small steps and stopped there: no gzip bomb reaches
memory), or drip its bytes past the deadline (the whole answer must arrive within
``timeout`` seconds of its start).  Every failure is a ``TallyFailed`` naming the page;
cookie values never appear in any message.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import zlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urljoin, urlsplit

from killmod.core.errors import BadInput, TallyFailed
from killmod.fetch.cache import Fetched, PageCache

# requests and urllib3 are imported when the first request is made: a tally of saved pages
# makes none (~0.05 s of its start).
if TYPE_CHECKING:
    from http.cookiejar import MozillaCookieJar

    import requests

    from killmod.fetch.clocks import BoardClocks

__all__ = ["FetchOptions", "Fetched", "Fetcher", "load_cookies"]

USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0 Safari/537.36 killmod/0.1"
)
CONNECT_TIMEOUT = 5.0  # seconds; the read timeout is FetchOptions.timeout
MAX_RETRY_AFTER = 60.0  # seconds: a longer Retry-After is waited this long
MAX_REDIRECTS = 5  # a board's own redirects are one or two; more is a loop
MAX_PAGES = 2000  # pages a thread may have (FetchOptions.max_pages)
MAX_PAGE_BYTES = 20 * 1024 * 1024  # one page's body, decompressed (FetchOptions.max_page_bytes)
_CHUNK = 64 * 1024  # bytes read, and inflated, at a time
_REDIRECTS = (301, 302, 303, 307, 308)
_HTTP_REASONS = {
    401: "需要登录",
    403: "没有权限",
    404: "页面不存在",
    429: "访问太频繁，论坛拒绝了请求",
}


@dataclass(frozen=True)
class FetchOptions:
    """How to fetch: concurrency, politeness, timeouts, retries, cookies and the cache.

    ``delay`` is the least time between two request starts to the same host; ``timeout``
    the read timeout in seconds, and the time a page's whole body has to arrive in once
    the board starts answering; ``retries`` how many times a page is tried again;
    ``backoff`` urllib3's backoff factor (waits of 0, 2×, 4× … it).  ``cache`` is the
    cache folder (None: no cache); ``offline`` reads the cache alone; ``refresh`` never
    takes a page from the cache.  ``progress`` draws the progress line (on a terminal).
    ``max_pages`` is the most pages a thread may have; ``max_page_bytes`` the most bytes
    one page may have once decompressed.  ``view`` is which views of a thread to read
    (``killmod.fetch.plan``: ``auto``, ``api``, ``printable`` or ``pages``).
    """

    jobs: int = 4
    delay: float = 0.2
    timeout: float = 20.0
    retries: int = 3
    backoff: float = 0.5
    cookies: Path | None = None
    cache: Path | None = None
    offline: bool = False
    refresh: bool = False
    progress: bool = False
    max_pages: int = MAX_PAGES
    max_page_bytes: int = MAX_PAGE_BYTES
    view: str = "auto"


@cache
def _retry_class() -> type:
    """urllib3's Retry with the board's Retry-After capped at ``MAX_RETRY_AFTER``; one that
    is neither a number of seconds nor an HTTP date is ignored (the normal backoff
    applies), never an error."""
    from urllib3.exceptions import InvalidHeader
    from urllib3.util.retry import Retry

    class _Retry(Retry):
        def get_retry_after(self, response) -> float | None:
            try:
                return super().get_retry_after(response)
            except InvalidHeader:
                return None

        def parse_retry_after(self, retry_after: str) -> float:
            return min(super().parse_retry_after(retry_after), MAX_RETRY_AFTER)

    return _Retry


def new_session(options: FetchOptions, cookies: MozillaCookieJar | None = None) -> requests.Session:
    """A session with a real User-Agent, the judge's cookies (``cookies``, else read from
    ``options.cookies``) and retries with backoff."""
    import requests
    from requests.adapters import HTTPAdapter

    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    session.headers["Accept-Encoding"] = "gzip, deflate"  # what _Inflater reads
    if cookies is None and options.cookies is not None:
        cookies = load_cookies(options.cookies)
    if cookies is not None:
        session.cookies.update(cookies)
    retry = _retry_class()(
        total=options.retries,
        backoff_factor=options.backoff,
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=("GET",),
        respect_retry_after_header=True,
        raise_on_status=False,
    )
    adapter = HTTPAdapter(max_retries=retry, pool_maxsize=max(options.jobs, 1))
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    _settle_environment(session)
    return session


def _settle_environment(session: requests.Session) -> None:
    """Read the environment's settings once for the session, not on every request.

    requests reads proxies, the CA bundle and .netrc from the environment for each
    request (about 1 ms: a 500-page thread spends half a second on it).  When no proxy
    and no .netrc is set, the CA bundle is all that matters: take it now and stop
    looking.
    """
    if any(name.lower().endswith("_proxy") for name in os.environ) or os.environ.get("NETRC"):
        return
    if (Path.home() / ".netrc").exists():
        return
    session.trust_env = False
    bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
    if bundle:
        session.verify = bundle


def load_cookies(path: Path) -> MozillaCookieJar:
    """The cookies of a Netscape cookies.txt (as browser extensions export it).

    A bad file is bad input naming the file, never quoting it: its lines hold the
    cookie values.
    """
    import warnings
    from http.cookiejar import LoadError, MozillaCookieJar

    jar = MozillaCookieJar(str(path))
    try:
        with warnings.catch_warnings():  # http.cookiejar warns with the offending line
            warnings.simplefilter("ignore")
            jar.load(ignore_discard=True, ignore_expires=True)
    except (LoadError, ValueError):
        raise BadInput(
            f"cookies 文件格式不对：{path}（应为浏览器扩展导出的 Netscape 格式 cookies.txt）"
        ) from None
    except OSError as error:
        raise BadInput(f"无法读取 cookies 文件：{path}（{error.strerror}）") from None
    if not len(jar):
        raise BadInput(f"cookies 文件里没有 cookie：{path}")
    for cookie in jar:
        if cookie.expires == 0:  # how exporters write a session cookie
            cookie.expires, cookie.discard = None, True
    return jar


class HostPacer:
    """Spaces request starts to the same host at least ``interval`` seconds apart.

    Politeness is for other people's boards: a board on this machine (a loopback
    address) is not paced.
    """

    def __init__(
        self,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def waits_for(self, url: str) -> bool:
        """Whether requests to ``url``'s host are spaced at all."""
        return self._paced_host(url) is not None

    def wait(self, url: str) -> None:
        """Wait until a request to ``url``'s host may start (slots are handed out in order)."""
        host = self._paced_host(url)
        if host is None:
            return
        with self._lock:
            now = self._clock()
            start = max(now, self._next.get(host, now))
            self._next[host] = start + self.interval
        if start > now:
            self._sleep(start - now)

    def _paced_host(self, url: str) -> str | None:
        """``url``'s host when requests to it are spaced, else None."""
        host = urlsplit(url).hostname or ""
        return None if self.interval <= 0 or _is_loopback(host) else host


class Progress:
    """Draws "读取页面 3/10" on one line of stderr, redrawn in place; drawn only on a terminal."""

    def __init__(self, total: int, *, enabled: bool, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.done = 0
        self.shown = enabled and total > 1 and self.stream is not None and self.stream.isatty()
        self._lock = threading.Lock()
        self._draw()

    def advance(self) -> None:
        """One more page done."""
        with self._lock:
            self.done += 1
            self._draw()

    def close(self) -> None:
        """Clear the line."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _draw(self) -> None:
        if not self.shown:
            return
        filled = 20 * self.done // self.total
        bar = "#" * filled + "-" * (20 - filled)
        self.stream.write(f"\r读取页面 [{bar}] {self.done}/{self.total}")
        self.stream.flush()


def _itself(page: Fetched) -> Fetched:
    return page


class Fetcher:
    """Fetches pages for one command: one session, one pacer, one cache."""

    def __init__(self, options: FetchOptions | None = None) -> None:
        self.options = options or FetchOptions()
        if self.options.offline and self.options.refresh:
            raise BadInput("--offline 与 --refresh 不能同时使用")
        if self.options.offline and self.options.cache is None:
            raise BadInput("--offline 只能读缓存：请用 --cache 指定缓存文件夹")
        self.cache = PageCache(self.options.cache) if self.options.cache else None
        # A bad cookies file is bad input now, before anything is read.
        self._cookies = load_cookies(self.options.cookies) if self.options.cookies else None
        self._session: requests.Session | None = None
        self.pacer = HostPacer(self.options.delay)
        self._boards: BoardClocks | None = None
        self._boards_made = threading.Lock()

    @property
    def boards(self) -> BoardClocks:
        """Each board's zone and clock as its pages showed them in this command
        (``killmod.fetch.clocks``; loaded with the first page read: a saved page's tally
        reads none through the fetcher)."""
        if self._boards is None:
            with self._boards_made:
                if self._boards is None:
                    from killmod.fetch.clocks import BoardClocks

                    self._boards = BoardClocks()
        return self._boards

    @property
    def session(self) -> requests.Session:
        """The HTTP session, made for the first request."""
        if self._session is None:
            self._session = new_session(self.options, self._cookies)
        return self._session

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the session's connections."""
        if self._session is not None:
            self._session.close()

    def fetch(self, url: str, *, cached: bool = False, again_on_redirect: bool = False) -> Fetched:
        """The page at ``url``: from the cache when ``cached`` allows it, else from the board.

        ``again_on_redirect``: a redirect is no page of the view asked for (X3.4 answers the
        mobile API's first request after a moderator's deletion with a 302 to a thread page
        under ``api/mobile/``): ``url`` is asked once more instead of following it.
        """
        return self._kept(url, cached) or self._fresh(url, again_on_redirect)

    def fetch_all(
        self,
        urls: Sequence[str],
        *,
        cached: Collection[str] = (),
        then: Callable[[Fetched], Any] = _itself,
        again_on_redirect: bool = False,
    ) -> list[Any]:
        """Fetch pages (at most ``jobs`` at once, started in the order given), in that order.

        URLs in ``cached`` may come from the cache.  The first page that fails fails all.
        ``then`` (say, parsing) runs on each page in the worker that fetched it, so one
        page is parsed while others are still on the way.  ``again_on_redirect`` as for
        ``fetch``.
        """
        done = {url: then(page) for url in urls if (page := self._kept(url, url in cached))}
        fresh = list(dict.fromkeys(url for url in urls if url not in done))
        progress = Progress(len(fresh), enabled=self.options.progress)

        def fetch_one(url: str) -> Any:
            result = then(self._fresh(url, again_on_redirect))
            progress.advance()
            return result

        try:
            done.update(zip(fresh, self._run(fetch_one, fresh), strict=True))
        finally:
            progress.close()
        return [done[url] for url in urls]

    def _run(self, fetch_one: Callable[[str], Any], urls: list[str]) -> list[Any]:
        jobs = min(self.options.jobs, len(urls))
        if jobs <= 1:
            return [fetch_one(url) for url in urls]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(fetch_one, url) for url in urls]
            try:
                return [future.result() for future in futures]
            except BaseException:
                for future in futures:
                    future.cancel()
                raise

    def may_answer_from_cache(self, cached: bool) -> bool:
        """Whether the cache may answer for a page (``cached``: the caller allows it)."""
        allowed = self.options.offline or cached
        return self.cache is not None and allowed and not self.options.refresh

    def _kept(self, url: str, cached: bool) -> Fetched | None:
        """The cached page, when the cache may answer for ``url``."""
        return self.cache.get(url) if self.may_answer_from_cache(cached) else None

    def _fresh(self, url: str, again_on_redirect: bool = False) -> Fetched:
        if self.options.offline:
            raise TallyFailed(f"离线模式：缓存里没有这一页：{url}")
        return self._download(url, again_on_redirect)

    def _download(self, url: str, again_on_redirect: bool = False) -> Fetched:
        """GET one page; any failure is a TallyFailed naming the page and why.

        urllib3 retries a connection or an answer that fails; a body cut off, timed out or
        dripped past the deadline is fetched again here, as many times.
        """
        attempt = 0
        while True:
            try:
                return self._attempt(url, again_on_redirect)
            except _BodyFailed as failure:
                if attempt == self.options.retries:
                    raise TallyFailed(self._body_failure(url, failure.timed_out)) from None
                time.sleep(self.options.backoff * 2**attempt)
                attempt += 1

    def _attempt(self, url: str, again_on_redirect: bool) -> Fetched:
        response, final = self._follow(url, again_on_redirect)
        with response:
            if response.status_code != 200:
                reason = _http_reason(response.status_code)
                raise TallyFailed(f"读取页面失败（HTTP {response.status_code}{reason}）：{url}")
            body = self._body(url, response)
            content_type = response.headers.get("Content-Type", "")
            header_charset = response.encoding if "charset" in content_type else None
            clock, exact, ours = _server_clock(response)
        moved = final if final != url else None
        return Fetched(
            url, body, header_charset, clock, exact_clock=exact, final_url=moved, machine_at=ours
        )

    def _follow(self, url: str, again_on_redirect: bool = False) -> tuple[requests.Response, str]:
        """The answer to ``url`` after the board's redirects, and where they led.

        A redirect within the board's host is followed (Discuz sends the rewritten and the
        ``forum.php`` forms of a thread to each other, and X3.4 answers the first view
        after a moderator's deletion with a 302); one to another host is refused, so the
        judge's cookies stay with the board.  ``again_on_redirect``: ``url`` is asked once
        more instead, and a second redirect fails.
        """
        from requests.utils import get_auth_from_url

        auth = get_auth_from_url(url)
        current = url
        for attempt in range(MAX_REDIRECTS + 1):
            response = self._get(current, auth if any(auth) else None)
            location = response.headers.get("Location")
            if response.status_code not in _REDIRECTS or not location:
                return response, current
            response.close()
            target = urljoin(current, location.strip())
            if again_on_redirect:
                if attempt:
                    raise TallyFailed(f"论坛两次把请求重定向到 {target}，不是要读的页面：{url}")
                continue
            if not _same_host(url, target):
                shown = urlsplit(target).hostname or target
                raise TallyFailed(
                    f"论坛把页面重定向到了另一个网站（{shown}），已拒绝"
                    f"（不会把 cookies 发给别的网站）：{url}"
                )
            current = target
        raise TallyFailed(
            f"论坛重定向的次数太多（超过 {MAX_REDIRECTS} 次），可能是重定向循环：{url}"
        )

    def _get(self, url: str, auth: tuple[str, str] | None) -> requests.Response:
        """One GET, its body not read yet, with urllib3's retries."""
        from requests.exceptions import RequestException

        timeout = (min(CONNECT_TIMEOUT, self.options.timeout), self.options.timeout)
        session = self.session
        self.pacer.wait(url)
        try:
            return session.get(url, timeout=timeout, allow_redirects=False, stream=True, auth=auth)
        except RequestException as error:
            raise TallyFailed(self._failure(url, error)) from None

    def _body(self, url: str, response: requests.Response) -> bytes:
        """The body, read in small steps: decompressed, within ``max_page_bytes`` and within
        ``timeout`` seconds of the answer's start (a board dripping bytes to hold the read
        open is cut off there)."""
        from urllib3.exceptions import HTTPError, ReadTimeoutError

        limit = self.options.max_page_bytes
        inflater = _Inflater(response.headers.get("Content-Encoding", ""), url)
        deadline = time.monotonic() + self.options.timeout
        parts: list[bytes] = []
        size = 0
        raw = response.raw
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _BodyFailed(timed_out=True)
                _wait_at_most(raw, min(left, self.options.timeout))
                chunk = raw.read1(_CHUNK, decode_content=False)
                if not chunk:
                    break
                data = inflater.feed(chunk, limit - size + 1)
                size += len(data)
                if size > limit:
                    raise TallyFailed(
                        f"页面太大：解压后超过 {limit // (1024 * 1024)} MB，已停止读取"
                        f"（可用 --max-page-mb 调整）：{url}"
                    )
                parts.append(data)
        except ReadTimeoutError:
            raise _BodyFailed(timed_out=True) from None
        except TimeoutError:
            raise _BodyFailed(timed_out=True) from None
        except (HTTPError, OSError):
            raise _BodyFailed(timed_out=False) from None
        parts.append(inflater.finish())
        return b"".join(parts)

    def _body_failure(self, url: str, timed_out: bool) -> str:
        """The Chinese message for a body that failed each time it was read."""
        tries = f"（试了 {self.options.retries + 1} 次）"
        if timed_out:
            return f"读取页面超时{tries}：{url}"
        return f"论坛中途断开了连接{tries}：{url}"

    def _failure(self, url: str, error: requests.exceptions.RequestException) -> str:
        """The Chinese message for a request that failed after its retries."""
        import requests
        from urllib3.exceptions import ProtocolError, ReadTimeoutError

        tries = f"（试了 {self.options.retries + 1} 次）"
        cause = getattr(error.args[0], "reason", None) if error.args else None
        if isinstance(error, requests.exceptions.Timeout) or isinstance(cause, ReadTimeoutError):
            return f"读取页面超时{tries}：{url}"
        if isinstance(error, requests.exceptions.SSLError):
            return f"无法建立安全连接（TLS 错误）：{url}"
        if isinstance(cause, ProtocolError) or isinstance(
            error, requests.exceptions.ChunkedEncodingError
        ):
            return f"论坛中途断开了连接{tries}：{url}"
        if isinstance(error, requests.exceptions.ConnectionError):
            return f"无法连接论坛 {urlsplit(url).hostname or url}{tries}：{url}"
        return f"读取页面失败（{type(error).__name__}）：{url}"


class _BodyFailed(Exception):
    """A body that did not arrive whole: cut off, or not within the deadline."""

    def __init__(self, *, timed_out: bool) -> None:
        super().__init__()
        self.timed_out = timed_out


class _Inflater:
    """Decompresses a body as it arrives, never more than asked for at a time.

    ``zlib``'s ``max_length`` bounds each step's output, so a body that inflates a
    thousandfold (a gzip bomb) is stopped at the page limit with only that much in
    memory.  Reads what the session asks for: gzip, deflate (zlib or raw) or nothing.
    """

    def __init__(self, encoding: str, url: str) -> None:
        self.url = url
        self.encoding = encoding.strip().lower()
        if self.encoding in ("", "identity"):
            self._zlib = None
        elif self.encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.encoding == "deflate":
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS)
        else:
            raise TallyFailed(f"论坛用了无法识别的压缩方式（{encoding}），无法解压：{url}")
        self._started = False

    def feed(self, data: bytes, room: int) -> bytes:
        """The bytes ``data`` inflates to, at most ``room`` of them."""
        if self._zlib is None:
            return data[:room]
        try:
            out = self._inflate(data, room)
        except zlib.error:
            if self.encoding != "deflate" or self._started:
                raise TallyFailed(f"页面压缩数据损坏，无法解压：{self.url}") from None
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, no zlib header
            out = self._inflate(data, room)
        self._started = True
        return out

    def _inflate(self, data: bytes, room: int) -> bytes:
        out = self._zlib.decompress(data, room)
        while self._zlib.unconsumed_tail and len(out) < room:
            out += self._zlib.decompress(self._zlib.unconsumed_tail, room - len(out))
        return out

    def finish(self) -> bytes:
        """The end of the body: a compressed body must be whole."""
        if self._zlib is None:
            return b""
        try:
            rest = self._zlib.flush()
        except zlib.error:
            raise TallyFailed(f"页面压缩数据损坏，无法解压：{self.url}") from None
        if self._started and not self._zlib.eof:
            raise TallyFailed(f"页面压缩数据不完整（传输中断？），无法解压：{self.url}")
        return rest


def _wait_at_most(raw, seconds: float) -> None:
    """Let the next read of ``raw`` wait at most ``seconds`` for bytes to come."""
    connection = getattr(raw, "connection", None)
    sock = getattr(connection, "sock", None)
    if sock is not None:
        sock.settimeout(max(seconds, 0.01))


def _same_host(url: str, target: str) -> bool:
    """Whether a redirect from ``url`` to ``target`` stays with the board: the same host and
    port (http may become https on it; https never falls back to http)."""
    here, there = urlsplit(url), urlsplit(target)
    if there.scheme not in ("http", "https") or (here.scheme, there.scheme) == ("https", "http"):
        return False
    if (here.hostname or "").lower() != (there.hostname or "").lower():
        return False
    return here.scheme != there.scheme or _port(here) == _port(there)


def _port(parts) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _http_reason(status: int) -> str:
    if status in _HTTP_REASONS:
        return f"，{_HTTP_REASONS[status]}"
    return "，论坛服务器出错" if status >= 500 else ""


def _server_clock(response: requests.Response) -> tuple[datetime, bool, datetime]:
    """The server's Date header (the board's clock, to the second) when it sends one, else
    ours; whether it is the board's; and ours, when the answer came (the ``Date`` is
    believed only where it agrees with it, or with the page's own clock:
    ``killmod.fetch.pages.fetched_clock``)."""
    from email.utils import parsedate_to_datetime

    ours = datetime.now(UTC)
    try:
        found = parsedate_to_datetime(response.headers["Date"])
    except (KeyError, TypeError, ValueError):
        return ours, False, ours
    if found.tzinfo is None:  # "-0000": a time in UTC whose source zone is unknown
        found = found.replace(tzinfo=UTC)
    return found, True, ours
