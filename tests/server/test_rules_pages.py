"""GET /rules, /rules/{preset}, /tables/{id}/rules and the catalogs at /i18n/{lang}.json."""

from __future__ import annotations

import html
import re

import pytest
from starlette.testclient import TestClient

from polignac import i18n
from polignac.core import PRESETS, get_rules
from polignac.core.describe import rules_text


def visible(page: str) -> str:
    """The page's text without tags, entities decoded, spaces collapsed."""
    body = re.sub(r"</?(code|a)\b[^>]*>", "", page.split("<body", 1)[1])  # inline marks
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).replace("\u00a0", " ").split())


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_has_a_rules_page_in_three_languages(client: TestClient,
                                                          preset: str) -> None:
    for lang in i18n.LANGS:
        r = client.get(f"/rules/{preset}?lang={lang}")
        assert r.status_code == 200
        assert f'<html lang="{lang}">' in r.text
        assert r.headers["content-language"] == lang
        text = visible(r.text)
        # The page says what `polignac rules PRESET --lang L` prints, line for line.
        structured = rules_text(get_rules(preset))
        cli = " ".join(i18n.describe_rules(get_rules(preset), lang=lang).split())
        for section in structured.sections:
            for line in (section.title, *section.lines):
                words = " ".join(i18n.render(line, lang).split())
                assert words in cli
                assert words.replace("`", "").replace("\u00a0", " ") in text, words
        assert i18n.preset_name(preset, lang) in text
        # the example trick, drawn seat by seat, the winner marked; the notes folded at the end
        trick = re.findall(r'<figure data-play="(\w\w)"( class="winner")?>', r.text)
        assert [code for code, _ in trick] == list(structured.example.cards)
        assert [bool(w) for _, w in trick].index(True) == structured.example.winner
        assert i18n.trick_line(structured.example, get_rules(preset).german, lang) in html.unescape(
            r.text)
        assert r.text.count('<details class="panel rules-section notes" id="notes">') == 1
        assert r.text.rindex("</details>") > r.text.rindex("</section>")
        assert re.search(r"\bpreset\b|\bseats? 0\b|\bplaces? 0\b|\bPlatz 0\b", text.split(
            i18n.t(lang, "rules.section.interpretations"))[0]) is None
        cards = rules_text(get_rules(preset)).cards
        assert re.findall(r'data-card="(\w\w)"', r.text) == [c.code for c in cards]
        for c in cards:
            assert f"{i18n.render(c.name, lang)} {i18n.render(c.value, lang)}".replace(
                "\u00a0", " ") in text


def test_language_from_query_cookie_then_accept_language(client: TestClient) -> None:
    fr = {"accept-language": "fr-FR,fr;q=0.9"}
    assert 'lang="fr"' in client.get("/rules/polignac", headers=fr).text
    assert 'lang="de"' in client.get("/rules/polignac?lang=de", headers=fr).text
    client.cookies.set("polignac-lang", "de")
    assert 'lang="de"' in client.get("/rules/polignac", headers=fr).text
    assert 'lang="en"' in client.get("/rules/polignac?lang=en", headers=fr).text
    client.cookies.set("polignac-lang", "xx")  # not a language: ignored
    assert 'lang="fr"' in client.get("/rules/polignac", headers=fr).text
    assert 'lang="en"' in client.get("/rules/polignac?lang=zz").text


def test_index_lists_every_game_by_name(client: TestClient) -> None:
    r = client.get("/rules?lang=fr")
    assert r.status_code == 200
    for preset in PRESETS:
        assert f'href="/rules/{preset}?lang=fr"' in r.text
    assert "Polignac (règles françaises)" in r.text
    assert "Les jeux et leurs règles" in r.text


def test_unknown_preset_is_a_404_page(client: TestClient) -> None:
    r = client.get("/rules/no-such-game?lang=de", headers={"accept": "text/html"})
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"]
    assert "Es gibt kein Spiel namens „no-such-game“." in r.text
    assert 'href="/rules?lang=de"' in r.text and "/static/style.css" in r.text
    long = client.get("/rules/" + "x" * 500)
    assert long.status_code == 404 and "x" * 61 not in long.text


def test_catalogs_are_served(client: TestClient) -> None:
    for lang in i18n.LANGS:
        r = client.get(f"/i18n/{lang}.json")
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        assert r.json() == dict(i18n.catalog(lang))
        again = client.get(f"/i18n/{lang}.json", headers={"if-none-match": r.headers["etag"]})
        assert again.status_code == 304 and not again.content
    assert client.get("/i18n/xx.json").status_code == 404
    assert client.get("/i18n/../x.json").status_code == 404


def test_table_rules_link_goes_to_its_preset(client: TestClient) -> None:
    made = client.post("/api/tables", json={
        "preset": "slobberhannes", "players": 4,
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3}).json()
    r = client.get(f"/tables/{made['id']}/rules?lang=fr", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rules/slobberhannes?lang=fr"
    r = client.get("/tables/nope/rules", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rules"


def test_default_names_carry_their_key(client: TestClient) -> None:
    client.post("/api/tables", json={
        "preset": "polignac", "players": 4,
        "seats": [{"kind": "you"}, {"kind": "bot", "level": "medium"}, {"kind": "open"},
                  {"kind": "bot", "level": "easy"}]})
    seats = client.get("/api/tables").json()["tables"][0]["seats"]
    assert [(s["name"], s.get("name_key"), s.get("name_params")) for s in seats] == [
        ("You", "name.you", {}), ("Medium bot 2", "name.bot.medium", {"n": 2}),
        ("Guest 3", "name.guest", {"n": 3}), ("Easy bot 4", "name.bot.easy", {"n": 4})]
    client.post("/api/tables", json={
        "preset": "polignac", "players": 3, "name": "Anna",
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 2})
    anna = client.get("/api/tables").json()["tables"][0]["seats"][0]
    assert anna["name"] == "Anna" and "name_key" not in anna
