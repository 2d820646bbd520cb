// @ts-check
// A question before what cannot be undone (a claim, a contract, a rematch, leaving a match):
// a modal dialog with the consequence in words and two buttons, the safe one focused.
import { el } from "./dom.js";

/**
 * Ask `question`; resolves true only when the person chose `yes`.
 * @param {{title: string, text: string, yes: string, no: string, danger?: boolean}} words
 * @returns {Promise<boolean>}
 */
export function confirmAction({ title, text, yes, no, danger = true }) {
  document.getElementById("confirm")?.remove();
  const ok = el("button", { type: "button", id: "confirm-yes", class: danger ? "danger" : "primary",
    text: yes });
  const cancel = el("button", { type: "button", id: "confirm-no", text: no });
  const dialog = el("dialog", { id: "confirm", class: "confirm", "aria-labelledby": "confirm-title",
    "aria-describedby": "confirm-text" },
  el("h2", { id: "confirm-title", text: title }),
  el("p", { id: "confirm-text", text }),
  el("div", { class: "confirm-buttons" }, cancel, ok));
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer = false;
    ok.addEventListener("click", () => { answer = true; dialog.close(); });
    cancel.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    dialog.showModal();
    cancel.focus();
  });
}
