"""What the ``--serve`` host serves: its page and the files it uses (nothing else: no folder,
no listing), its message pages, and the security headers of every answer."""

from __future__ import annotations

import html
import string
from pathlib import Path

import textual_serve
from aiohttp import web

#: The page, its script and style (this package's), and the files of textual-serve's that it
#: uses, by the names the page asks for. Nothing else is served: no folder, no listing.
WEB = Path(__file__).with_name("page")


TEXTUAL_STATIC = Path(textual_serve.__file__).parent / "static"


STATIC_FILES = {
    "page.js": WEB / "page.js",
    "page.css": WEB / "page.css",
    "textual.js": TEXTUAL_STATIC / "js" / "textual.js",
    "xterm.css": TEXTUAL_STATIC / "css" / "xterm.css",
    "roboto-mono.ttf": TEXTUAL_STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf",
}


#: Only this server's own files run in its pages; no other site may frame them (a framed game
#: could be clicked through). Styles may be inline: textual.js adds its own at run time.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)


#: A downloaded file is the game's (a replay), never a page that could run in this origin.
DOWNLOAD_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"


async def add_security_headers(_: web.Request, response: web.StreamResponse) -> None:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")


def bounded(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        value = default
    return min(max(value, low), high)


def _template(name: str) -> string.Template:
    return string.Template((WEB / name).read_text(encoding="utf-8"))


PAGE = _template("page.html")


#: A page of the host's other than the game's: a title over what it says.
NOTICE = _template("notice.html")


def notice_html(title: str, content: str, *, body_class: str = "message") -> str:
    """A page titled ``title`` (text), ``content`` (HTML) under it."""
    return NOTICE.substitute(title=html.escape(title), content=content, body_class=body_class)


def message_page(status: int, title: str, text: str) -> web.Response:
    """A page that says why there is no game."""
    body = notice_html(title, f'<p>{html.escape(text)}</p>\n<p><a href="/">Try again</a></p>')
    return web.Response(
        status=status,
        text=body,
        content_type="text/html",
        headers={"Cache-Control": "no-store", "Retry-After": "10"},
    )
