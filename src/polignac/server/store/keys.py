"""The site's secret keys (``server_keys``, migration ``0014``): 32 random bytes a key,
made by whichever process asks first and then read by all, so that every process of a
site signs and checks alike (device cookies, ``players/devices.py``; the Web Push
VAPID key, ``players/push.py``).  Blocking: call in a thread."""

from __future__ import annotations

import secrets
import time

from sqlalchemy import Engine, select

from .db import writing
from .schema import server_keys_t


def server_key(engine: Engine, name: str) -> bytes:
    """The key ``name`` (made now when there is none yet; a process that loses the race
    to make it reads the winner's).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database could not be read or written.
    """
    with engine.connect() as conn:
        row = conn.execute(select(server_keys_t.c.value).where(
            server_keys_t.c.name == name)).first()
    if row is not None:
        return bytes.fromhex(row.value)
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    with writing(engine) as conn:
        conn.execute(upsert(server_keys_t).values(
            name=name, value=secrets.token_hex(32), created_at=time.time())
            .on_conflict_do_nothing(index_elements=["name"]))
        value = conn.execute(select(server_keys_t.c.value).where(
            server_keys_t.c.name == name)).scalar_one()
    return bytes.fromhex(value)
