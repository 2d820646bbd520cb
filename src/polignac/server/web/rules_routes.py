"""The rules in the app, and the catalogs for the pages.

Routes::

    GET  /i18n/{lang}.json     the catalog of one language (en, fr, de) for static/i18n.js
    GET  /rules                every game, with its name, summary and a link to its rules
    GET  /rules/{preset}       "How to play": the game in 30 seconds with an example trick drawn
                               with the table's cards, tips, the cards that score, the complete
                               rules, and the notes (sources, interpretations) folded at the end
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

from ... import i18n
from ...core import PRESETS, Rules
from ...core.describe import ExampleTrick, Join, Msg, Param, rules_text
from ...i18n.rulebook import SECTION_IDS

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
    """A message as HTML: escaped, with `words` in code style, and each "(interpretation)"
    a link to the notes at the end of the page."""
    text = _CODE.sub(r"<code>\1</code>", html.escape(i18n.render(value, lang), quote=False))
    mark = html.escape(i18n.t(lang, "rules.interp"), quote=False)
    return text.replace(mark, f'<a class="interp" href="#notes">{mark}</a>')


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
<link rel="stylesheet" href="/static/rules.css">
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
    deck = "german" if rules.german else "french"
    game = i18n.render(Msg(f"game.{rules.game}"), lang)
    parts = [
        f'<section class="panel"><h1>{html.escape(title)}</h1>',
        f'<p class="summary">{html.escape(i18n.preset_summary(preset, lang))}</p>',
        f'<p class="small-muted">{html.escape(game)} · '
        f'{html.escape(t(lang, "rulespage.players", players=_players(rules, lang)))}</p>',
        "</section>",
    ]
    for section in text.sections:
        lines = "".join(f"<li>{_text(line, lang)}</li>" for line in section.lines)
        heading = _text(section.title, lang)
        key = section.title.key
        if key == "rules.section.interpretations":  # the notes, folded, at the end
            command = f"polignac rules {preset} --lang {lang}"
            lines += (f'<li>{html.escape(t(lang, "rulespage.cli", command=""))}'
                      f"<code>{html.escape(command)}</code></li>")
            parts.append(f'<details class="panel rules-section notes" id="notes">'
                         f'<summary><h2>{heading}</h2></summary><ul>{lines}</ul></details>')
            continue
        extra = ""
        if key == "rules.section.quick":
            extra = _trick(text.example, deck, lang)
        parts.append(f'<section class="panel rules-section" id="{SECTION_IDS.get(key, "")}">'
                     f"<h2>{heading}</h2><ul>{lines}</ul>{extra}</section>")
        if key == "rules.section.tips" and text.cards:
            figures = "".join(
                f'<figure data-card="{c.code}"><figcaption>{_text(c.name, lang)}<br>'
                f'<strong>{_text(c.value, lang)}</strong></figcaption></figure>'
                for c in text.cards)
            heading = html.escape(t(lang, "rulespage.cards"))
            parts.append(f'<section class="panel"><h2>{heading}</h2>'
                         f'<div class="rule-cards" data-deck="{deck}">{figures}</div></section>')
    return _page(lang, title, "\n".join(parts))


def _trick(example: ExampleTrick, deck: str, lang: str) -> str:
    """The example trick as the table draws it: each seat's card (static/cards.js draws
    ``data-play``), the winner's marked; the same cards in words for screen readers."""
    winner = ' class="winner"'
    figures = "".join(
        f'<figure data-play="{code}"{winner if i == example.winner else ""}>'
        f'<figcaption>{html.escape(i18n.t(lang, "table.seatN", n=i + 1))}</figcaption></figure>'
        for i, code in enumerate(example.cards))
    words = html.escape(i18n.trick_line(example, deck == "german", lang))
    return (f'<div class="example-trick" data-deck="{deck}" role="img" '
            f'aria-label="{words}">{figures}</div>')


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
