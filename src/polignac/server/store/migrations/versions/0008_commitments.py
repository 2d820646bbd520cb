"""The commitment log (one hash chain of every deal's commitment) and the refused
cuts (``commitments.py``).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``commitment_log``, ``commitment_head`` (one row: the chain's last entry
    number and hash, 0 and zeros while it is empty) and ``cut_refusals``."""
    op.create_table(
        "commitment_log",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("prev", sa.String(64), nullable=False, unique=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.UniqueConstraint("table_id", "deal", name="commitment_log_deal"),
    )
    head = op.create_table(
        "commitment_head",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": "0" * 64}])
    op.create_table(
        "cut_refusals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rule", sa.String(32), nullable=False),
        sa.Column("message", sa.String(200), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("cut_refusals_deal", "cut_refusals", ["table_id", "deal"])


def downgrade() -> None:
    """Drop the tables of :func:`upgrade`."""
    for name in ("cut_refusals", "commitment_head", "commitment_log"):
        op.drop_table(name)
