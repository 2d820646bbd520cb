"""Find players' limits by what a client holds (issue 32): each request's client
address and network (per-address and per-network caps on live requests), and when
its page last asked (a request whose page never asked is never matched).

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seeks.address``, ``seeks.network`` and ``seeks.polled_at``."""
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("network", sa.String(64), nullable=True))
        batch.add_column(sa.Column("polled_at", sa.Float, nullable=True))
        batch.create_index("seeks_network", ["network"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_index("seeks_network")
        batch.drop_column("polled_at")
        batch.drop_column("network")
        batch.drop_column("address")
