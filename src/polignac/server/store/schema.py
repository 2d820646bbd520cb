"""The whole schema of the server's database: every table, in one place.

The migrations (``store/migrations``) bring a database to it; every room reads and
writes these tables through SQLAlchemy Core. Nothing here imports the server.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()
"""Every table of the server (the migrations' ``target_metadata``)."""

tables_t = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("preset", String(64), nullable=False),
    Column("overrides", Text, nullable=False, default="{}"),
    Column("num_players", Integer, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("rematch_id", String(32), nullable=True),  # migration 0002
    Column("creator_seat", Integer, nullable=True),  # migration 0003
    Column("options", Text, nullable=False, default="{}"),  # migration 0004
    Column("closed_at", Float, nullable=True),  # migration 0004
    Column("finished_at", Float, nullable=True),  # migration 0004
    Column("broken", Text, nullable=True),  # migration 0006: why it does not replay
    Column("to_move", Integer, nullable=True),  # migration 0013: the seat whose clock runs
    Column("deadline", Float, nullable=True),  # migration 0013: when it runs out
)

seats_t = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "bot" or "human"
    Column("bot_level", String(64), nullable=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
    Column("take_hash", String(64), nullable=True),  # migration 0003
    Column("take_name", String(64), nullable=True),  # migration 0003
    Column("holder_hash", String(64), nullable=True),  # migration 0004
    Column("take_holder", String(64), nullable=True),  # migration 0004
    Column("take_approved", Boolean, nullable=False, default=False),  # migration 0004
    Column("invite_sealed", String(64), nullable=True),  # migration 0004
    Column("left_at", Float, nullable=True),  # migration 0013: out of time, or gone
    Column("account", String(32), nullable=True),  # migration 0020: holder's account name
    Column("take_account", String(32), nullable=True),  # migration 0020: the asker's
)

events_t = Table(
    "events", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "deal" or "act"
    Column("action", Text, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=True),
    Column("created_at", Float, nullable=False),
)

analyses_t = Table(  # migration 0010
    "analyses", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),  # the finished deal's number, from 1
    Column("samples", Integer, primary_key=True),
    Column("data", Text, nullable=False),  # the deal's analysis (docs/record-format.md), JSON
    Column("created_at", Float, nullable=False),
)

accounts_t = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(32), nullable=False),
    Column("username_key", String(32), nullable=True, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
    Column("name_key", String(128), nullable=True),  # migration 0020: players/names.py
    Column("name_key2", String(128), nullable=True),  # migration 0020
)

identities_t = Table(
    "account_identities", metadata,
    Column("identity_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("linked_at", Float, nullable=False),
)

sessions_t = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("agent", String(120), nullable=False, default=""),
)

recovery_t = Table(
    "recovery_codes", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("code_hash", String(64), primary_key=True),
)

