"""The options of the commands that fetch a thread: concurrency, politeness, cookies, cache."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import click


def fetch_options(*, offline: bool = False, refresh: bool = False) -> Callable:
    """Add the fetching options to a command, which receives them as ``fetching``.

    ``fetching`` is a ``killmod.fetch.http.FetchOptions``.  ``offline`` offers ``--offline``
    (read the cache alone); ``refresh`` offers ``--refresh``, for a command that takes the
    pages before the last known one from the cache.
    """
    options = [
        click.option(
            "--view",
            type=click.Choice(("auto", "api", "printable", "pages")),
            default="auto",
            show_default=True,
            help="读帖子的哪种页面：auto 先用手机接口（精确到秒，一次读完），"
            "再读要看编辑记录的打印版或帖子页，接口关闭时读帖子页；"
            "api 只用手机接口的计划；printable 只读打印版；pages 只读帖子页",
        ),
        click.option(
            "--jobs",
            type=click.IntRange(min=1, max=16),
            default=4,
            show_default=True,
            help="同时读取的页数",
        ),
        click.option(
            "--delay",
            type=click.FloatRange(min=0),
            default=0.2,
            show_default=True,
            help="对同一论坛两次请求之间至少间隔的秒数",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.1),
            default=20.0,
            show_default=True,
            help="读取一页的超时秒数：论坛开始回应后，整页须在这么多秒内读完（超时会重试）",
        ),
        click.option(
            "--max-pages",
            type=click.IntRange(min=1),
            default=2000,
            show_default=True,
            help="帖子最多可有的页数：页码栏显示更多时报错，不会一直读下去",
        ),
        click.option(
            "--max-page-mb",
            type=click.IntRange(min=1),
            default=20,
            show_default=True,
            help="一页解压后最多可有的 MB 数：更大的页面报错",
        ),
        click.option(
            "--cookies",
            type=click.Path(path_type=Path),
            help="cookies.txt（Netscape 格式，浏览器扩展导出）：读取需要登录的论坛",
        ),
        click.option(
            "--cache",
            "cache_dir",
            type=click.Path(path_type=Path),
            metavar="文件夹",
            help="页面缓存文件夹（默认：用户缓存目录）",
        ),
    ]
    if offline:
        options.append(click.option("--offline", is_flag=True, help="不联网，只用缓存里的页面"))
    if refresh:
        options.append(click.option("--refresh", is_flag=True, help="不用缓存，所有页面重新读取"))

    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def with_fetching(
            *args, view, jobs, delay, timeout, max_pages, max_page_mb, cookies, cache_dir, **kwargs
        ):
            from killmod.fetch.cache import default_cache_dir
            from killmod.fetch.http import FetchOptions

            fetching = FetchOptions(
                jobs=jobs,
                delay=delay,
                timeout=timeout,
                cookies=cookies,
                cache=cache_dir or default_cache_dir(),
                offline=kwargs.pop("offline", False),
                refresh=kwargs.pop("refresh", False),
                progress=True,
                max_pages=max_pages,
                max_page_bytes=max_page_mb * 1024 * 1024,
                view=view,
            )
            return command(*args, fetching=fetching, **kwargs)

        for option in reversed(options):
            with_fetching = option(with_fetching)
        return with_fetching

    return decorate
