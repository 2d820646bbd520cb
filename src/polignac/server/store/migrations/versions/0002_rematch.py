"""A table remembers its rematch.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rematch_id``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop ``tables.rematch_id``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch_id")
