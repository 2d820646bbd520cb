"""Rate limits shared by the processes of a cluster without Redis (``ratelimits.py``):
one row per bucket, its theoretical arrival time (GCRA).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rate_buckets`` (a bucket's key -> when it is full again, roughly)."""
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("tat", sa.Float, nullable=False),
    )
    op.create_index("rate_buckets_tat", "rate_buckets", ["tat"])


def downgrade() -> None:
    """Drop ``rate_buckets``."""
    op.drop_index("rate_buckets_tat", "rate_buckets")
    op.drop_table("rate_buckets")
