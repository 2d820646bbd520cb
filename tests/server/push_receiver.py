"""A local Web Push receiver: what a browser's push service and the browser do with a
push, on 127.0.0.1.  It holds a browser's keys (a P-256 key pair and a 16-byte auth
secret), checks each push's VAPID header (an ES256 JWT for this origin, signed by the
key it names) and decrypts its body as the browser would (RFC 8291, ``aes128gcm``, with
``http_ece``): no mock of the sender.  An endpoint whose path ends in ``/gone`` answers
410, as a push service does for a subscription the browser withdrew."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    """One push received: its decrypted message, the VAPID key that signed it, its
    claims and headers, and when it came (``time.time()``)."""

    message: dict[str, Any]
    vapid_key: str
    claims: dict[str, Any]
    headers: dict[str, str]
    at: float


class Receiver:
    """A browser's keys and the pushes its endpoints received (:attr:`pushes`)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.pushes: queue.Queue[Push] = queue.Queue()
        self.refused: list[str] = []
        self.origin = ""

    def subscription(self, name: str = "browser") -> dict[str, Any]:
        """A ``PushSubscription.toJSON()`` for an endpoint ``/push/NAME`` here."""
        point = self.key.public_key().public_bytes(Encoding.X962,
                                                   PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/push/{name}",
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def next(self, timeout: float = 30) -> Push:
        """The next push (waits for it)."""
        return self.pushes.get(timeout=timeout)

    def check_vapid(self, header: str) -> tuple[str, dict[str, Any]]:
        """The key and claims of a ``vapid t=JWT, k=KEY`` header, its signature checked.

        Raises:
            ValueError: a header that is not valid VAPID for this origin.
        """
        if not header.startswith("vapid "):
            raise ValueError(f"not a VAPID authorization: {header[:40]!r}")
        fields = dict(part.strip().split("=", 1) for part in header[6:].split(","))
        token, key = fields["t"], fields["k"]
        head, claims_text, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                           int.from_bytes(raw[32:], "big")),
                      f"{head}.{claims_text}".encode(), ec.ECDSA(hashes.SHA256()))
        if json.loads(unb64(head)).get("alg") != "ES256":
            raise ValueError("the JWT is not ES256")
        claims = json.loads(unb64(claims_text))
        if claims.get("aud") != self.origin or claims.get("exp", 0) < time.time() \
                or not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError(f"bad claims {claims}")
        return key, claims


@contextmanager
def running() -> Iterator[Receiver]:
    """A :class:`Receiver` listening on a free port of 127.0.0.1 until the block ends."""
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path.endswith("/gone"):
                self.send_response(410)
                self.end_headers()
                return
            try:
                assert self.headers.get("Content-Encoding") == "aes128gcm"
                assert int(self.headers.get("TTL", "-1")) >= 0
                key, claims = receiver.check_vapid(self.headers.get("Authorization", ""))
                plain = http_ece.decrypt(body, private_key=receiver.key,
                                         auth_secret=receiver.auth, version="aes128gcm")
                message = json.loads(plain)
            except Exception as exc:  # a push a browser would drop
                receiver.refused.append(repr(exc))
                self.send_response(400)
                self.end_headers()
                return
            receiver.pushes.put(Push(message, key, claims,
                                      {k.lower(): v for k, v in self.headers.items()},
                                      time.time()))
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
