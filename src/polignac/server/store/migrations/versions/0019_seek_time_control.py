"""Find players with a time control: a request asks for one (its JSON, as the tables
store it), or for an untimed table (null); only requests that ask the same are seated
together.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seeks.time_control``."""
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("time_control", sa.String(96), nullable=True))


def downgrade() -> None:
    """Drop ``seeks.time_control``."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("time_control")
