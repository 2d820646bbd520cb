// @ts-check
// The DOM helpers every page shares: find an element by id, make one.

/**
 * The element with id `id`, of the class `type` when given: `$("name", HTMLInputElement)`.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{new (): T, prototype: T}} [type] the element's class (checked)
 * @returns {T}
 * @throws {Error} when the page has no such element, or one of another class (a page
 *   and its script disagree).
 */
export function $(id, type) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no element #${id} on this page`);
  if (type && !(node instanceof type)) throw new Error(`#${id} is a <${node.localName}>`);
  return /** @type {T} */ (node);
}

/**
 * A new element `<tag class="className">text</tag>`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className] one or more classes, space-separated; "" for none
 * @param {string} [text] its text, when given
 * @returns {HTMLElementTagNameMap[K]}
 */
export function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A new element with attributes and children: `el("a", {href, text}, child...)`.
 * `text` sets the text, `class` the classes, `dataset` the data-* values; an attribute
 * whose value is null, undefined or false is left out, `true` sets it empty.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A new SVG element `<name attrs...>text</name>` (the cards and the chart draw with it).
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 * @returns {SVGElement}
 */
export function svgEl(name, attrs = {}, text) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, name));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
