"""Stored analyses: each finished deal's analysis of a table, computed once and served
again after a restart (``analysis_routes.py``).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``analyses`` (table, deal, samples -> the deal's analysis as JSON)."""
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("samples", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop ``analyses``."""
    op.drop_table("analyses")
