"""Follows and presence: who follows whom (``follows``) and each account's last place
seen, with its choice to show it or not (``presence``; ``players/follows.py``,
``players/places.py``).

Revision ID: 0023
Revises: 0022
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``follows`` and ``presence``."""
    op.create_table(
        "follows",
        sa.Column("follower", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("followee", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("follows_followee", "follows", ["followee"])
    op.create_table(
        "presence",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=True),
        sa.Column("place", sa.String(8), nullable=True),
        sa.Column("ref", sa.String(32), nullable=True),
        sa.Column("watch", sa.Boolean, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )
    op.create_index("presence_seen", "presence", ["seen_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("presence_seen", "presence")
    op.drop_table("presence")
    op.drop_index("follows_followee", "follows")
    op.drop_table("follows")
