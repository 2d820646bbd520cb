"""The site's own secret keys, one row each (``players/devices.py``: the key that signs
the device cookies), so that every process of the site signs and checks alike.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``server_keys`` (a key's name -> its random value, hex)."""
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop ``server_keys``."""
    op.drop_table("server_keys")
