"""Clocks and leaving: ``seats.left_at`` (the person ran out of time or left for good:
a stand-in plays the seat) and ``match_seats.abandoned`` (a rated match they left,
placed last), ``tables.to_move`` and ``tables.deadline`` (whose clock runs and
until when: the "Your turn" lists), and ``abandons`` (who left which rated match, when: play bans).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.left_at``, ``match_seats.abandoned`` (false for every stored match) and
    the ``abandons`` table (``players/conduct.py``)."""
    op.create_table(
        "abandons",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("abandons_at", "abandons", ["account_id", "at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("left_at", sa.Float, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("abandoned", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Drop them."""
    op.drop_index("abandons_at", "abandons")
    op.drop_table("abandons")
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("abandoned")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_at")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("deadline")
        batch.drop_column("to_move")
