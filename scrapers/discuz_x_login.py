"""Discuz! X3.x's login form as a member's browser uses it, and its captcha (验证码, seccode).

Read from Discuz! X3.4's source (lhmouse/DiscuzX, ``upload/``):

- ``member.php?mod=logging&action=login`` runs ``logging_ctl::on_login``
  (``source/class/class_member.php``, lines 31–298; ``source/module/member/member_logging.php``
  line 24).  Its page (``template/default/member/login.htm``) holds ``form#loginform_LHASH``
  posting to ``member.php?mod=logging&action=login&loginsubmit=yes&loginhash=LHASH`` with
  ``formhash``, ``referer``, ``loginfield``, ``username``, ``password``, ``questionid``,
  ``answer`` and ``cookietime`` (login.htm lines 40–134); the browser's script posts it
  with ``inajax=1`` (the answer is ``text/xml``, as every form's, ``scrapers.discuz_x_posting``).
- When the board wants a captcha for logging in (``seccheck('login')``: the admin's rule
  “always”, class_member.php line 40, ``helper_seccheck::rule_login`` lines 236–247), the
  form carries ``<span id="seccode_cSHASH">`` and ``updateseccode('cSHASH', …,
  'member::logging')`` (``template/default/common/seccheck.htm`` lines 1–12, login.htm
  lines 120–123); the browser then asks ``misc.php?mod=seccode&action=update&idhash=cSHASH``
  for the ``<img>`` whose ``src`` is ``misc.php?mod=seccode&update=RAND&idhash=cSHASH``
  (``source/module/misc/misc_seccode.php`` line 57).  That image makes the code and keeps
  it for the session under the cookie ``seccode`` + idhash (``helper_seccheck::make_seccode``
  and ``_create``, lines 50–105), and is refused (“Access Denied”) unless the ``Referer``
  is the board's own host (misc_seccode.php lines 92–97).  The form is then posted with
  ``seccodehash`` (the idhash), ``seccodemodid`` and ``seccodeverify`` (the code, any
  case: ``check_seccode`` compares it upper-cased, helper_seccheck.php line 179); a wrong
  code is ``submit_seccode_invalid`` — “抱歉，验证码填写错误” — before the password is
  tried (``helper_form::submitcheck``, ``source/class/helper/helper_form.php`` lines 24–30).
- Under the rule “after failed logins” (``allow == 2``) the password is checked first; then
  the board may ask for a captcha after all (class_member.php lines 171–203: after failed
  tries, a new place, a weak password…): it answers ``login_seccheck2`` — “请输入验证码后继续
  登录” — with a script sending the browser to ``member.php?mod=logging&action=login&auth=…``,
  whose form carries the name and password sealed in ``auth`` and asks for the captcha
  alone (login.htm lines 44–46, 59–90).
- A wrong password is ``login_invalid`` — “登录失败，您还可以尝试 N 次” (class_member.php
  lines 286–293), too many is ``login_strike``; success sets the ``auth`` cookie
  (``setloginstatus``, line 123) and answers ``succeedhandle_…`` (lines 246–270).

This module knows the board's pages and nothing of games: URLs, fields and parsers.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

from scrapers.base import ScrapeError, document

SECCODE_MODID = "member::logging"
SECCODE_INVALID = "抱歉，验证码填写错误"
SECCHECK2 = "请输入验证码后继续登录"
_SECCODE_SPAN = re.compile(r"^seccode_(\w+)$")
_UPDATE_SECCODE = re.compile(r"updateseccode\('(\w+)'")


def login_url(root: str) -> str:
    """The board's login page (登录)."""
    return urljoin(root, "member.php?" + urlencode({"mod": "logging", "action": "login"}))


def seccode_url(root: str, idhash: str) -> str:
    """The captcha image of the form whose seccode is ``idhash`` (a new code each time)."""
    query = {"mod": "seccode", "update": str(10000 + secrets.randbelow(90000)), "idhash": idhash}
    return urljoin(root, "misc.php?" + urlencode(query))


@dataclass(frozen=True)
class LoginForm:
    """The login form of a page: where it posts (with ``inajax=1``), its hidden fields,
    whether it asks for the name and password (not when they are sealed in ``auth``) and
    the idhash of its captcha (None: no captcha asked)."""

    action: str
    hidden: dict[str, str]
    asks_password: bool
    seccode: str | None

    def fields(self, name: str, password: str, code: str | None) -> dict[str, str]:
        """The fields the form is posted with, as the board's page sends them."""
        fields = dict(self.hidden)
        if self.asks_password:
            fields.update(loginfield="username", username=name, password=password)
        fields.update(questionid="0", answer="", cookietime="2592000")
        if self.seccode is not None:
            fields.update(
                seccodehash=self.seccode, seccodemodid=SECCODE_MODID, seccodeverify=code or ""
            )
        return fields


def login_form(html: str, url: str) -> LoginForm:
    """The login form of the page ``html`` (read from ``url``); a ``ScrapeError`` when the
    page holds none."""
    root = document(html)
    forms = root.xpath('//form[starts-with(@id, "loginform_")]')
    if not forms:
        raise ScrapeError("页面里没有登录表单（form#loginform_…）：不是 Discuz! X 的登录页")
    form = forms[0]
    action = urljoin(url, form.get("action", ""))
    parts = urlsplit(action)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    query["inajax"] = "1"
    action = parts._replace(query=urlencode(query)).geturl()
    hidden = {
        field.get("name"): field.get("value", "")
        for field in form.xpath('.//input[@type="hidden"][@name]')
        if field.get("name") in ("formhash", "referer", "auth", "handlekey")
    }
    asks_password = bool(form.xpath('.//input[@name="password"]'))
    return LoginForm(action, hidden, asks_password, _seccode(form))


def _seccode(form) -> str | None:
    """The idhash of the form's captcha: its placeholder span, or the script filling it."""
    for span in form.xpath('.//span[starts-with(@id, "seccode_")]'):
        found = _SECCODE_SPAN.match(span.get("id", ""))
        if found:
            return found.group(1)
    for script in form.xpath(".//script"):
        found = _UPDATE_SECCODE.search(script.text or "")
        if found:
            return found.group(1)
    return None
