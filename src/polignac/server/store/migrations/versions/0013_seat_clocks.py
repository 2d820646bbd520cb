"""Clocks and leaving: ``seats.left_at`` (the person ran out of time or left for good:
a stand-in plays the seat) and ``match_seats.abandoned`` (a rated match they left,
placed last).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.left_at`` and ``match_seats.abandoned`` (false for every stored match)."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("left_at", sa.Float, nullable=True))
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("abandoned", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("abandoned")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_at")
