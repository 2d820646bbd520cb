"""Clubs' schedules (issue 34): ``tournament_schedules``, and ``tournaments.schedule_id``
with a unique index on (schedule, start), so that each occurrence becomes one
tournament whichever process creates it (``events/schedule_store.py``).

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table, the column and its unique index."""
    op.create_table(
        "tournament_schedules",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("time_control", sa.Text, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot_wait", sa.Integer, nullable=True),
        sa.Column("every", sa.String(16), nullable=False),
        sa.Column("on_date", sa.String(10), nullable=True),
        sa.Column("at", sa.String(5), nullable=False),
        sa.Column("tz", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("schedule_id", sa.String(32), nullable=True))
    op.create_index("tournaments_occurrence", "tournaments", ["schedule_id", "starts_at"],
                    unique=True)


def downgrade() -> None:
    """Drop them."""
    op.drop_index("tournaments_occurrence", "tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("schedule_id")
    op.drop_table("tournament_schedules")
