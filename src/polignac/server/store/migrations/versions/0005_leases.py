"""Table leases: which server process owns a table, until when (several processes).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``leases`` table: ``table_id`` (key), ``owner`` (a process id),
    ``expires`` (epoch seconds, the database's clock) and ``term`` (raised at each
    change of owner)."""
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("term", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("leases_owner", "leases", ["owner"])


def downgrade() -> None:
    """Drop the ``leases`` table."""
    op.drop_index("leases_owner", "leases")
    op.drop_table("leases")
