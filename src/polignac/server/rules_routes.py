"""The rules in the app, and the catalogs for the pages.

Routes::

    GET  /i18n/{lang}.json     the catalog of one language (en, fr, de) for static/i18n.js
    GET  /rules                every game, with its name, summary and a link to its rules
    GET  /rules/{preset}       "How to play": a preset's complete rules and its scoring cards
    GET  /tables/{id}/rules    303 to the rules of that table's preset (the table page's link)

The rules pages are written by the server from the same structured text as
``polignac rules PRESET --lang L`` (``polignac.core.describe.rules_text``
rendered by ``polignac.i18n``), so the two never disagree. The language is
``?lang=en|fr|de``, else the page language the visitor chose (the
``polignac-lang`` cookie that ``i18n.js`` sets), else ``Accept-Language``.
An unknown preset or language answers 404 (a page in the site's style).
"""

from __future__ import annotations

import hashlib
import html
import re
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .. import i18n
from ..core import PRESETS, Rules
from ..core.describe import Join, Msg, Param, rules_text

COOKIE: Final = "polignac-lang"
_CODE: Final = re.compile(r"`([^`]{1,40})`")


def page_lang(request: Request) -> str:
    """The language of a page the server writes: ?lang, the cookie, then Accept-Language."""
    for choice in (request.query_params.get("lang"), request.cookies.get(COOKIE)):
        if choice in i18n.LANGS:
            return choice
    return i18n.negotiate(request.headers.get("accept-language"))


async def catalog(request: Request) -> Response:
    """One language's catalog as JSON (404 for an unknown language)."""
    lang = request.path_params["lang"]
    if lang not in i18n.LANGS:
        return Response(f"unknown language {lang[:20]!r}", status_code=404,
                        media_type="text/plain")
    body = i18n.catalog_json(lang)
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _text(value: Param, lang: str) -> str:
    """A message as HTML: escaped, with `words` in code style."""
    return _CODE.sub(r"<code>\1</code>", html.escape(i18n.render(value, lang), quote=False))


def _page(lang: str, title: str, body: str, status: int = 200) -> HTMLResponse:
    t = i18n.t
    doc = f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Polignac</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<script type="module" src="/static/rules.js"></script>
</head>
<body class="rules-page">
<header class="bar"><a class="brand" href="/">Polignac</a>
  <a class="small" href="/rules" id="all-games">{html.escape(t(lang, "nav.allGames"))}</a>
  <select id="lang" class="lang push" aria-label="{html.escape(t(lang, "lang.label"))}"></select>
</header>
<main class="rules">
{body}
</main>
</body>
</html>
"""
    return HTMLResponse(doc, status_code=status, headers={"Content-Language": lang})


async def rules_index(request: Request) -> Response:
    """Every game: its name, its one-line summary and a link to its rules."""
    lang = page_lang(request)
    t = i18n.t
    items = []
    for preset in PRESETS:
        items.append(
            f'<li><a href="/rules/{preset}?lang={lang}" data-preset="{preset}">'
            f"{html.escape(i18n.preset_name(preset, lang))}</a> "
            f'<span class="preset-id">{preset}</span><br>'
            f'<span class="summary">{html.escape(i18n.preset_summary(preset, lang))}</span></li>')
    title = t(lang, "rulespage.indexTitle")
    body = (f'<section class="panel"><h1>{html.escape(title)}</h1>'
            f'<p>{html.escape(t(lang, "rulespage.indexText"))}</p>'
            f'<ul class="games">{"".join(items)}</ul></section>')
    return _page(lang, title, body)


def _players(rules: Rules, lang: str) -> str:
    counts = list(rules.players)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return i18n.render(Msg("rules.range", (("a", counts[0]), ("b", counts[-1]))), lang)
    return i18n.render(Join("sep.list", tuple(counts)), lang)


async def rules_page(request: Request) -> Response:
    """A preset's rules in the page language (404 page for an unknown preset)."""
    lang = page_lang(request)
    t = i18n.t
    preset = request.path_params["preset"]
    rules = PRESETS.get(preset)
    if rules is None:
        title = t(lang, "rulespage.notFoundTitle")
        body = (f'<section class="panel not-found"><h1>{html.escape(title)}</h1>'
                f'<p>{html.escape(t(lang, "rulespage.notFound", preset=preset[:60]))}</p>'
                f'<p><a class="button" href="/rules?lang={lang}">'
                f'{html.escape(t(lang, "nav.allGames"))}</a></p></section>')
        return _page(lang, title, body, 404)
    text = rules_text(rules)
    name = i18n.preset_name(preset, lang)
    title = t(lang, "rulespage.title", name=name)
    parts = [
        f'<section class="panel"><h1>{html.escape(title)}</h1>',
        f'<p class="summary">{html.escape(i18n.preset_summary(preset, lang))}</p>',
        f'<p class="small-muted">{_text(text.title, lang)} · '
        f'{html.escape(t(lang, "rulespage.players", players=_players(rules, lang)))}</p>',
    ]
    if text.cards:
        deck = "german" if rules.german else "french"
        figures = "".join(
            f'<figure data-card="{c.code}"><figcaption>{_text(c.name, lang)}<br>'
            f'<strong>{_text(c.value, lang)}</strong></figcaption></figure>'
            for c in text.cards)
        parts.append(f'<h2>{html.escape(t(lang, "rulespage.cards"))}</h2>'
                     f'<div class="rule-cards" data-deck="{deck}">{figures}</div>')
    parts.append("</section>")
    for section in text.sections:
        lines = "".join(f"<li>{_text(line, lang)}</li>" for line in section.lines)
        parts.append(f'<section class="panel rules-section"><h2>{_text(section.title, lang)}</h2>'
                     f"<ul>{lines}</ul></section>")
    command = f"polignac rules {preset} --lang {lang}"
    parts.append(f'<p class="small-muted">{html.escape(t(lang, "rulespage.cli", command=""))}'
                 f"<code>{html.escape(command)}</code></p>")
    return _page(lang, title, "\n".join(parts))


async def table_rules(request: Request) -> Response:
    """Redirect to the rules of a table's preset (the index for an unknown table)."""
    table = request.app.state.hub.tables.get(request.path_params["table_id"])
    target = "/rules" if table is None else f"/rules/{table.preset}"
    lang = request.query_params.get("lang")
    if lang in i18n.LANGS:
        target += f"?lang={lang}"
    return RedirectResponse(target, status_code=303)


def routes() -> list[BaseRoute]:
    """The catalog and rules routes, for the app's route list."""
    return [
        Route("/i18n/{lang}.json", catalog),
        Route("/rules", rules_index),
        Route("/rules/{preset}", rules_page),
        Route("/tables/{table_id}/rules", table_rules),
    ]
