// @ts-check
// A classic script, run before the page's modules: when one of the page's scripts or
// style sheets fails to load (the server answered 429 or 502 to it, the network
// dropped), the page cannot start, and without this it would show "connecting…" for
// ever.  Reload once, a second later; if that fails too within a minute, say so, with
// a button to try again (in the page's language, from the catalog if it can be had).
(() => {
  const KEY = "polignac-reloaded";
  let seen = false;

  /** @param {Event} ev */
  function failed(ev) {
    const el = ev.target;
    const isScript = el instanceof HTMLScriptElement;
    const isSheet = el instanceof HTMLLinkElement && el.rel === "stylesheet";
    if (seen || !(isScript || isSheet)) return;
    seen = true;
    let last = 0;
    try { last = Number(sessionStorage.getItem(KEY) ?? 0); } catch { /* storage blocked */ }
    if (Date.now() - last > 60_000) {
      try { sessionStorage.setItem(KEY, String(Date.now())); } catch { /* blocked */ }
      setTimeout(() => location.reload(), 1000);
      return;
    }
    void notice();
  }

  function language() {
    const asked = new URLSearchParams(location.search).get("lang");
    let saved = null;
    try { saved = localStorage.getItem("polignac-lang"); } catch { /* blocked */ }
    const code = asked ?? saved ?? (navigator.language || "en");
    return ["en", "fr", "de"].includes(code.slice(0, 2)) ? code.slice(0, 2) : "en";
  }

  async function notice() {
    /** @type {Record<string, string>} */
    let text = {};
    try {
      const r = await fetch(`/i18n/${language()}.json`);
      if (r.ok) text = await r.json();
    } catch { /* the catalog cannot be had either: English */ }
    const box = document.createElement("div");
    box.id = "load-failed";
    box.setAttribute("role", "alert");
    // styled here, not in style.css: the style sheet may be what failed
    Object.assign(box.style, { background: "#fff3cd", color: "#1b1b1b", padding: ".7rem 1rem",
      borderBottom: "2px solid #c9a227", font: "1rem system-ui, sans-serif" });
    const words = document.createElement("span");
    words.textContent = text["page.loadFailed"] ??
      "This page did not load completely (the server is busy or the connection dropped).";
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = text["page.reload"] ?? "Reload";
    again.addEventListener("click", () => location.reload());
    box.append(words, " ", again);
    const show = () => document.body.prepend(box);
    if (document.body) show(); else document.addEventListener("DOMContentLoaded", show);
  }

  window.addEventListener("error", failed, true);
})();
