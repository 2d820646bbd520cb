"""Names that pass for an account's (``players/names.py``): each account's two name
keys (Unicode skeletons, UTS #39), indexed, filled for the accounts there are; and the
account name of a seat's holder and of the person asking for a bot's seat
(``seats.account``, ``seats.take_account``: a seat held by a signed-in person; the
frames mark the others as guests).

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts.name_key``, ``accounts.name_key2`` (indexed, filled),
    ``seats.account`` and ``seats.take_account``."""
    from polignac.server.base.skeletons import name_keys

    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(128), nullable=True))
        batch.add_column(sa.Column("name_key2", sa.String(128), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account", sa.String(32), nullable=True))
        batch.add_column(sa.Column("take_account", sa.String(32), nullable=True))
    op.create_index("accounts_name_key", "accounts", ["name_key"])
    op.create_index("accounts_name_key2", "accounts", ["name_key2"])
    accounts = sa.table("accounts", sa.column("id", sa.Integer),
                        sa.column("username", sa.String), sa.column("deleted_at", sa.Float),
                        sa.column("name_key", sa.String), sa.column("name_key2", sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.username)
                        .where(accounts.c.deleted_at.is_(None))).all()
    for row in rows:
        key, key2 = name_keys(row.username)
        conn.execute(sa.update(accounts).where(accounts.c.id == row.id)
                     .values(name_key=key, name_key2=key2))


def downgrade() -> None:
    """Drop them."""
    op.drop_index("accounts_name_key2", "accounts")
    op.drop_index("accounts_name_key", "accounts")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("take_account")
        batch.drop_column("account")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_key2")
        batch.drop_column("name_key")
