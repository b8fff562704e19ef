"""The judge's page: how long its first paint takes, and what an idle page costs.

    python -m bench.web

A game file from the example's roster (``killmod init``, ``killmod deal``) served by
``killmod serve --no-browser`` in its own process; over one keep-alive connection, as a
browser does: the first visit with the token (its redirect), then the 今天 page with its
stylesheet and scripts — the bytes a first paint needs — timed several times in turns
with the floor beside it: the same four requests for a static file of the page's size
served by Python's own http.server (the least work any server does for them).  Then the
server's CPU seconds over 10 idle seconds.  Figures only: no assertion.
"""

from __future__ import annotations

import http.client
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15


def killmod(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "killmod.commands.cli", *args], check=True, cwd=ROOT)


def paint(host: str, port: int, paths: list[str], cookie: str = "") -> float:
    """Seconds to fetch ``paths`` over one connection."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=10)
    for path in paths:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = connection.getresponse()
        response.read()
    connection.close()
    return time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "killmod.db"
        killmod("init", "--roster", str(ROOT / "examples" / "first-game.toml"), "--db", str(db))
        killmod("deal", "--db", str(db), "--seed", "1")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "killmod.commands.cli",
                "serve",
                "--db",
                str(db),
                "--no-browser",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        address = server.stdout.readline().strip()
        parts = urlsplit(address)
        connection = http.client.HTTPConnection(parts.hostname, parts.port)
        connection.request("GET", f"/?{parts.query}")
        answer = connection.getresponse()
        answer.read()
        cookie = answer.getheader("Set-Cookie").split(";")[0]
        connection.request("GET", "/", headers={"Cookie": cookie})
        page = connection.getresponse().read()
        connection.close()
        assert "游戏进度" in page.decode(), page[:300]
        paths = ["/", "/static/killmod.css", "/static/htmx.min.js", "/static/killmod.js"]
        static = Path(folder) / "static"
        static.mkdir()
        for path in paths:
            source = ROOT / "killmod" / "web" / path.lstrip("/") if path != "/" else None
            (static / (path.strip("/").replace("/", "_") or "index.html")).write_bytes(
                source.read_bytes() if source else page
            )
        floor = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(static)))
        threading.Thread(target=floor.serve_forever, daemon=True).start()
        floor_paths = [
            "/index.html",
            "/static_killmod.css",
            "/static_htmx.min.js",
            "/static_killmod.js",
        ]
        ours, least = [], []
        for _ in range(RUNS):  # in turns: both see the same machine
            ours.append(paint(parts.hostname, parts.port, paths, cookie))
            least.append(paint("127.0.0.1", floor.server_address[1], floor_paths))
        floor.shutdown()
        before = cpu_seconds(server.pid)
        time.sleep(10)
        idle = cpu_seconds(server.pid) - before
        server.terminate()
        server.wait()

    def shown(times: list[float]) -> str:
        return (
            f"median {statistics.median(times) * 1000:.1f} ms "
            f"(range {min(times) * 1000:.1f}–{max(times) * 1000:.1f} ms, {RUNS} runs)"
        )

    print(f"first paint of 今天 (page + css + htmx + js, {len(page)} B of HTML): {shown(ours)}")
    print(f"floor (the same bytes from http.server):                      {shown(least)}")
    print(f"ratio: {statistics.median(ours) / statistics.median(least):.1f}×")
    print(f"server CPU over 10 idle seconds: {idle:.2f} s")


if __name__ == "__main__":
    main()
