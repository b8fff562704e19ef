"""Credentials taken out of what killmod shows or keeps: ``user:password@`` in a URL.

A judge may give a board's URL with its login in it (``https://judge:pw@bbs.example.com/…``,
which requests sends as HTTP basic auth).  The URL with the login is used for the request
only; every message, post, JSON document, cache file and game file gets it redacted.
Cookie values are never put into text in the first place (``killmod.fetch.http`` reads them
into the session only).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

HIDDEN = "***"
# scheme://userinfo@ — userinfo cannot hold "/", "?", "#", "@" or blanks unencoded.
_LOGIN = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<login>[^/?#@\s]+)@")


def redact_url(url: str) -> str:
    """``url`` with its login (``user:password@``) replaced by ``***@``; other URLs as given."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{HIDDEN}@{host}"))


def redact(text: str) -> str:
    """``text`` with the login of every URL in it replaced by ``***@``."""
    return _LOGIN.sub(lambda match: f"{match['scheme']}{HIDDEN}@", text)
