"""Find players: who claimed a group (``seeks.claimant``), so that a live process
takes over the group of a process that died between claiming it and seating it.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seeks.claimant`` (the id of the process seating a ``creating`` group)."""
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("claimant", sa.String(128), nullable=True))


def downgrade() -> None:
    """Drop ``seeks.claimant``."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("claimant")
