"""Only the judge gets in: the page's door.

What Jupyter does for a notebook on the judge's own machine (docs/architecture.md):

- the server listens on 127.0.0.1 only, and a request whose ``Host`` is not 127.0.0.1 or
  localhost is refused — a web page elsewhere cannot reach the server through a DNS name
  it points at 127.0.0.1 (DNS rebinding);
- the first visit carries the access token killmod printed (``/?token=…``); it is
  exchanged for a cookie (HttpOnly, SameSite=Strict) and the browser sent on to the same
  address without it, so the token stays out of the address bar, the history and any
  ``Referer``; a request with neither is refused;
- every change is a POST carrying the page's CSRF token (a form field, or htmx's header),
  and a POST from another origin is refused;
- pages are never cached, never framed, and load only the page's own scripts.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlencode, urlsplit

from flask import Flask, Response, abort, make_response, redirect, request
from markupsafe import escape

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
TOKEN_PARAMETER = "token"
CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"
# What the page's own files may do: no script, style or frame from anywhere else.
CONTENT_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)


def cookie_name(token: str) -> str:
    """The cookie of this server's token: two servers on two ports of 127.0.0.1 share the
    browser's cookies (cookies know no port), so each has its own name."""
    return "killmod_" + hashlib.sha256(token.encode()).hexdigest()[:12]


def same(given: str | None, expected: str) -> bool:
    """``given`` is ``expected``, compared in constant time."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:80`` → ``::1``)."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def install(app: Flask, token: str, csrf: str) -> None:
    """Guard every request of ``app`` with the access ``token`` and the ``csrf`` token."""
    cookie = cookie_name(token)

    @app.before_request
    def let_in() -> Response | None:
        if host_name(request.host).lower() not in LOCAL_HOSTS:
            abort(403, "只接受地址为 127.0.0.1 或 localhost 的访问。")
        if request.path.startswith("/static/"):
            return None  # the page's own scripts and styles: nothing secret in them
        given = request.args.get(TOKEN_PARAMETER)
        if given is not None:
            if not same(given, token):
                abort(403, "访问令牌不对：请打开 killmod serve 打印的网址。")
            rest = [(k, v) for k, v in request.args.items(multi=True) if k != TOKEN_PARAMETER]
            target = request.path + (f"?{urlencode(rest)}" if rest else "")
            response = redirect(target, code=303)
            response.set_cookie(cookie, token, httponly=True, samesite="Strict", path="/")
            return response
        if not same(request.cookies.get(cookie), token):
            abort(403, "请打开 killmod serve 打印的网址（带访问令牌）进入：只有法官能用这个页面。")
        if request.method != "GET" and request.method != "HEAD":
            origin = request.headers.get("Origin")
            # "null": a browser that keeps the origin to itself (the CSRF token still decides)
            foreign = origin and origin != "null"
            if foreign and host_name(urlsplit(origin).netloc).lower() not in LOCAL_HOSTS:
                abort(403, "拒绝来自其他网站的提交。")
            sent = request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)
            if not same(sent, csrf):
                abort(403, "表单已过期（CSRF 令牌不对）：请刷新页面后再提交。")
        return None

    @app.after_request
    def seal(response: Response) -> Response:
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        # same-origin: the page's own forms carry its Origin; no other site learns an address
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Content-Security-Policy"] = CONTENT_POLICY
        return response

    @app.errorhandler(403)
    def refused(error) -> Response:
        page = "<!doctype html><meta charset=utf-8><title>拒绝访问</title><p>{}</p>"
        return make_response(page.format(escape(error.description)), 403)
