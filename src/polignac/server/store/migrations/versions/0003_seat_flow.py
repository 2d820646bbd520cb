"""Seat flow: the table's creator, and requests to take a bot's seat at the next deal.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.creator_seat``, ``seats.take_hash`` and ``seats.take_name``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_seat", sa.Integer, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("take_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("take_name", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the three columns."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("take_name")
        batch.drop_column("take_hash")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_seat")
