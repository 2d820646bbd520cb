"""Blocks and invitations between accounts (``players/blocks.py``,
``players/invites.py``): ``blocks`` (who blocked whom; indexed by the blocked account)
and ``invites`` (an account's invitation of another to its table, until it expires).

Revision ID: 0022
Revises: 0021
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``blocks`` and ``invites``."""
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "invites",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("inviter", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("invitee", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.UniqueConstraint("inviter", "invitee", "table_id", name="invites_once"),
    )
    op.create_index("invites_invitee", "invites", ["invitee", "expires_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("invites_invitee", "invites")
    op.drop_table("invites")
    op.drop_index("blocks_blocked", "blocks")
    op.drop_table("blocks")
