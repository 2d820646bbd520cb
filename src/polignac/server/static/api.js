// @ts-check
// The HTTP client every page shares: JSON requests to the server and its error answers
// ({error, rule, ...}) turned into an ApiError whose message is in the page language.
import { errorText } from "./i18n.js";

/** A request the server refused (or that got no JSON answer). */
export class ApiError extends Error {
  /**
   * @param {string} message the error in words (the page language when the catalog has it)
   * @param {number} status the HTTP status (0 when none)
   * @param {any} data the server's JSON answer ({error, rule, ...}), or {} when none
   */
  constructor(message, status, data) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.data = data;
    /** @type {string | undefined} */
    this.rule = data?.rule;
  }
}

/**
 * Send a request and read its JSON answer, whatever the status.
 * @param {string} url
 * @param {{method?: string, body?: unknown}} [options] a string body is sent as it is,
 *   anything else as JSON; no body: a GET
 * @returns {Promise<{ok: boolean, status: number, data: any}>} `data` is {} when the
 *   answer was not JSON
 * @throws {TypeError} when the network fails (fetch's own error)
 */
export async function request(url, { method, body } = {}) {
  /** @type {RequestInit} */
  const init = { method: method ?? (body === undefined ? "GET" : "POST"), credentials: "same-origin" };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const r = await fetch(url, init);
  let data = {};
  try { data = await r.json(); } catch { /* no JSON body */ }
  return { ok: r.ok, status: r.status, data };
}

/**
 * The answer's data when it is a success.
 * @param {{ok: boolean, status: number, data: any}} answer
 * @returns {any}
 * @throws {ApiError} when it is not
 */
function dataOf(answer) {
  if (!answer.ok) {
    throw new ApiError(errorText(answer.data) || `error ${answer.status}`, answer.status, answer.data);
  }
  return answer.data;
}

/**
 * GET `url`'s JSON.
 * @param {string} url
 * @returns {Promise<any>}
 * @throws {ApiError} when the server answers an error; TypeError when the network fails
 */
export async function getJson(url) { return dataOf(await request(url)); }

/**
 * POST `body` (JSON) to `url` and return the JSON answer.
 * @param {string} url
 * @param {unknown} [body] sent as JSON ({} when left out); a string is sent as it is
 * @returns {Promise<any>}
 * @throws {ApiError} when the server answers an error; TypeError when the network fails
 */
export async function postJson(url, body = {}) { return dataOf(await request(url, { body })); }
