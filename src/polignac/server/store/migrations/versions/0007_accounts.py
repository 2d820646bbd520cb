"""Accounts, sessions, recovery codes, finished matches and ratings (issue 20).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts``, ``account_identities``, ``sessions``, ``recovery_codes``,
    ``passkeys``, ``passkey_challenges``,
    ``match_results``, ``match_seats``, ``ratings``, ``rating_history`` and
    ``rating_clock`` (one row: the number of the last rating update)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float, nullable=True),
    )
    op.create_table(
        "account_identities",
        sa.Column("identity_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("linked_at", sa.Float, nullable=False),
    )
    op.create_index("account_identities_account", "account_identities", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("agent", sa.String(120), nullable=False, server_default=""),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "recovery_codes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("code_hash", sa.String(64), primary_key=True),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(255), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "match_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("rating_seq", sa.Integer, nullable=True, unique=True),
    )
    op.create_table(
        "match_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_level", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("holder_hash", sa.String(64), nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("rated_as", sa.Integer, nullable=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("capots_declared", sa.Integer, nullable=False),
        sa.Column("capots_made", sa.Integer, nullable=False),
        sa.Column("jacks", sa.Integer, nullable=False),
        sa.Column("polignacs", sa.Integer, nullable=False),
        sa.Column("moons", sa.Integer, nullable=False),
        sa.Column("parties_won", sa.Integer, nullable=False),
    )
    op.create_index("match_seats_holder", "match_seats", ["holder_hash"])
    op.create_index("match_seats_account", "match_seats", ["account_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["pool", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    clock = op.create_table(
        "rating_clock",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.bulk_insert(clock, [{"id": 1, "seq": 0}])


def downgrade() -> None:
    """Drop the tables of :func:`upgrade`."""
    for name in ("rating_clock", "rating_history", "ratings", "match_seats", "match_results",
                 "passkey_challenges", "passkeys", "recovery_codes", "sessions",
                 "account_identities", "accounts"):
        op.drop_table(name)
