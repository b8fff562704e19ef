"""Pages a Discuz board answers with instead of a thread page, all with HTTP 200.

- ``showmessage()``'s message page (``div#messagetext``): no such thread, log in first, no
  permission, the user group may not read…;
- the "Discuz! System Error" page (``discuz_error::system_error``: a request with
  characters the board refuses, a wrong formhash…), its reason in ``div.info``;
- the mobile views: with ``mobile=2`` (or ``mobile=yes``) a desktop browser gets the
  "手机版" page (``body.pg_mobile``: an advert for the phone view), a phone the touch view
  (its title ends "手机版 - Powered by Discuz!"), which shows no seconds and no edit
  notices.  killmod reads the desktop thread page; the message gives its URL.

``board_message`` is asked only when a page could not be read as a thread page, so a
thread page costs nothing here.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from scrapers.base import document, tidy_text

# "手机版 - 论坛 - Powered by Discuz!" (the advert), "帖子 - 版块 - 论坛 - 手机版 - Powered by
# Discuz!" (the touch view): not a thread titled with the word.
_MOBILE_TITLE = re.compile(r"<title>\s*手机版\s+-|-\s+手机版\s+-\s+Powered by Discuz!\s*</title>")
_MOBILE_PARAMS = ("mobile", "simpletype")


def board_message(url: str, html: str) -> str | None:
    """Why the board answered ``url`` with ``html`` instead of a thread page, in Chinese and
    in the board's own words where it has some; None when it is no such page."""
    if 'id="messagetext"' in html:
        found = document(html).xpath('//div[@id="messagetext"]/p[1]')
        message = tidy_text(found[0].text_content()) if found else ""
        return f"论坛返回了提示页面：「{message}」" if message else None
    if "System Error" in html and 'class="info"' in html:
        reasons = [
            tidy_text(e.text_content()) for e in document(html).xpath('//div[@class="info"]')
        ]
        reason = next((text for text in reasons if text and "PHP Debug" not in text), "")
        return f"论坛返回了系统错误页面（Discuz! System Error）：「{reason or '没有说明原因'}」"
    if _MOBILE_TITLE.search(html[:4096]) or 'class="pg_mobile"' in html:
        instead = (
            f"请改用电脑版的帖子网址 {desktop_url(url)}"
            if url.startswith(("http://", "https://"))
            else "请在电脑版的帖子页保存，或直接用帖子网址"
        )
        return f"这是论坛的手机版页面，不是电脑版的帖子页（手机版不显示秒和编辑记录）：{instead}"
    return None


def desktop_url(url: str) -> str:
    """``url`` without the parameters that ask Discuz for its mobile views."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(key, value) for key, value in query if key not in _MOBILE_PARAMS]
    return urlunsplit(parts._replace(query=urlencode(kept, safe="%")))
