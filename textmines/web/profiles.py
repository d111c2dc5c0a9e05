"""Every browser is its own player: the profile id in its cookie names its folder of
statistics, settings, saved game and replays (``Paths.profile``)."""

from __future__ import annotations

from aiohttp import web

from textmines.store.paths import is_profile_id

#: The cookie that names a browser's profile (``Paths.profile``), and how long a browser
#: keeps it (400 days, the most browsers allow; each visit renews it).
PROFILE_COOKIE = "textmines-profile"


PROFILE_COOKIE_SECONDS = 400 * 24 * 3600


#: A cookie beside it that says only that the browser has a profile. The profile's is
#: SameSite=Strict: a browser that follows a link from another site to the page withholds it
#: from that one request (not from the page's websocket). This one is Lax, sent then too:
#: with it, a request without the profile is not given a new one, which would replace it.
KNOWN_COOKIE = "textmines-known"


def profile_of(request: web.Request) -> str | None:
    """The profile id the request's cookie names, if it is one exactly as this server makes
    them (anything else is no profile: a cookie is the browser's, and may say anything)."""
    given = request.cookies.get(PROFILE_COOKIE, "")
    return given if is_profile_id(given) else None


def give_profile(response: web.StreamResponse, profile: str) -> None:
    """The cookies that keep ``profile`` in the browser: the id, sent by the browser with
    this server's own requests alone (Strict) and read by no script (HttpOnly: the id is all
    it takes to play as that browser); and ``KNOWN_COOKIE``, which holds nothing secret."""
    for name, value, same_site in ((PROFILE_COOKIE, profile, "Strict"), (KNOWN_COOKIE, "1", "Lax")):
        response.set_cookie(
            name,
            value,
            max_age=PROFILE_COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite=same_site,
        )
