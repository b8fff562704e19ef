"""``killmod serve``: the judge's page on 127.0.0.1, until Ctrl-C.

waitress serves the page: a pure-Python WSGI server, the same on Windows, macOS and
Linux, with a few threads (a live count being read does not hold up another page) and
no access log (nothing of a request is written anywhere: the token never reaches a log).
"""

from __future__ import annotations

import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path

from killmod.core.errors import BadInput
from killmod.web.app import create_app

HOST = "127.0.0.1"  # only this machine: never another address
THREADS = 4


def serve(
    db: Path,
    *,
    port: int = 0,
    open_browser: bool = True,
    templates: Path | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Serve the page of the game file ``db`` on 127.0.0.1 (``port`` 0: a free one) until
    Ctrl-C; ``say`` gets the page's address with its access token first, before anything
    else is served."""
    from waitress.server import create_server

    app = create_app(db, templates=templates)
    try:
        server = create_server(app, host=HOST, port=port, threads=THREADS, ident="killmod")
    except OSError as error:
        raise BadInput(
            f"端口 {port} 用不了（{error.strerror or error}）：换一个 --port，或不写 --port "
            "让 killmod 自己找一个空闲的端口。"
        ) from None
    token = app.config["KILLMOD"].token
    address = f"http://{HOST}:{server.effective_port}/?token={token}"
    say(address)
    if open_browser:
        webbrowser.open(address)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    print("已停止：每一步都已在游戏文件里。", file=sys.stderr)
