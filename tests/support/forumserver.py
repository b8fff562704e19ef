"""A local HTTP server for fake boards: 127.0.0.1 only, a free port, one daemon thread.

The server answers every GET with whatever ``server.site(path_and_query)`` returns, looked up
at request time — so a test may swap or wrap ``site`` while the server runs (delays, 503s,
pages that change between fetches).  A response body that is not ``bytes`` but an iterable
of chunks is sent chunk by chunk as the iterable yields them (a board dripping its bytes);
its ``Content-Length`` must be given.  Every request's path and query is recorded in
``server.requests``, and its headers in ``server.headers``.

A site that has a ``handle(method, path_and_query, headers, body)`` method answers every
request through it, POSTs included (a board that takes forms: ``tests/support/fakeboard.py``);
a POST to any other site is a 405.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support.pagebuilder import Response, Site


class ForumServer(ThreadingHTTPServer):
    """An HTTP server on 127.0.0.1 that serves ``site`` and records what was asked."""

    daemon_threads = True

    def __init__(self, site: Site) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.site = site
        self.requests: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()

    def handle_error(self, request, client_address) -> None:
        """A client that gave up (reset or closed the connection) is no server error."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def answer(
        self,
        path_and_query: str,
        headers: dict[str, str] | None = None,
        method: str = "GET",
        body: bytes = b"",
    ) -> Response:
        """Record the request and ask the current site for the response."""
        with self._lock:
            self.requests.append(path_and_query)
            self.headers.append(headers or {})
        handle = getattr(self.site, "handle", None)
        if handle is not None:
            return handle(method, path_and_query, headers or {}, body)
        if method != "GET":
            return Response(405, {"Content-Type": "text/plain; charset=utf-8"}, b"")
        return self.site(path_and_query)


class BaseUrl(str):
    """A served board's base URL ("http://127.0.0.1:PORT") that also knows its server."""

    server: ForumServer


class _Handler(BaseHTTPRequestHandler):
    server: ForumServer
    protocol_version = "HTTP/1.1"
    # The headers and the body are two writes: without TCP_NODELAY the body waits for the
    # client's delayed ACK of the headers (~40 ms a response on Linux).
    disable_nagle_algorithm = True
    timeout = 30  # idle keep-alive connections end on their own

    def do_GET(self) -> None:
        self._reply(send_body=True)

    def do_HEAD(self) -> None:
        self._reply(send_body=False)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._reply(send_body=True, method="POST", body=self.rfile.read(length))

    def _reply(self, *, send_body: bool, method: str = "GET", body: bytes = b"") -> None:
        try:
            headers = dict(self.headers.items())
            response = self.server.answer(self.path, headers, method, body)
        except Exception as error:  # a broken site is a 500, as on a real board
            body = f"site error: {error!r}".encode()
            response = Response(500, {"Content-Type": "text/plain; charset=utf-8"}, body)
        given = {name.lower() for name in response.headers}
        self.send_response_only(response.status)
        self.send_header("Server", self.version_string())
        if "date" not in given:  # a site may set its own clock
            self.send_header("Date", self.date_time_string())
        for name, value in response.headers.items():
            for each in value if isinstance(value, list) else [value]:  # Set-Cookie, several
                self.send_header(name, each)
        if "content-length" not in given:
            self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if not send_body:
            return
        if isinstance(response.body, bytes):
            self.wfile.write(response.body)
            return
        try:
            for chunk in response.body:
                self.wfile.write(chunk)
                self.wfile.flush()
        except OSError:  # the client gave up on the drip
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: tests read ``server.requests`` instead of a log."""


@contextmanager
def serve(site: Site) -> Iterator[BaseUrl]:
    """Serve ``site`` on 127.0.0.1 while the block runs; yields the base URL.

    The yielded URL is a ``str``; its ``.server`` is the ``ForumServer`` (for
    ``.requests`` and for swapping ``.site``).
    """
    server = ForumServer(site)
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": 0.02},  # shutdown() waits up to one poll: keep teardown quick
        name="forumserver",
        daemon=True,
    )
    thread.start()
    base_url = BaseUrl(server.base_url)
    base_url.server = server
    try:
        yield base_url
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
