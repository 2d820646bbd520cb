"""A table's state: ``broken``, why a stored table does not replay (it is then
closed for good and never loaded again).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.broken`` (text, null while the table replays)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("broken", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop ``tables.broken``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("broken")
