"""Fetching forum pages over HTTP: one session, timeouts, retries, bounded concurrency."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from killmod.errors import TallyFailed

USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0 Safari/537.36 killmod/0.1"
)
TIMEOUT = (5, 20)  # connect, read (seconds)


@dataclass(frozen=True)
class Fetched:
    """One fetched page: its bytes, the charset the header declared, and when."""

    url: str
    body: bytes
    header_charset: str | None
    fetched_at: datetime


def new_session(retries: int = 3) -> requests.Session:
    """A session with a real User-Agent and retries with backoff on 429/5xx."""
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    retry = Retry(
        total=retries,
        backoff_factor=0.5,
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=("GET",),
        respect_retry_after_header=True,
        raise_on_status=False,
    )
    adapter = HTTPAdapter(max_retries=retry, pool_maxsize=8)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def fetch(session: requests.Session, url: str) -> Fetched:
    """GET one page; any failure is a TallyFailed naming the page and why."""
    try:
        response = session.get(url, timeout=TIMEOUT)
    except requests.exceptions.Timeout:
        raise TallyFailed(f"读取页面超时：{url}") from None
    except requests.exceptions.SSLError as error:
        raise TallyFailed(f"无法建立安全连接（TLS 错误）：{url}（{error}）") from None
    except requests.exceptions.ConnectionError:
        host = urlsplit(url).hostname or url
        raise TallyFailed(f"无法连接论坛 {host}：{url}") from None
    except requests.exceptions.RequestException as error:
        raise TallyFailed(f"读取页面失败：{url}（{error}）") from None
    if response.status_code != 200:
        raise TallyFailed(f"读取页面失败（HTTP {response.status_code}）：{url}")
    header_charset = (
        response.encoding if "charset" in response.headers.get("Content-Type", "") else None
    )
    return Fetched(url, response.content, header_charset, _server_clock(response))


def _server_clock(response: requests.Response) -> datetime:
    """The server's Date header (the board's clock) when it sends one, else ours."""
    try:
        return parsedate_to_datetime(response.headers["Date"])
    except (KeyError, TypeError, ValueError):
        return datetime.now(UTC)


def fetch_all(session: requests.Session, urls: Iterable[str], jobs: int = 4) -> list[Fetched]:
    """Fetch pages concurrently (at most ``jobs`` at once), in the order given."""
    urls = list(urls)
    if len(urls) <= 1 or jobs <= 1:
        return [fetch(session, url) for url in urls]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda url: fetch(session, url), urls))
