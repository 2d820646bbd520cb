"""A signed-in session's browser and system, in the words a player recognises
("Firefox 128", "Windows 10", "iPhone"), read from the User-Agent header it signed in
with by ua-parser (the uap-core patterns).  The account page lists them, so that a
player can tell their own sessions from one they do not know.

ua-parser compiles its patterns on the first use (most of a second) and takes a few
milliseconds a header afterwards: :func:`describe_all` runs in a thread, never on the
event loop."""

from __future__ import annotations

import functools

_UNKNOWN = "Other"  # ua-parser's family for what it does not recognise


def _version(family: str, major: str | None) -> str:
    return family if not major else f"{family} {major}"


@functools.lru_cache(maxsize=256)
def describe(agent: str) -> dict[str, str]:
    """``{"browser", "os", "device"}`` of a User-Agent header: each a short name
    (the browser and the system with their major version), "" where not recognised."""
    from ua_parser import parse  # its patterns load on the first call

    found = parse(agent[:512])
    browser = os = device = ""
    if found.user_agent is not None and found.user_agent.family != _UNKNOWN:
        browser = _version(found.user_agent.family, found.user_agent.major)
    if found.os is not None and found.os.family != _UNKNOWN:
        os = _version(found.os.family, found.os.major)
    if found.device is not None and found.device.family not in (_UNKNOWN, "Spider"):
        device = found.device.family
    return {"browser": browser, "os": os, "device": device}


def describe_all(agents: list[str]) -> list[dict[str, str]]:
    """:func:`describe` of each header (blocking: call it in a thread)."""
    return [describe(a) for a in agents]
