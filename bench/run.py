"""killmod's benchmark: real commands, each as its own process, against real boards built
with the tests' page builder, beside the least work any tool must do and a naive script.

    .venv/bin/python -m bench.run [--repeat N] [--json] [--markdown] [--only start|30k]

(``--only start``: the start rows alone, in a few seconds, without the targets of the rest;
``--only 30k``: the 30,000-post rows alone — ``tally`` and ``lurkers`` beside the least work,
and the reading inside the process — with their targets, in a minute or two)

(run from the repository's folder: as a module, it finds the tests' helpers, ``tests.support``)

Boards (``tests/support/pagebuilder_api.whole_board``: thread pages, printable view, archiver and
the mobile API in versions 1 and 4 of one thread; every answer rendered once, then only sent):

- unpaced: served on 127.0.0.1, which killmod does not pace;
- paced: the same board behind a local proxy that answers every request after
  ``LATENCY`` seconds, reached as ``http://bbs.example.com/…`` through ``HTTP_PROXY``: a
  host name that is not this machine's, so killmod paces it at the default ``--delay``
  (0.2 s between request starts).  The lower bound of a plan there is what pacing and
  latency alone cost: ``(requests - 1) × 0.2 + LATENCY``.
- "refusing version 1": a board whose mobile plugin lacks version 1 (``module_not_exists``),
  where killmod reads version 4 and the edit notices from the printable view and thread
  pages.

Rows (every process row run ``--repeat`` times, all rows of one repetition in turns, so
that each sees the machine alike; start rows ``START_RUNS`` times):

- start: ``killmod --version``, ``killmod --help``; ``tally`` of a one-page saved thread
  (JSON and BBCode);
- paced: ``tally`` of a 200-post vote thread by each plan (the API, version 4 where the
  board refuses version 1, the thread pages) and of a 2,000-post one: seconds, requests
  counted at the proxy, bound;
- unpaced: the same 2,000-post thread by each plan, cold (an empty cache) and warm (a
  re-tally of unchanged pages), beside the floor (``bench/floor.py``: keep-alive
  ``http.client`` + ``lxml.html.fromstring``, as many processes as cores, over its 200 thread
  pages) and the naive reader (``bench/naive.py``: serial ``requests``, BeautifulSoup,
  dateparser on every time); a 30,000-post vote thread (``tally``) and game thread
  (``lurkers``) from the API beside the least work of reading the same answers
  (``bench/floor_json.py``: one keep-alive ``http.client`` connection and ``json.loads``),
  and what bounds their ratio from below: the same least work in a process that first loads
  the base libraries a command loads (requests, click, jinja2: ``floor_json.py
  --libraries``), and the least a tally can do there (``bench/floor_tally.py``: one pattern
  a post, the standing ballots, the change record; no check, no template) and the least
  work in a process that has first loaded every module ``tally`` (or ``lurkers``) loads
  (``floor_json.py --modules``, the list read from the command's ``-X importtime``);
  ``lurkers`` of a 5,000-post game thread by each plan;
- memory: the peak of the whole process tree (the command and its worker processes), as
  the sum of every process's PSS (``/proc/PID/smaps_rollup``), for the unpaced rows;
- watch: one poll of a 2,000-post thread read from the API (in-process: requests, bytes);
- read only: ``read_thread`` of the 30,000-post vote thread timed inside its own process
  (``bench/read_only.py``; the cache on, as a command has it) beside the least work of
  reading the same answers timed the same way (each process imports its modules before
  its clock starts): the fetch layer's cost without a command's start, count or
  announcement;
- parse only: posts per second of each scraper (the best of 7 passes, as ``timeit``).

Every command runs with its bytecode compiled (as after ``pip install``) and its caches in
a temporary folder.  Process rows give the median of their runs and the range.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent

from tests.support.forumserver import serve  # noqa: E402
from tests.support.gamethread import ROUND1_END, ROUND2_END, game_thread  # noqa: E402
from tests.support.pagebuilder import (  # noqa: E402
    DEMO_ROSTER_TOML,
    FakeThread,
    Response,
    big_roster_toml,
    big_thread,
    demo_thread,
    render_discuz_x_page,
)
from tests.support.pagebuilder_api import api_path, whole_board  # noqa: E402

KILLMOD = [sys.executable, "-m", "killmod.commands.cli"]
PARSE_PASSES = 7
START_RUNS = 15
LATENCY = 0.1  # seconds the paced board takes to answer a request
DELAY = 0.2  # killmod's default --delay
PACED_HOST = "bbs.example.com"
SHANGHAI = ZoneInfo("Asia/Shanghai")
API_PPP = 1000  # killmod.fetch.api.API_PPP: the floor asks for the same answers


# --- boards -----------------------------------------------------------------------------------


def prerendered(thread: FakeThread, api: str = "open"):
    """The thread's whole board with every answer rendered once: the server only sends."""
    site = whole_board(thread, api=api)
    answers: dict[str, Response] = {}

    def cached(path: str) -> Response:
        if path not in answers:
            answers[path] = site(path)
        return answers[path]

    return cached


