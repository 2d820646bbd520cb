"""Seats and tables: table options (``private``), closing and finishing times, the
browser identity holding a seat, approved requests, invites the creator can read again.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.options`` (JSON text), ``tables.closed_at``, ``tables.finished_at``,
    ``seats.holder_hash``, ``seats.take_holder``, ``seats.take_approved`` and
    ``seats.invite_sealed``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("options", sa.Text, nullable=False, server_default="{}"))
        batch.add_column(sa.Column("closed_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("finished_at", sa.Float, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("holder_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("take_holder", sa.String(64), nullable=True))
        batch.add_column(sa.Column("take_approved", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("invite_sealed", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the seven columns."""
    with op.batch_alter_table("seats") as batch:
        for name in ("invite_sealed", "take_approved", "take_holder", "holder_hash"):
            batch.drop_column(name)
    with op.batch_alter_table("tables") as batch:
        for name in ("finished_at", "closed_at", "options"):
            batch.drop_column(name)
