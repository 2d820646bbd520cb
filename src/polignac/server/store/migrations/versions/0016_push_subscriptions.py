"""Web Push subscriptions: one row a browser that allowed notifications for an account
(``players/push.py``); and an index of the tables by the deadline of their running
clock, for the hub's sweep of the correspondence tables kept in the database.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``push_subscriptions``."""
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1024), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(256), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions",
                    ["account_id"])
    op.create_index("tables_deadline", "tables", ["deadline"])


def downgrade() -> None:
    """Drop ``push_subscriptions`` and the deadline index."""
    op.drop_index("tables_deadline", "tables")
    op.drop_index("ix_push_subscriptions_account_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
