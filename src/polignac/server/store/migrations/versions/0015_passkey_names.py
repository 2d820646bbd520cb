"""A passkey's name (``passkeys.name``): the browser and system it was made on, then
whatever its owner renames it to on the account page (``players/passkeys.py``).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``passkeys.name`` (NULL for the passkeys stored before: the page names them
    by their date)."""
    with op.batch_alter_table("passkeys") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("passkeys") as batch:
        batch.drop_column("name")