passkeys_t = Table(
    "passkeys", metadata,
    Column("credential_id", String(255), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("public_key", Text, nullable=False),
    Column("sign_count", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("name", String(64), nullable=True),
)

push_subscriptions_t = Table(
    "push_subscriptions", metadata,
    Column("endpoint", String(1024), primary_key=True),  # the push service's URL
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("p256dh", String(128), nullable=False),  # the browser's public key, base64url
    Column("auth", String(64), nullable=False),  # its authentication secret, base64url
    Column("agent", String(256), nullable=False),  # the browser's User-Agent, cut
    Column("lang", String(8), nullable=False),  # the language its notifications speak
    Column("created_at", Float, nullable=False),
    Column("failures", Integer, nullable=False, default=0),  # sends failed in a row
)  # migration 0016: Web Push (players/push.py)

challenges_t = Table(
    "passkey_challenges", metadata,
    Column("challenge", String(128), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("expires_at", Float, nullable=False),
)

match_results_t = Table(
    "match_results", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("preset", String(64), nullable=False),
    Column("pool", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("players", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
    Column("rating_seq", Integer, nullable=True, unique=True),
)

STATS = ("deals", "points", "capots_declared", "capots_made", "jacks", "polignacs", "moons",
         "parties_won")
"""The statistics kept per seat of a finished match (summed on profiles)."""
match_seats_t = Table(
    "match_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot_level", String(64), nullable=True),
    Column("name", String(64), nullable=False),
    Column("holder_hash", String(64), nullable=True),
    Column("account_id", Integer, nullable=True),
    Column("rated_as", Integer, nullable=True),
    Column("preset", String(64), nullable=False),
    Column("finished_at", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("abandoned", Boolean, nullable=False, default=False),  # migration 0013
    *(Column(name, Integer, nullable=False) for name in STATS),
)

ratings_t = Table(
    "ratings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("ordinal", Float, nullable=False),
)

history_t = Table(
    "rating_history", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
)

clock_t = Table(
    "rating_clock", metadata,
    Column("id", Integer, primary_key=True),
    Column("seq", Integer, nullable=False),
)

rate_buckets_t = Table(
    "rate_buckets", metadata,
    Column("key", String(80), primary_key=True),
    Column("tat", Float, nullable=False),
    Index("rate_buckets_tat", "tat"),
)  # migration 0012

server_keys_t = Table(
    "server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),  # random bytes, hex
    Column("created_at", Float, nullable=False),
)  # migration 0014: the device cookies' signing key (players/devices.py)

leases_t = Table(
    "leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(128), nullable=False),
    Column("expires", Float, nullable=False),
    Column("term", Integer, nullable=False, default=0),
)  # migration 0005

commitment_log_t = Table(
    "commitment_log", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("table_id", String(64), nullable=False),
    Column("deal", Integer, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("prev", String(64), nullable=False, unique=True),
    Column("hash", String(64), nullable=False, unique=True),
    UniqueConstraint("table_id", "deal", name="commitment_log_deal"),
)

commitment_head_t = Table(
    "commitment_head", metadata,
    Column("id", Integer, primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("hash", String(64), nullable=False),
)

cut_refusals_t = Table(
    "cut_refusals", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), nullable=False),
    Column("deal", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("rule", String(32), nullable=False),
    Column("message", String(200), nullable=False),
    Column("at", BigInteger, nullable=False),
    Index("cut_refusals_deal", "table_id", "deal"),
)

seeks_t = Table(
    "seeks", metadata,
    Column("id", String(24), primary_key=True),
    Column("person", String(80), nullable=False, unique=True),
    Column("identity_hash", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("deals", Integer, nullable=True),
    Column("bots_after", Integer, nullable=True),
    Column("level", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("state", String(12), nullable=False),
    Column("group_id", String(24), nullable=True),
    Column("starts_at", Float, nullable=True),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("claimant", String(128), nullable=True),  # migration 0011
    Column("address", String(64), nullable=True),  # migration 0018: the client's
    Column("network", String(64), nullable=True),  # its /24 or /64 (the caps)
    Column("time_control", String(96), nullable=True),  # migration 0019: JSON, or untimed
    Column("polled_at", Float, nullable=True),  # its page's last poll (None: never)
    Index("seeks_network", "network"),  # migration 0018
)  # migration 0009

online_t = Table(
    "online", metadata,
    Column("identity_hash", String(64), primary_key=True),
    Column("seen_at", Float, nullable=False),
)  # migration 0009
abandons_t = Table(  # migration 0013
    "abandons", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("abandons_at", "account_id", "at"),
)
"""Rated matches an account left before their end (``players/conduct.py``)."""

tournaments_t = Table(  # migration 0017
    "tournaments", metadata,
    Column("id", String(24), primary_key=True),
    Column("creator", Integer, nullable=False),  # the account that created it
    Column("preset", String(64), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("time_control", Text, nullable=False),  # TimeControl.to_json(), JSON
    Column("starts_at", Float, nullable=False),
    Column("minutes", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("bot_wait", Integer, nullable=True),  # None: no bots
    Column("created_at", Float, nullable=False),
    Column("schedule_id", String(32), nullable=True),  # migration 0021: a club's schedule
    Index("tournaments_start", "starts_at"),
    # one tournament per occurrence of a schedule, whichever process creates it
    Index("tournaments_occurrence", "schedule_id", "starts_at", unique=True),
)
"""Arena tournaments (``events/tournament.py``, ``events/store.py``); ``creator`` is 0
for the occurrences of a schedule (``schedule_id``: no account created them)."""

tournament_schedules_t = Table(  # migration 0021
    "tournament_schedules", metadata,
    Column("id", String(32), primary_key=True),  # stable: a file's entry keeps its id
    Column("name", String(64), nullable=False),
    Column("source", String(8), nullable=False),  # file or cli
    Column("preset", String(64), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("time_control", Text, nullable=False),  # TimeControl.to_json(), JSON
    Column("minutes", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("bot_wait", Integer, nullable=True),  # None: no bots
    Column("every", String(16), nullable=False),  # daily, a weekday's name, or once
    Column("on_date", String(10), nullable=True),  # once: the date, ISO
    Column("at", String(5), nullable=False),  # HH:MM local time
    Column("tz", String(64), nullable=False),  # an IANA time zone
    Column("updated_at", Float, nullable=False),
)
"""Clubs' schedules of recurring arenas (``events/schedule.py``, ``schedule_store.py``)."""

tournament_players_t = Table(  # migration 0017
    "tournament_players", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("state", String(8), nullable=False),  # joined, paused or left
    Column("joined_at", Float, nullable=False),
    Column("changed_at", Float, nullable=False),  # the state's last change
    Column("score_units", Integer, nullable=False, default=0),  # cache: points * UNIT
    Column("rank", Integer, nullable=True),  # cache: the standings' rank
    Index("tournament_players_rank", "tournament_id", "rank"),
)
"""Who joined an arena, their state, and a cache of the standings (``events/store.py``)."""

tournament_matches_t = Table(  # migration 0017
    "tournament_matches", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("players", Text, nullable=False),  # JSON: an account id per seat, null a bot
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),  # None while it runs
    Column("places", Text, nullable=True),  # JSON: each seat's place (results.places)
    Index("tournament_matches_finished", "tournament_id", "finished_at"),
)
"""An arena's tables and, once finished, their places: the standings are a pure
function of these rows (``events/scoring.py:standings``)."""

blocks_t = Table(  # migration 0022
    "blocks", metadata,
    Column("blocker", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("blocked", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("blocks_blocked", "blocked"),
)
"""Who blocked whom, between accounts (``players/blocks.py``)."""

invites_t = Table(  # migration 0022
    "invites", metadata,
    Column("id", String(24), primary_key=True),
    Column("inviter", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("invitee", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    UniqueConstraint("inviter", "invitee", "table_id", name="invites_once"),
    Index("invites_invitee", "invitee", "expires_at"),
)
"""An account's invitation of another to its table's open seat (``players/invites.py``)."""

follows_t = Table(  # migration 0023
    "follows", metadata,
    Column("follower", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("followee", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("follows_followee", "followee"),
)
"""Who follows whom: accounts only (``players/follows.py``)."""

presence_t = Table(  # migration 0023
    "presence", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("seen_at", Float, nullable=True),  # None: never seen (the setting only)
    Column("place", String(8), nullable=True),  # lobby, table or arena
    Column("ref", String(32), nullable=True),  # the table's or the tournament's id
    Column("watch", Boolean, nullable=False, default=False),  # a public table
    Column("hidden", Boolean, nullable=False, default=False),  # the account's choice
    Index("presence_seen", "seen_at"),
)
"""Each account's last place seen and whether it shows when it is online
(``players/places.py``)."""

# The indexes the migrations made on the tables above (the queries that use them: the
# account's identities, passkeys and sessions; a process's leases; the profile's games;
# Find players' groups and states; who is online; the leaderboards).
Index("account_identities_account", identities_t.c.account_id)
Index("tables_deadline", tables_t.c.deadline)  # migration 0016: the hub's sweep
Index("accounts_name_key", accounts_t.c.name_key)
Index("accounts_name_key2", accounts_t.c.name_key2)
Index("leases_owner", leases_t.c.owner)
Index("match_seats_account", match_seats_t.c.account_id, match_seats_t.c.finished_at)
Index("match_seats_holder", match_seats_t.c.holder_hash)
Index("online_seen", online_t.c.seen_at)
Index("passkeys_account", passkeys_t.c.account_id)
Index("ratings_board", ratings_t.c.pool, ratings_t.c.ordinal)
Index("seeks_group", seeks_t.c.group_id)
Index("seeks_state", seeks_t.c.state)
Index("sessions_account", sessions_t.c.account_id)
