// @ts-check
// An arena in words, for the lobby's list and the arena's page: its start in this
// browser's time ("Fri 23 Oct, 20:00"), and a club's schedule ("every Friday at 20:00
// (Europe/Paris)"), the day's name from Intl in the page language.
import { lang, t } from "./i18n.js";

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** The start `at` (epoch seconds) in this browser's time and the page language. @param {number} at */
export function startText(at) {
  return new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit" }).format(new Date(at * 1000));
}

/**
 * A schedule ({name, every, at, tz, on}) in words: "every Friday at 20:00 (Europe/Paris)".
 * @param {any} s
 */
export function everyText(s) {
  const i = WEEKDAYS.indexOf(s.every);
  if (i >= 0) {
    const day = new Intl.DateTimeFormat(lang, { weekday: "long", timeZone: "UTC" })
      .format(new Date(Date.UTC(2024, 0, 1 + i)));  // 2024-01-01 was a Monday
    return t("arena.every.weekly", { day, time: s.at, tz: s.tz });
  }
  if (s.every === "daily") return t("arena.every.daily", { time: s.at, tz: s.tz });
  return t("arena.every.once", { date: s.on, time: s.at, tz: s.tz });
}
