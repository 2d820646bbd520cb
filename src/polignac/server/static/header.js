// @ts-check
// The header every page shares: the site's name (a link to the lobby) first, the page's own
// items (written in its HTML), a link to the rules when the page asks for one
// (`data-rules="CATALOG KEY"` on the header; `data-rules-new-tab` opens it in a new tab) and
// the language picker last. Imported first by each page's script, before i18n.js looks for
// the rules link and translates the page.
import { el } from "./dom.js";

/** Build the shared parts of the page's `header.bar` (nothing when the page has none). */
export function siteHeader() {
  const bar = /** @type {HTMLElement | null} */ (document.querySelector("header.bar"));
  if (!bar || bar.querySelector(".brand")) return;
  bar.prepend(el("a", { href: "/", class: "brand", text: "Polignac" }));
  const key = bar.dataset.rules;
  if (key) {
    const newTab = bar.dataset.rulesNewTab !== undefined;
    bar.append(el("a", { id: "rules-link", href: "/rules", class: newTab ? "small" : "small push",
      "data-i18n": key, target: newTab ? "_blank" : null, rel: newTab ? "noopener" : null,
      text: "How to play" }));
  }
  const pushed = [...bar.children].some((node) => node.classList.contains("push") ||
    node.classList.contains("conn"));
  bar.append(el("select", { id: "lang", class: pushed ? "lang" : "lang push" }));
}

siteHeader();
