"""Arena tournaments (issue 34): ``tournaments``, ``tournament_players`` and
``tournament_matches`` (``events/store.py``).

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three tables and their indexes."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("creator", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("time_control", sa.Text, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot_wait", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("tournaments_start", "tournaments", ["starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("changed_at", sa.Float, nullable=False),
        sa.Column("score_units", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=True),
    )
    op.create_index("tournament_players_rank", "tournament_players",
                    ["tournament_id", "rank"])
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("places", sa.Text, nullable=True),
    )
    op.create_index("tournament_matches_finished", "tournament_matches",
                    ["tournament_id", "finished_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("tournament_matches")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
