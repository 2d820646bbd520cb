// @ts-check
// The table page's WebSocket: connect, say hello with the last event seen, reconnect with a
// growing wait, send frames. What the frames mean is table.js's business.
import { $ } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").ClientFrame} ClientFrame */

/**
 * One table's connection.
 * @param {string} tableId
 * @param {{lastSeq: () => number, onFrame: (f: Frame) => void}} hooks
 */
export function tableConnection(tableId, hooks) {
  /** @type {WebSocket | null} */
  let ws = null;
  let retry = 500;
  let connKey = "conn.connecting";

  /** @param {string} key a `conn.*` catalog key */
  function setConn(key) {
    connKey = key;
    const box = $("conn");
    box.textContent = t(key);
    box.dataset.state = key.slice(5);
  }

  /** @param {ClientFrame} obj */
  function send(obj) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(obj));
    return true;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${proto}://${location.host}/tables/${tableId}/ws`);
    ws = mine;
    mine.onopen = () => {
      retry = 500;
      setConn("conn.connected");
      send({ type: "hello", last_seq: hooks.lastSeq() });
    };
    mine.onmessage = (msg) => { if (mine === ws) hooks.onFrame(JSON.parse(msg.data)); };
    mine.onclose = (ev) => {
      if (mine !== ws) return;
      if (ev.code === 4401) { setConn("conn.notSeated"); return; }
      if (ev.code === 4404) { setConn("conn.noTable"); return; }
      setConn("conn.reconnecting");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  return {
    connect,
    send,
    /** Ask again for what was missed (a gap in the numbers, a stale action). */
    hello() { send({ type: "hello", last_seq: hooks.lastSeq() }); },
    /** Say the connection's state again (a new language). */
    retranslate() { setConn(connKey); },
  };
}
