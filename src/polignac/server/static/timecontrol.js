// @ts-check
// A time control and a clock in words, for the table page and the lobby's Create table form:
// the control's label ("3+2", "30 s/move", "3 days/move") and what it means, a clock's time
// ("4:07", "0:09.3", "2 d 3 h"), and when a clock counts as low (core/timecontrol.py).
import { lang, t } from "./i18n.js";

/** @typedef {import("./protocol.js").TimeControl} TimeControl */

export const DAY = 86400;

/** Under how many seconds a clock of `control` is low. @param {TimeControl} control */
export function lowAt(control) {
  if (control.kind === "realtime") return 10;
  if (control.kind === "move") return Math.min(10, control.seconds / 3);
  return control.days * DAY / 10;
}

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");

/**
 * A clock's time in words: `m:ss` (`h:mm:ss` from an hour; tenths under ten seconds when
 * `tenths`), and at a correspondence table "2 d 3 h" or "5 h 12 min" (m:ss under an hour).
 * @param {number} seconds
 * @param {string} kind the control's kind
 * @param {boolean} [tenths]
 */
export function formatClock(seconds, kind, tenths = false) {
  const s = Math.max(0, seconds);
  if (kind === "days" && s >= 3600) {
    const d = Math.floor(s / DAY), h = Math.floor((s % DAY) / 3600), m = Math.floor((s % 3600) / 60);
    return d >= 1 ? t("clock.daysHours", { d, h }) : t("clock.hoursMinutes", { h, m });
  }
  if (tenths && s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), sec = whole % 60;
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/**
 * The time control's short label ("3+2", "30 s/move", "3 days/move") and what it means.
 * @param {TimeControl} control
 * @returns {{label: string, title: string}}
 */
export function controlLabel(control) {
  const num = (/** @type {number} */ x) => new Intl.NumberFormat(lang).format(x);
  if (control.kind === "realtime") {
    const base = num(control.base / 60), inc = num(control.increment);
    return { label: `${base}+${inc}`, title: t("clock.tc.realtimeTitle", { base, inc }) };
  }
  if (control.kind === "move") {
    return { label: t("clock.tc.move", { n: control.seconds }),
      title: t("clock.tc.moveTitle", { n: control.seconds }) };
  }
  return { label: t("clock.tc.days", { n: control.days }),
    title: t("clock.tc.daysTitle", { n: control.days }) };
}

/** The time controls offered by the lobby's forms (Create table, Find players).
 * @type {Record<string, TimeControl[]>} */
export const TIME_CHOICES = {
  realtime: [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10]].map(([base, increment]) =>
    ({ kind: "realtime", base, increment })),
  move: [15, 30, 60].map((seconds) => ({ kind: "move", seconds })),
  days: [1, 2, 3, 5, 7].map((days) => ({ kind: "days", days })),
};

/**
 * Fill `select` with "Untimed" and the time controls by kind, in the page language, the
 * one chosen kept (an option's value is the control's JSON; "none": untimed).
 * @param {HTMLSelectElement} select
 * @param {boolean} custom whether real time offers "Other…" (value "custom")
 */
export function fillControlChoices(select, custom) {
  const keep = select.value || "none";
  const option = (/** @type {string} */ value, /** @type {string} */ text) => Object.assign(document.createElement("option"),
    { value, textContent: text });
  const groups = [];
  for (const [kind, choices] of Object.entries(TIME_CHOICES)) {
    const g = Object.assign(document.createElement("optgroup"), { label: t(`lobby.tc.${kind}`) });
    for (const c of choices) {
      const { label } = controlLabel(c);
      const text = c.kind === "realtime"
        ? `${label} · ${t("clock.tc.realtimeOption", { base: c.base / 60, inc: c.increment })}` : label;
      g.append(option(JSON.stringify(c), text));
    }
    if (custom && kind === "realtime") g.append(option("custom", t("lobby.tc.custom")));
    groups.push(g);
  }
  select.replaceChildren(option("none", t("lobby.tc.none")), ...groups);
  select.value = keep;
  if (select.selectedIndex < 0) select.value = "none";
}

/**
 * The control `select` chose (`{kind: "none"}`: untimed; "custom" is the caller's).
 * @param {HTMLSelectElement} select
 * @returns {TimeControl | {kind: "none"}}
 */
export function chosenControl(select) {
  const v = select.value;
  return v && v !== "none" && v !== "custom" ? JSON.parse(v) : { kind: "none" };
}
