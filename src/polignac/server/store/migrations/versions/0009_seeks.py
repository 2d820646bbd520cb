"""Find players: the requests to play (``seeks``) and who is online (``online``).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seeks`` (one row per person asking to play: ``seeks.py``) and ``online``
    (each browser identity's last lobby poll or table connection)."""
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("person", sa.String(80), nullable=False, unique=True),
        sa.Column("identity_hash", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("deals", sa.Integer, nullable=True),
        sa.Column("bots_after", sa.Integer, nullable=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("group_id", sa.String(24), nullable=True),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("seeks_state", "seeks", ["state"])
    op.create_index("seeks_group", "seeks", ["group_id"])
    op.create_table(
        "online",
        sa.Column("identity_hash", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("online_seen", "online", ["seen_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("online")
    op.drop_table("seeks")
