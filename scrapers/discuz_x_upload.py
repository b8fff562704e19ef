"""Discuz! X3.x's attachments as a program sends one: the reply box's uploader, its answer.

Read from X3.4's source (lhmouse/DiscuzX): a thread page offers the quick-reply box an
uploader only when the member may attach files in the forum
(``template/default/forum/viewthread_fastpost.htm``, ``{if $allowpostattach …}``): a
``new SWFUpload({…})`` whose ``upload_url`` is ``misc.php?mod=swfupload&…&fid=F``, whose
``post_params`` carry the member's ``uid`` and the upload ``hash``
(``md5(substr(md5(authkey), 8).uid)``, ``source/function/function_upload.php``
``getuploadconfig``), ``file_size_limit`` the largest file in KB and ``file_types`` the
extensions the member's group may attach (``*.chm;*.pdf;*.zip;…``, ``*.*`` for any).  The
image uploader beside it posts ``"type":"image"`` and takes images only.

The file is posted as ``Filedata`` (multipart) with ``uid`` and ``hash`` to
``misc.php?mod=swfupload&operation=upload&simple=1&fid=F``; the board answers
``DISCUZUPLOAD|status|aid|isimage|sizelimit`` (``source/class/forum/forum_upload.php``
``uploadmsg``), status 0 with the new attachment's ``aid``, else a refusal whose words are
the board's own (``static/js/forum_post.js`` ``STATUSMSG``); a wrong ``hash`` gets an empty
answer (``source/module/misc/misc_swfupload.php``).  The reply then names the attachment
with ``attachnew[AID][description]`` (``source/function/function_post.php``
``updateattach``), and the board lists it under the post.

This module knows the board and nothing of games: the uploader, the URL, the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

_SWFUPLOAD = re.compile(r"new\s+SWFUpload\s*\(\s*\{(.*?)\}\s*\)\s*;", re.DOTALL)
_UPLOAD_URL = re.compile(r'upload_url\s*:\s*"([^"]*)"')
_POST_PARAMS = re.compile(r"post_params\s*:\s*\{([^}]*)\}")
_PARAM = re.compile(r'"(\w+)"\s*:\s*"([^"]*)"')
_SIZE_LIMIT = re.compile(r'file_size_limit\s*:\s*"?([\d.]+)"?')
_FILE_TYPES = re.compile(r'file_types\s*:\s*"([^"]*)"')
_ANSWER = re.compile(r"DISCUZUPLOAD\|(-?\d+)\|(\d+)\|(-?\d+)\|([^|<\s]*)")

# static/js/forum_post.js's STATUSMSG: the board's words for an upload's status.
STATUS = {
    -1: "内部服务器错误",
    1: "不支持此类扩展名",
    2: "服务器限制无法上传那么大的附件",
    3: "用户组限制无法上传那么大的附件",
    4: "不支持此类扩展名",
    5: "文件类型限制无法上传那么大的附件",
    6: "今日您已无法上传更多的附件",
    7: "请选择图片文件",
    8: "附件文件无法保存",
    9: "没有合法的文件被上传",
    10: "非法操作",
    11: "今日您已无法上传那么大的附件",
    12: "因文件名包含敏感词而无法提交",
    13: "服务器限制无法上传分辨率过高的附件",
}


@dataclass(frozen=True)
class Uploader:
    """The reply box's uploader: the forum, the member's ``uid`` and upload ``hash``, the
    largest file (bytes; None: no limit shown) and the extensions it takes (None: any)."""

    fid: int
    uid: int
    hash: str
    max_bytes: int | None
    extensions: frozenset[str] | None

    def url(self, root: str) -> str:
        """Where the file is posted (the uploader's plain form: ``simple=1``)."""
        query = {"mod": "swfupload", "operation": "upload", "simple": "1", "fid": str(self.fid)}
        return urljoin(root, "misc.php?" + urlencode(query))

    def fields(self) -> dict[str, str]:
        """The form fields posted with the file."""
        return {"uid": str(self.uid), "hash": self.hash}

    def takes(self, name: str) -> bool:
        """Whether the member may attach a file of this name's extension."""
        extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        return self.extensions is None or extension in self.extensions


def uploader(html: str) -> Uploader | None:
    """The page's attachment uploader (not the image one), None when it offers none."""
    for block in _SWFUPLOAD.findall(html):
        found = _UPLOAD_URL.search(block)
        params = _POST_PARAMS.search(block)
        if found is None or params is None or "mod=swfupload" not in found.group(1):
            continue
        values = dict(_PARAM.findall(params.group(1)))
        if values.get("type") == "image" or not values.get("uid", "").isdigit():
            continue
        fid = parse_qs(urlsplit(found.group(1)).query).get("fid", ["0"])[0]
        size = _SIZE_LIMIT.search(block)
        kilobytes = float(size.group(1)) if size else 0.0
        types = _FILE_TYPES.search(block)
        return Uploader(
            fid=int(fid) if fid.isdigit() else 0,
            uid=int(values["uid"]),
            hash=values.get("hash", ""),
            max_bytes=int(kilobytes * 1024) if kilobytes else None,
            extensions=_extensions(types.group(1) if types else "*.*"),
        )
    return None


def _extensions(types: str) -> frozenset[str] | None:
    """``*.chm;*.pdf;*.zip`` as {chm, pdf, zip}; ``*.*`` (any) as None."""
    found = [part.strip().removeprefix("*.").lower() for part in types.split(";") if part.strip()]
    return None if "*" in found else frozenset(found)


@dataclass(frozen=True)
class Uploaded:
    """The board's answer to an upload: the attachment's ``aid`` (None: refused) and why."""

    aid: int | None
    message: str


def upload_answer(text: str) -> Uploaded:
    """``DISCUZUPLOAD|0|AID|…`` is done; another status is refused in the board's words; an
    empty answer is the board's refusal of a wrong upload hash."""
    found = _ANSWER.search(text)
    if found is None:
        said = " ".join(text.split())[:120]
        return Uploaded(None, said or STATUS[10])
    status, aid, _, limit = found.groups()
    if int(status) == 0 and int(aid):
        return Uploaded(int(aid), "上传成功")
    message = STATUS.get(int(status), f"上传失败（{status}）")
    if limit.isdigit() and int(limit):
        message += f"（不能超过 {limit} 字节）"
    elif limit == "ban":
        message += "（附件类型被禁止）"
    return Uploaded(None, message)


def attachment_fields(aid: int, description: str) -> dict[str, str]:
    """The reply's fields naming the uploaded attachment ``aid``."""
    return {f"attachnew[{aid}][description]": description}
