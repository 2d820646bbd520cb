"""Web Push notifications (the standard: RFC 8030 delivery, RFC 8291 message encryption,
RFC 8292 VAPID, with ``pywebpush``): a browser that allowed notifications for an account
is told when it becomes that account's move at a correspondence table and when a table
it waits for starts (docs/server.md, "Notifications").

- **The site's VAPID key** is a P-256 private key made once and kept in the database with
  the site's other keys (``store/keys.py``), so that every process signs alike and a
  restart keeps the subscriptions valid; its public half is the browser's
  ``applicationServerKey``.
- **Subscriptions** (``push_subscriptions``) are one row a browser: its push service's
  endpoint and its keys, the account, the language its notifications speak.  At most
  :data:`MAX_SUBSCRIPTIONS` an account (the oldest goes).  An endpoint must be HTTPS to
  a public host: the server posts to it, so a hostile client must not aim it at the
  server's own network (``push_local_endpoints`` lets a local receiver on loopback in,
  for tests and benchmarks); the address is checked again when sending.
- **Sending** runs in a small thread pool, never on the event loop; at most
  ``push_queue`` notifications wait (more are dropped and counted).  A push service's
  ``404``/``410`` removes the subscription (the browser withdrew it); five failures in a
  row also do.

Blocking functions (those taking an ``Engine``): call them in a thread.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import Engine, delete, func, select, update

from ...i18n import LANGS, t
from ..base.config import ServerConfig
from ..base.errors import ApiError
from ..store.db import writing
from ..store.keys import server_key
from ..store.schema import push_subscriptions_t
from .accounts import account_of_identities

log = logging.getLogger("polignac.server")

MAX_SUBSCRIPTIONS = 10
"""Browsers an account may have notifications on at once."""
ENDPOINT_MAX = 1024
"""Characters of an endpoint at most."""
MAX_FAILURES = 5
"""Failed sends in a row after which a subscription is dropped."""
TTL = {"turn": 24 * 3600, "started": 3600, "invite": 600}
"""Seconds a push service keeps each kind of notice for a browser that is offline."""
KEY_NAME = "vapid-p256"


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription (``PushSubscription.toJSON()``)."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As ``pywebpush`` takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True)
class Notice:
    """Something to tell an account's browsers: ``kind`` (``turn``: it is your move;
    ``started``: a table you waited for began; ``invite``: ``by`` invites you, and
    ``url`` is the page to take the seat) at ``table`` of game ``preset``, noticed at
    ``at`` (the server clock's epoch seconds)."""

    kind: str
    table: str
    preset: str
    at: float
    url: str | None = None
    by: str = ""

    def payload(self, lang: str) -> bytes:
        """The message, in ``lang``: what the service worker shows."""
        key = f"preset.{self.preset}.name"
        game = t(lang, key)
        if game == key:
            game = self.preset
        return json.dumps({
            "kind": self.kind, "table": self.table, "url": self.url or f"/tables/{self.table}",
            "title": t(lang, f"push.{self.kind}.title", name=self.by),
            "body": t(lang, f"push.{self.kind}.body", game=game, name=self.by),
            "tag": f"{self.kind}-{self.table}", "at": self.at,
        }, ensure_ascii=False).encode()


def _b64(data: str, size: int, what: str) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (ValueError, TypeError):
        raw = b""
    if len(raw) != size:
        raise ApiError(f"{what} is not {size} bytes in base64url", "bad-subscription")
    return raw


def _address_ok(address: str, local: bool) -> bool:
    """A public address; or, with ``local``, a loopback one."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return ip.is_global or (local and ip.is_loopback)


def check_endpoint(url: str, local: bool) -> None:
    """Refuse an endpoint the server must not post to.

    Raises:
        ApiError: 400 ``bad-subscription`` saying what is wrong.
    """
    if not isinstance(url, str) or not 0 < len(url) <= ENDPOINT_MAX:
        raise ApiError(f"the endpoint must be a URL of at most {ENDPOINT_MAX} characters",
                       "bad-subscription")
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises for a bad port
    except ValueError:
        raise ApiError("the endpoint is not a URL", "bad-subscription") from None
    if parts.username or parts.password or not host:
        raise ApiError("the endpoint must name a host, without a user or password",
                       "bad-subscription")
    try:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(host)
    except ValueError:
        ip = None  # a name, not an address
    if ip is not None:
        loopback, public = ip.is_loopback, ip.is_global
    else:
        loopback = host == "localhost"
        public = "." in host and not host.endswith((".localhost", ".local", ".internal"))
    if local and loopback:
        if parts.scheme not in ("http", "https"):
            raise ApiError("the endpoint must be an http(s):// URL", "bad-subscription")
        return
    if not public:
        raise ApiError("the endpoint must be on a public host", "bad-subscription")
    if parts.scheme != "https":
        raise ApiError("the endpoint must be an https:// URL", "bad-subscription")


def parse_subscription(data: Any, local: bool) -> Subscription:
    """The subscription of a request's ``subscription`` field.

    Raises:
        ApiError: 400 ``bad-subscription`` (what is missing or wrong).
    """
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise ApiError("send the browser's subscription: {endpoint, keys: {p256dh, auth}}",
                       "bad-subscription")
    endpoint, keys = data.get("endpoint"), data["keys"]
    check_endpoint(endpoint, local)
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 128 \
            or len(auth) > 64:
        raise ApiError("the subscription's keys must be text", "bad-subscription")
    point = _b64(p256dh, 65, "keys.p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ApiError("keys.p256dh is not a P-256 public key", "bad-subscription") from None
    _b64(auth, 16, "keys.auth")
    return Subscription(endpoint, p256dh, auth)


def subscribe(engine: Engine, account_id: int, sub: Subscription, agent: str, lang: str,
              now: float) -> int:
    """Keep ``sub`` for ``account_id`` (a browser subscribed again replaces its row, even
    one another account had: the browser is this account's now); the oldest beyond
    :data:`MAX_SUBSCRIPTIONS` go.  Returns how many the account has."""
    lang = lang if lang in LANGS else "en"
    table = push_subscriptions_t
    with writing(engine) as conn:
        conn.execute(delete(table).where(table.c.endpoint == sub.endpoint))
        conn.execute(table.insert().values(
            endpoint=sub.endpoint, account_id=account_id, p256dh=sub.p256dh, auth=sub.auth,
            agent=agent[:256], lang=lang, created_at=now, failures=0))
        extra = conn.execute(select(table.c.endpoint).where(table.c.account_id == account_id)
                             .order_by(table.c.created_at.desc(), table.c.endpoint)
                             .offset(MAX_SUBSCRIPTIONS)).scalars().all()
        if extra:
            conn.execute(delete(table).where(table.c.endpoint.in_(extra)))
        return int(conn.execute(select(func.count()).select_from(table).where(
            table.c.account_id == account_id)).scalar_one())


def unsubscribe(engine: Engine, account_id: int, endpoint: str) -> bool:
    """Forget the account's subscription at ``endpoint``; False if it had none there."""
    table = push_subscriptions_t
    with writing(engine) as conn:
        gone = conn.execute(delete(table).where(table.c.endpoint == endpoint,
                                                table.c.account_id == account_id))
        return bool(gone.rowcount)


def subscriptions_of(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """The account's subscriptions, newest first: the push service's host, the browser,
    the language, when."""
    table = push_subscriptions_t
    with engine.connect() as conn:
        rows = conn.execute(select(table).where(table.c.account_id == account_id)
                            .order_by(table.c.created_at.desc())).all()
    return [{"endpoint": r.endpoint, "service": urlsplit(r.endpoint).hostname,
             "agent": r.agent, "lang": r.lang, "created_at": r.created_at} for r in rows]


class PushSender:
    """Sends notices to the browsers of the account that holds a seat.

    :meth:`notify` returns at once; the work (finding the account and its browsers,
    encrypting, posting) runs in ``threads`` threads.  Counters: ``sent``, ``failed``,
    ``dropped``; ``latencies`` keeps the last 1,000 (notice to posted) in seconds.
    """

    def __init__(self, engine: Engine, config: ServerConfig, threads: int = 4) -> None:
        self.engine = engine
        self.config = config
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="polignac-push")
        self._lock = threading.Lock()
        self._key: ec.EllipticCurvePrivateKey | None = None
        self._sessions = threading.local()
        self.pending = 0
        self.sent = self.failed = self.dropped = 0
        self.latencies: list[float] = []

    def _private(self) -> ec.EllipticCurvePrivateKey:
        with self._lock:
            if self._key is None:
                raw = int.from_bytes(server_key(self.engine, KEY_NAME), "big")
                order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
                self._key = ec.derive_private_key(raw % (order - 1) + 1, ec.SECP256R1())
            return self._key

    def public_key(self) -> str:
        """The ``applicationServerKey`` (base64url, uncompressed point).  Blocking."""
        point = self._private().public_key().public_bytes(Encoding.X962,
                                                          PublicFormat.UncompressedPoint)
        return base64.urlsafe_b64encode(point).rstrip(b"=").decode()

    def notify(self, identity: str, notice: Notice) -> None:
        """Tell the browsers of the account that owns browser ``identity`` (none for a
        guest) about ``notice``, soon, in the pool."""
        self._submit(identity, notice, None)

    def notify_account(self, account: int, notice: Notice) -> None:
        """Tell the browsers of ``account`` about ``notice``, soon, in the pool."""
        self._submit(None, notice, account)

    def _submit(self, identity: str | None, notice: Notice, account: int | None) -> None:
        with self._lock:
            if self.pending >= self.config.push_queue:
                self.dropped += 1
                return
            self.pending += 1
        self.pool.submit(self._deliver, identity, notice, account)

    def _deliver(self, identity: str | None, notice: Notice, account: int | None = None
                 ) -> None:
        try:
            with self.engine.connect() as conn:
                if identity is not None:
                    account = account_of_identities(conn, [identity]).get(identity)
                if account is None:
                    return
                table = push_subscriptions_t
                rows = conn.execute(select(table).where(table.c.account_id == account)).all()
            for row in rows:
                self._send(Subscription(row.endpoint, row.p256dh, row.auth), row.lang,
                           notice, int(row.failures))
        except Exception:  # a notice is best-effort: never kill the pool's thread
            log.exception("push: could not deliver %s at table %s", notice.kind, notice.table)
        finally:
            with self._lock:
                self.pending -= 1

    def _send(self, sub: Subscription, lang: str, notice: Notice, failures: int) -> None:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush
        local = self.config.push_local_endpoints
        host = urlsplit(sub.endpoint).hostname or ""
        try:
            ok = all(_address_ok(str(a[4][0]), local) for a in socket.getaddrinfo(host, None))
        except (OSError, ValueError):
            ok = False
        status = 0
        if ok:
            session = getattr(self._sessions, "session", None)
            if session is None:
                import requests
                session = self._sessions.session = requests.Session()
            try:
                response = webpush(sub.info(), data=notice.payload(lang).decode(),
                                   vapid_private_key=Vapid02(self._private()),
                                   vapid_claims={"sub": self.config.push_contact},
                                   ttl=TTL.get(notice.kind, 3600), timeout=10,
                                   headers={"Urgency": "high"}, requests_session=session)
                status = getattr(response, "status_code", 201)
            except WebPushException as exc:
                status = exc.response.status_code if exc.response is not None else 0
            except Exception as exc:  # the network: counted as a failure
                log.info("push: %s failed: %s", host, exc)
        table = push_subscriptions_t
        if 200 <= status < 300:
            with self._lock:
                self.sent += 1
                self.latencies = [*self.latencies[-999:],
                                  self.config.clock.time() - notice.at]
            if failures:
                with writing(self.engine) as conn:
                    conn.execute(update(table).where(table.c.endpoint == sub.endpoint)
                                 .values(failures=0))
            return
        with self._lock:
            self.failed += 1
        gone = status in (404, 410) or failures + 1 >= MAX_FAILURES or not ok
        with writing(self.engine) as conn:
            if gone:
                conn.execute(delete(table).where(table.c.endpoint == sub.endpoint))
            else:
                conn.execute(update(table).where(table.c.endpoint == sub.endpoint)
                             .values(failures=failures + 1))

    def close(self) -> None:
        """Stop the pool (what waits is dropped; what runs finishes)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
