"""Credentials taken out of what killmod shows or keeps: ``user:password@`` in a URL, and
the session tokens a board puts in its query.

A judge may give a board's URL with its login in it (``https://judge:pw@bbs.example.com/…``,
which requests sends as HTTP basic auth).  The URL with the login is used for the request
only; every message, post, JSON document, cache file and game file gets it redacted.

A URL copied from the board's address bar may carry the judge's session too:

- ``sid`` — Discuz! 7.2 takes the session from ``$_GET['sid']`` when its 传递 SID setting
  (``$transsidstatus``) is on, and then writes ``&sid=…`` into every link of a page shown
  to a browser without the ``sid`` cookie (7.2's ``include/common.inc.php``, the
  ``$sid = … $_GET['sid'] …`` line; ``output()``/``transsid()`` in
  ``include/global.func.php``): the sid is the logged-in session;
- ``formhash`` — the form token of a session, in links that act (X3.4's logout link,
  ``member.php?mod=logging&action=logout&formhash=…``; X3.4 checks it against the session,
  ``source/class/discuz/discuz_application.php`` ``_xss_check()``), 7.2's alike;
- ``auth`` — X3.4's login link carries the encrypted user name and password
  (``source/class/class_member.php`` ``on_login()``: ``authcode($_GET['auth'], 'DECODE')``),
  7.2's RSS link the member's encrypted uid and password hash (``$rssauth``).

These are taken out of the address (not masked: the address kept is fetched again later,
and X refuses a ``formhash`` that is not the session's).  X3.4's ``saltkey`` and its
``sid`` are cookies only (``discuz_application.php`` ``_init_input()`` reads
``$this->var['cookie']['saltkey']`` and ``['sid']``), never in a URL.  Cookie values are
never put into text in the first place (``killmod.fetch.http`` reads them into the session
only).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

HIDDEN = "***"
# scheme://userinfo@ — userinfo cannot hold "/", "?", "#", "@" or blanks unencoded.
_LOGIN = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<login>[^/?#@\s]+)@")
# A session token in a query (its separator written & or, in HTML, &amp;), with the
# separator that follows it: sids, formhashes and authcodes are letters, digits, %, +, /, =.
_TOKEN = re.compile(
    r"(?P<lead>\?|&amp;|&)(?:sid|formhash|auth)=[A-Za-z0-9%+/=._-]*(?P<next>&amp;|&)?"
)


def redact_url(url: str) -> str:
    """``url`` with its login (``user:password@``) replaced by ``***@`` and its session
    tokens (``sid``, ``formhash``, ``auth``) taken out of its query; other URLs as given."""
    parts = urlsplit(url)
    if "@" in parts.netloc:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{HIDDEN}@{host}")
    elif not parts.query or _TOKEN.search("?" + parts.query) is None:
        return url
    query = _without_tokens("?" + parts.query).removeprefix("?")
    return urlunsplit(parts._replace(query=query))


def redact(text: str) -> str:
    """``text`` with the login of every URL in it replaced by ``***@`` and the session tokens
    of every query taken out."""
    return _without_tokens(_LOGIN.sub(lambda match: f"{match['scheme']}{HIDDEN}@", text))


def _without_tokens(text: str) -> str:
    """``text`` without its query's session tokens, the separators around them mended:
    ``?sid=a&tid=1`` → ``?tid=1``, ``?tid=1&sid=a`` → ``?tid=1``, ``?sid=a`` → nothing."""

    def mended(match: re.Match[str]) -> str:
        if match["lead"] == "?":
            return "?" if match["next"] else ""
        return match["next"] or ""

    return _TOKEN.sub(mended, text)
