"""The pages' static files: the favicon, and the scripts' type check (``tsc`` on the
``// @ts-check`` files, as ``python3 dev.py test`` runs it)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "polignac" / "server" / "static"
UNCHECKED = {
    "table.js", "chart.js",  # the table page: the lead checks them at merge
    "scoresheet.js",  # h-pollack's
    "scorepad.js",  # waits for the score sheet's move out of it (scoresheet.js)
}
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def test_favicon_is_served_and_linked(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") and "</svg>" in r.text
    assert client.get("/static/favicon.svg").status_code == 200
    for page in ["/", "/rules", "/rules/polignac", "/replay", "/scorepad", "/tables/nope"]:
        assert '<link rel="icon" href="/static/favicon.svg"' in client.get(page).text, page
    for html in STATIC.glob("*.html"):
        assert 'rel="icon"' in html.read_text(), html.name


def test_every_page_script_but_the_table_is_type_checked() -> None:
    scripts = {p.name for p in STATIC.glob("*.js")}
    assert {"dom.js", "api.js", "feedback.js", "lobby.js"} <= scripts
    unchecked = sorted(n for n in scripts - UNCHECKED
                       if not (STATIC / n).read_text().startswith("// @ts-check\n"))
    assert not unchecked


def test_typescript_is_pinned() -> None:
    package = json.loads((ROOT / "package.json").read_text())
    version = package["devDependencies"]["typescript"]
    assert version.startswith("5.") and version.replace(".", "").isdigit()  # exact 5.x
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/typescript"]["version"] == version


def _tsc(project: Path) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        pytest.skip("TypeScript is not installed (python3 dev.py test runs npm ci)")
    return subprocess.run([str(TSC), "-p", str(project), "--noEmit", "--pretty", "false"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_static_scripts_pass_tsc() -> None:
    done = _tsc(ROOT / "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_tsc_fails_on_a_type_error(tmp_path: Path) -> None:
    """The check can fail: a checked file that reads a maybe-missing element's value."""
    bad = tmp_path / "bad.js"
    dom = (STATIC / "dom.js").as_posix()
    bad.write_text(f'// @ts-check\nimport {{ $ }} from "{dom}";\n'
                   'document.getElementById("x").textContent = "";\n'
                   '$("y").value = "1";\n')
    unchecked = tmp_path / "loose.js"
    unchecked.write_text('document.getElementById("x").textContent = "";\n')
    config = tmp_path / "tsconfig.json"
    config.write_text(json.dumps({"extends": str(ROOT / "tsconfig.json"),
                                  "include": [str(bad), str(unchecked)]}))
    done = _tsc(config)
    assert done.returncode != 0
    assert "bad.js(3," in done.stdout and "TS2531" in done.stdout  # possibly null
    assert "bad.js(4," in done.stdout and "'value'" in done.stdout  # not on HTMLElement
    assert "loose.js" not in done.stdout  # no // @ts-check: not checked


def _dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dev_test_runs_tsc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    dev = _dev()
    ran: list[list[str]] = []
    monkeypatch.setattr(dev, "run", lambda *cmd, check=True: ran.append([str(c) for c in cmd]) or 0)
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    (tmp_path / "package-lock.json").write_text("{}")
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert dev.typecheck_js() == 0
    assert ran == [["/usr/bin/npm", "ci", "--no-audit", "--no-fund"],
                   ["/usr/bin/npx", "--no-install", "tsc", "-p", "tsconfig.json", "--noEmit"]]
    # Installed and up to date: no npm ci; a type error fails the run.
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / ".package-lock.json").write_text("{}")
    ran.clear()
    monkeypatch.setattr(dev, "run", lambda *cmd, check=True: ran.append([str(c) for c in cmd]) or 2)
    assert dev.typecheck_js() == 2
    assert [c[1:3] for c in ran] == [["--no-install", "tsc"]]
    # Without Node.js: a note, and the run goes on.
    monkeypatch.setattr(shutil, "which", lambda name: None)
    ran.clear()
    assert dev.typecheck_js() == 0 and not ran
    assert "tsc" in capsys.readouterr().out
    assert "typecheck_js()" in (ROOT / "dev.py").read_text().split("def main")[1]