@contextmanager
def unpaced_board(thread: FakeThread, api: str = "open"):
    """The board on 127.0.0.1: (base URL, server, environment of the clients)."""
    with serve(prerendered(thread, api)) as base:
        yield base, base.server, {}


@contextmanager
def paced_board(thread: FakeThread, api: str = "open"):
    """The board behind a proxy answering after ``LATENCY`` seconds, as ``PACED_HOST``."""
    site = prerendered(thread, api)
    prefix = re.compile(r"^https?://[^/]+")

    def remote(path: str) -> Response:
        time.sleep(LATENCY)
        return site(prefix.sub("", path))

    with serve(remote) as proxy:
        yield f"http://{PACED_HOST}", proxy.server, {"HTTP_PROXY": proxy, "http_proxy": proxy}


def thread_url(base: str, thread: FakeThread) -> str:
    return f"{base}/forum.php?mod=viewthread&tid={thread.tid}"


def page_urls(base: str, thread: FakeThread) -> list[str]:
    return [f"{thread_url(base, thread)}&page={n}" for n in range(1, thread.page_count + 1)]


def api_urls(base: str, thread: FakeThread) -> list[str]:
    """The API answers killmod asks for the whole thread (version 1, 1,000 posts each)."""
    pages = -(-len(thread.shown()) // API_PPP)
    return [f"{base}{api_path(thread.tid, ppp=API_PPP, page=n)}" for n in range(1, pages + 1)]


# --- processes --------------------------------------------------------------------------------


def environment(work: Path, extra: dict[str, str]) -> dict[str, str]:
    """What every command runs with: bytecode written and read, caches in ``work``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = {k: v for k, v in env.items() if not k.lower().endswith("_proxy")}
    env["XDG_CACHE_HOME"] = str(work / "xdg")
    env.update(extra)
    return env


def tree_pss(root: int) -> int:
    """The summed PSS (bytes) of ``root`` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, grown = {root}, True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grown = True
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as smaps:
                total += sum(
                    int(line.split()[1]) * 1024 for line in smaps if line.startswith("Pss:")
                )
        except OSError:
            continue
    return total


def timed(command: list[str], env: dict[str, str], *, memory: bool = False) -> dict:
    """Seconds of one run of ``command`` (which must succeed), and with ``memory`` the peak
    summed PSS of its process tree in MiB."""
    peak = [0]
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_pss(process.pid))
            done.wait(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    if memory:
        watcher.start()
    errors = process.stderr.read()
    process.wait()
    seconds = time.perf_counter() - start
    done.set()
    if memory:
        watcher.join()
    if process.returncode != 0:
        raise SystemExit(f"bench command failed: {' '.join(command)}\n{errors}")
    return {"seconds": seconds, "mib": peak[0] / 2**20 if memory else None}


# --- the rows ---------------------------------------------------------------------------------


@dataclass
class Row:
    """One measure: a command run once per repetition (``command(r)``: the r-th run's), on
    a board whose requests are counted (``server``), and what it found each time."""

    name: str
    group: str
    command: Callable[[int], list[str]]
    env: dict[str, str]
    posts: int | None = None
    server: object | None = None
    memory: bool = False
    paced: bool = False
    runs: list[dict] = field(default_factory=list)

    def run(self, r: int) -> None:
        before = len(self.server.requests) if self.server is not None else 0
        result = timed(self.command(r), self.env, memory=self.memory)
        if self.server is not None:
            result["requests"] = len(self.server.requests) - before
        self.runs.append(result)

    def summary(self) -> dict:
        seconds = [run["seconds"] for run in self.runs]
        out = {"row": self.name, "group": self.group, "posts": self.posts}
        out["seconds"] = statistics.median(seconds)
        out["range"] = [min(seconds), max(seconds)]
        out["n"] = len(seconds)
        asked = sorted({run["requests"] for run in self.runs if "requests" in run})
        if asked:
            out["requests"] = asked[0] if len(asked) == 1 else f"{asked[0]}–{asked[-1]}"
            if self.paced and len(asked) == 1:
                out["bound"] = (asked[0] - 1) * DELAY + LATENCY
        mib = [run["mib"] for run in self.runs if run.get("mib")]
        if mib:
            out["mib"] = max(mib)
        return out


def loaded_modules(warm: list[str], command: list[str], env: dict[str, str]) -> list[str]:
    """Every module ``command`` (a ``python -m`` command) loads, in the order it finished
    loading them, read from its ``-X importtime`` once ``warm`` (the same command with
    another page cache) has compiled its templates, as in the rows' runs."""
    subprocess.run(warm, env=env, capture_output=True, check=True)
    done = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    names = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", done.stderr, re.M)
    return [name for name in names if name not in ("sitecustomize", "__main__")]


def tally_command(
    url: str, roster: Path, cache: Path, view: str = "auto", fmt: str = "json"
) -> list[str]:
    return [
        *KILLMOD,
        "tally",
        url,
        "--roster",
        str(roster),
        "--deadline",
        "22:00",
        "--format",
        fmt,
        "--cache",
        str(cache),
        "--view",
        view,
    ]


class Bench:
    """The boards and the rows, set up once; ``run`` takes every row in turns."""

    def __init__(self, work: Path, stack: ExitStack) -> None:
        self.work, self.stack = work, stack
        self.start: list[Row] = []
        self.rows: list[Row] = []
        self.roster = work / "big-roster.toml"
        self.roster.write_text(big_roster_toml(), encoding="utf-8")

    def board(self, thread: FakeThread, *, paced: bool, api: str = "open"):
        return self.stack.enter_context((paced_board if paced else unpaced_board)(thread, api))

    def cache(self, name: str, r: int) -> Path:
        return self.work / f"cache-{name}-{r}"

    def start_rows(self) -> None:
        """``--version``, ``--help`` and a one-page saved tally (every time with its exact
        title)."""
        thread = replace(demo_thread(), per_page=40)
        thread.posts = [replace(post, time_style="auto") for post in thread.posts]
        folder = self.work / "one-page"
        folder.mkdir()
        (folder / "page-1.html").write_bytes(render_discuz_x_page(thread, 1))
        roster = self.work / "demo-roster.toml"
        roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
        env = environment(self.work, {})
        saved = [*KILLMOD, "tally", str(folder), "--roster", str(roster), "--deadline", "22:00"]
        commands = {
            "killmod --version": [*KILLMOD, "--version"],
            "killmod --help": [*KILLMOD, "--help"],
            "tally, one-page saved thread, JSON": [*saved, "--format", "json"],
            "tally, one-page saved thread, BBCode": saved,
        }
        for name, command in commands.items():
            timed(command, env)  # compile the bytecode and templates once
            self.start.append(Row(name, "start", lambda r, c=command: c, env, len(thread.posts)))

    def vote_rows(self, pages: int, *, paced: bool, plans: tuple[str, ...]) -> None:
        """``tally`` of a ``pages``-page (10 posts a page) vote thread by each plan; unpaced,
        also warm, with memory."""
        thread = big_thread(pages)
        where = "paced" if paced else "unpaced"
        posts = len(thread.posts)
        for plan in plans:
            api = "v1_refused" if plan == "version 4" else "open"
            view = "pages" if plan == "pages" else "auto"
            base, server, extra = self.board(thread, paced=paced, api=api)
            env = environment(self.work, extra)
            url = thread_url(base, thread)
            name = f"{where}-{posts}-{plan}"

            def cold(r: int, url=url, name=name, view=view) -> list[str]:
                return tally_command(url, self.roster, self.cache(name, r), view)

            label = {"api": "the API", "version 4": "refusing version 1", "pages": "--view pages"}
            title = f"{where}: tally {posts:,}-post thread, {label[plan]}"
            self.rows.append(
                Row(title, where, cold, env, posts, server, memory=not paced, paced=paced)
            )
            if not paced:
                self.rows.append(
                    Row(f"{title}, re-tally (unchanged)", where, cold, env, posts, server)
                )

    def floor_rows(self, pages: int) -> None:
        """The floor and the naive reader over the same thread's pages."""
        thread = big_thread(pages)
        base, server, extra = self.board(thread, paced=False)
        env = environment(self.work, extra)
        urls = page_urls(base, thread)
        posts = len(thread.posts)
        floor = [sys.executable, str(ROOT / "bench" / "floor.py"), *urls]
        naive = [sys.executable, str(ROOT / "bench" / "naive.py"), *urls]
        label = f"{len(urls)} thread pages"
        self.rows.append(
            Row(f"unpaced: floor, {label}", "unpaced", lambda r: floor, env, posts, server, True)
        )
        self.rows.append(
            Row(f"unpaced: naive reader, {label}", "unpaced", lambda r: naive, env, posts, server)
        )

    def huge_rows(self, posts: int) -> None:
        """A ``posts``-post vote thread (``tally``) and game thread (``lurkers``) from the
        API, each beside the least work of reading the same answers."""
        vote = big_thread(posts // 10)
        base, server, extra = self.board(vote, paced=False)
        env = environment(self.work, extra)
        url = thread_url(base, vote)
        floor = [sys.executable, str(ROOT / "bench" / "floor_json.py"), *api_urls(base, vote)]

        def tally(r: int) -> list[str]:  # the judge's command: the announcement (BBCode)
            return tally_command(url, self.roster, self.cache("huge-tally", r), fmt="bbcode")

        title = f"unpaced: tally {posts:,}-post vote thread, the API"
        self.rows.append(Row(title, "unpaced", tally, env, posts, server, memory=True))
        answers = len(floor) - 2
        title = f"unpaced: floor, the same {answers} API answers (json.loads)"
        self.rows.append(Row(title, "unpaced", lambda r: floor, env, posts, server, True))
        loaded = [*floor[:2], "--libraries", *floor[2:]]
        title = f"unpaced: floor, the same {answers} API answers, requests, click and jinja2 loaded"
        self.rows.append(Row(title, "unpaced", lambda r: loaded, env, posts, server))
        least = [sys.executable, str(ROOT / "bench" / "floor_tally.py"), *floor[2:]]
        title = f"unpaced: least tally of the same {answers} API answers, the libraries loaded"
        self.rows.append(Row(title, "unpaced", lambda r: least, env, posts, server))
        lurkers = self.lurker_rows(posts, plans=("api",))["api"]
        for name, command in (("tally", tally), ("lurkers", lurkers)):
            listed = self.work / f"{name}-modules.txt"
            modules = loaded_modules(command(-3), command(-2), env)
            listed.write_text("\n".join(modules), encoding="utf-8")
            loading = [*floor[:2], "--modules", str(listed), *floor[2:]]
            title = f"unpaced: floor, the same {answers} API answers, every module {name} loads"
            self.rows.append(Row(title, "unpaced", lambda r, c=loading: c, env, posts, server))

    def lurker_rows(self, posts: int, *, plans: tuple[str, ...]) -> dict[str, Callable]:
        """``lurkers`` of a ``posts``-post game thread, by each plan, cold: the command of
        each plan, by run."""
        from killmod.game.roster import load_roster

        roster_file = ROOT / "examples" / "roster.toml"
        living = [p.seat for p in load_roster(roster_file).players if p.alive]
        rows_of_posts = [
            (
                living[n % len(living)],
                ROUND1_END.replace(minute=0) + (ROUND2_END - ROUND1_END) * n / posts,
                f"第 {n} 帖",
            )
            for n in range(1, posts)
        ]
        thread = game_thread(rows_of_posts)
        db = self.work / f"game-{posts}.db"
        env = environment(self.work, {})
        subprocess.run(
            [*KILLMOD, "init", "--roster", str(roster_file), "--db", str(db), "--force"],
            check=True,
            capture_output=True,
            env=env,
        )
        base, server, _ = self.board(thread, paced=False)
        url = thread_url(base, thread)
        window = ["--from", "2019-05-11 22:00", "--to", "2019-05-12 22:00"]
        commands = {}
        for plan in plans:
            view = "pages" if plan == "pages" else "auto"

            def lurkers(r: int, view=view, plan=plan) -> list[str]:
                cache = self.cache(f"lurkers-{posts}-{plan}", r)
                command = [*KILLMOD, "lurkers", url, *window, "--db", str(db), "--format", "text"]
                return [*command, "--cache", str(cache), "--view", view]

            label = "the API" if plan == "api" else "--view pages"
            title = f"unpaced: lurkers {posts:,}-post game thread, {label}"
            self.rows.append(Row(title, "unpaced", lurkers, env, posts, server, memory=True))
            commands[plan] = lurkers
        return commands

    def run(self, repeat: int) -> None:
        """Every row ``repeat`` times, all rows of one repetition in turns, after a first
        round not counted (the boards render every answer once); the start rows
        ``START_RUNS`` times, in turns among themselves."""
        for _ in range(START_RUNS):
            for row in self.start:
                row.run(0)
        for row in self.rows:
            row.run(-1)
            row.runs.clear()
        for r in range(repeat):
            for row in self.rows:
                row.run(r)


def watch_poll() -> dict:
    """One poll of ``watch`` on a 2,000-post thread read from the API: what it asks."""
    from killmod.fetch.http import Fetcher, FetchOptions
    from killmod.fetch.plan import poll
    from killmod.fetch.thread import read_thread
    from tests.support.pagebuilder import FakePost

    thread = big_thread(200)
    board = whole_board(thread)
    sent: list[int] = []

    def sizing(path: str) -> Response:
        answer = board(path)
        sent.append(len(answer.body))
        return answer

    with serve(sizing) as base, Fetcher(FetchOptions(delay=0)) as fetcher:
        first = read_thread(thread_url(base, thread), tz=SHANGHAI, fetcher=fetcher)
        last = thread.posts[-1]
        thread.posts.append(FakePost(last.pid + 3, last.author, last.uid, last.posted_at, "投 5号"))
        sent.clear()
        started = time.perf_counter()
        followed = poll(first, fetcher, tz=SHANGHAI)
        seconds = time.perf_counter() - started
    if followed is None or len(followed.posts) != len(first.posts) + 1:
        raise SystemExit("bench: the poll did not follow the thread")
    return {
        "row": "watch: one poll of a 2,000-post thread read from the API",
        "group": "watch",
        "posts": len(thread.posts),
        "requests": len(sent),
        "seconds": seconds,
        "kib": sum(sent) / 1024,
    }


def read_only(repeat: int) -> list[dict]:
    """The reading of a 30,000-post thread alone, timed inside its own process
    (``bench/read_only.py``), beside the least work of reading the same answers timed the
    same way: what the fetch layer costs without a command's start, count or announcement.
    In turns, the median of ``repeat`` runs."""
    thread = big_thread(3000)
    runs: dict[str, list[float]] = {"killmod": [], "floor": []}
    script = [sys.executable, "-m", "bench.read_only"]
    with serve(prerendered(thread)) as base, tempfile.TemporaryDirectory() as tmp:
        env = environment(Path(tmp), {})
        urls = api_urls(base, thread)
        commands = {
            "killmod": lambda r: [*script, "killmod", thread_url(base, thread), f"{tmp}/{r}"],
            "floor": lambda r: [*script, "floor", *urls],
        }
        for r in range(-1, repeat):
            for name, command in commands.items():
                done = subprocess.run(
                    command(r), capture_output=True, text=True, env=env, cwd=ROOT, check=True
                )
                if r >= 0:
                    runs[name].append(float(done.stderr.strip().splitlines()[-1]))
    titles = {
        "killmod": "inside the process: read_thread, 30,000-post thread, the API",
        "floor": "inside the process: floor, the same 30 API answers (json.loads)",
    }
    return [
        {
            "row": titles[name],
            "group": "read",
            "posts": len(thread.posts),
            "requests": len(urls),
            "seconds": statistics.median(seconds),
            "range": [min(seconds), max(seconds)],
            "n": len(seconds),
        }
        for name, seconds in runs.items()
    ]


def parse_rates(rows: list[dict]) -> None:
    """Posts per second of each scraper over 1,000 posts of saved pages (the best of
    ``PARSE_PASSES`` passes, as ``timeit`` reports: a slower pass measures whatever else
    the machine was doing)."""
    from killmod.core.times import BoardClock
    from scrapers import by_name
    from scrapers.charset import decode_html
    from tests.support import pagebuilder_dz72, pagebuilder_more
    from tests.support.pagebuilder_api import render_api_page

    thread = big_thread(100)
    now = datetime(2019, 5, 12, 22, 10, tzinfo=SHANGHAI)
    pages = range(1, thread.page_count + 1)
    per_sohu = pagebuilder_more.SOHU_PER_PAGE
    renderers = {
        "discuz_x": [render_discuz_x_page(thread, n) for n in pages],
        "discuz_x_mobile": [render_api_page(thread, n, ppp=1000) for n in (1,)],
        "discuz7": [pagebuilder_dz72.render_dz72_page(thread, n) for n in pages],
        "discuz7_archiver": [
            pagebuilder_dz72.render_dz72_archiver(thread, n)
            for n in range(1, (len(thread.posts) + 19) // 20 + 1)
        ],
        "discuz_x_archiver": [pagebuilder_more.render_archiver_page(thread, n) for n in pages],
        "sohu": [
            pagebuilder_more.render_sohu_page(thread, n)
            for n in range(1, (len(thread.posts) + per_sohu - 1) // per_sohu + 1)
        ],
    }
    for name, bodies in renderers.items():
        texts = [decode_html(body) for body in bodies]
        scraper = by_name(name)
        count = sum(
            len(scraper.parse(text, tz=SHANGHAI, clock=BoardClock(now)).posts) for text in texts
        )

        def one_pass(scraper=scraper, texts=texts) -> float:
            start = time.perf_counter()
            for text in texts:
                scraper.parse(text, tz=SHANGHAI, clock=BoardClock(now))
            return time.perf_counter() - start

        seconds = min(one_pass() for _ in range(PARSE_PASSES))
        rows.append(
            {"row": f"parse only, {name}", "group": "parse", "posts": count, "seconds": seconds}
        )


# --- report -----------------------------------------------------------------------------------


def find(rows: list[dict], name: str) -> dict | None:
    return next((row for row in rows if row["row"] == name), None)


def targets(rows: list[dict], only: str | None = None) -> list[str]:
    """The issue's targets, each with what this run measured (with ``only``, those of the
    rows it ran: ``start`` or ``30k``)."""
    lines = []

    def row(name: str) -> dict:
        found = find(rows, name)
        if found is None:
            raise KeyError(name)
        return found

    if only == "30k":
        return huge_targets(row)
    if only is None:
        lines += throughput_targets(row)
    for name, limit in (
        ("killmod --version", 0.08),
        ("killmod --help", 0.1),
        ("tally, one-page saved thread, JSON", 0.15),
        ("tally, one-page saved thread, BBCode", 0.15),
    ):
        found = row(name)
        low, high = found["range"]
        lines.append(
            f"{name}: median {found['seconds']:.3f} s, range {low:.3f}–{high:.3f} s over "
            f"{found['n']} runs (≤ {limit} s)"
        )
    return lines


def throughput_targets(row: Callable[[str], dict]) -> list[str]:
    """The targets of the rows other than start."""
    lines = []
    api = row("paced: tally 200-post thread, the API")
    pages = row("paced: tally 200-post thread, --view pages")
    lines.append(
        f"paced 200-post vote thread, the API: {api['requests']} request (1), "
        f"{api['seconds']:.2f} s (≤ 0.5 s), {api['seconds'] / pages['seconds']:.2f}× the thread"
        f" pages' {pages['seconds']:.2f} s (≤ 0.15×)"
    )
    big = row("paced: tally 2,000-post thread, the API")
    lines.append(f"paced 2,000-post thread: {big['requests']} requests (2), {big['seconds']:.2f} s")
    lines += huge_targets(row)
    poll = row("watch: one poll of a 2,000-post thread read from the API")
    lines.append(f"watch: one poll = {poll['requests']} request, {poll['kib']:.1f} KiB")
    return lines


def huge_targets(row: Callable[[str], dict]) -> list[str]:
    """The targets of the 30,000-post rows."""
    lines = []
    huge = row("unpaced: tally 30,000-post vote thread, the API")
    floor = row("unpaced: floor, the same 30 API answers (json.loads)")
    game = row("unpaced: lurkers 30,000-post game thread, the API")
    for name, measured in (("tally", huge), ("lurkers", game)):
        lines.append(
            f"30,000-post thread, {name}: {measured['requests']} requests (≤ 31), "
            f"{measured['mib']:.0f} MiB (≤ 300), {measured['seconds']:.2f} s = "
            f"{measured['seconds'] / floor['seconds']:.2f}× the least work's "
            f"{floor['seconds']:.2f} s (≤ 2×)"
        )
    # What bounds the ratio from below: the least work in a process that loads the base
    # libraries a command loads, the least a tally can do there (bench/floor_tally.py), and
    # the least work in a process that loads every module the command loads.
    for name in (
        "unpaced: floor, the same 30 API answers, requests, click and jinja2 loaded",
        "unpaced: least tally of the same 30 API answers, the libraries loaded",
        "unpaced: floor, the same 30 API answers, every module tally loads",
        "unpaced: floor, the same 30 API answers, every module lurkers loads",
    ):
        measured = row(name)
        lines.append(
            f"{name.removeprefix('unpaced: ')}: {measured['seconds']:.2f} s = "
            f"{measured['seconds'] / floor['seconds']:.2f}× the least work"
        )
    read = row("inside the process: read_thread, 30,000-post thread, the API")
    least = row("inside the process: floor, the same 30 API answers (json.loads)")
    lines.append(
        f"30,000-post thread, the reading alone: {read['seconds']:.2f} s = "
        f"{read['seconds'] / least['seconds']:.2f}× the least work's {least['seconds']:.2f} s"
    )
    return lines


def table(rows: list[dict], markdown: bool) -> str:
    head = ["measure", "posts", "requests", "seconds", "range", "bound", "MiB"]
    lines = []
    if markdown:
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    else:
        lines.append(
            f"{head[0]:<64} {'posts':>6} {'req':>5} {'s':>8} {'range':>15} {'bound':>6} {'MiB':>6}"
        )
    for row in rows:
        posts = f"{row['posts']:,}" if row.get("posts") else ""
        requests = str(row["requests"]) if row.get("requests") is not None else ""
        seconds = f"{row['seconds']:.3f}"
        spread = f"{row['range'][0]:.3f}–{row['range'][1]:.3f}" if "range" in row else ""
        bound = f"{row['bound']:.2f}" if row.get("bound") is not None else ""
        mib = f"{row['mib']:.0f}" if row.get("mib") else ""
        cells = [row["row"], posts, requests, seconds, spread, bound, mib]
        if markdown:
            lines.append("| " + " | ".join(cells) + " |")
        else:
            numbers = f"{posts:>6} {requests:>5} {seconds:>8} {spread:>15} {bound:>6} {mib:>6}"
            lines.append(f"{cells[0]:<64} {numbers}")
    return "\n".join(lines)


@contextmanager
def benched(work: Path, only: str | None = None) -> Iterator[Bench]:
    with ExitStack() as stack:
        bench = Bench(work, stack)
        if only == "30k":
            bench.huge_rows(30_000)
            yield bench
            return
        bench.start_rows()
        if only == "start":
            yield bench
            return
        plans = ("api", "version 4", "pages")
        bench.vote_rows(20, paced=True, plans=plans)  # 200 posts
        bench.vote_rows(200, paced=True, plans=("api",))  # 2,000 posts
        bench.vote_rows(200, paced=False, plans=plans)
        bench.floor_rows(200)
        bench.huge_rows(30_000)
        bench.lurker_rows(5_000, plans=("api", "pages"))
        yield bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each process row (≥ 5)")
    parser.add_argument("--only", choices=["start", "30k"], help="run only these rows")
    args = parser.parse_args()
    started = time.perf_counter()
    loads = []
    with tempfile.TemporaryDirectory() as tmp, benched(Path(tmp), args.only) as bench:
        loads.append(os.getloadavg()[0])
        bench.run(max(args.repeat, 1))
        loads.append(os.getloadavg()[0])
        done = [row.summary() for row in [*bench.start, *bench.rows]]
        if args.only is None:
            done.append(watch_poll())
        if args.only != "start":
            done += read_only(max(args.repeat, 1))
    if args.only is None:
        parse_rates(done)
    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {loads[0]:.2f} at the start and {loads[-1]:.2f} at the end, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    if args.json:
        print(
            json.dumps(
                {"machine": machine, "rows": done, "targets": targets(done, args.only)},
                ensure_ascii=False,
                indent=1,
            )
        )
        return
    print(f"machine: {machine}\n")
    print(table(done, args.markdown))
    print("\ntargets:")
    for line in targets(done, args.only):
        print(f"  {line}")


if __name__ == "__main__":
    main()
