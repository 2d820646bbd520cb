"""Alembic environment: run with the connection that polignac.server.store.db.migrate passes."""

from alembic import context


def run_migrations() -> None:
    """Run the pending migrations on the connection given in the config's attributes."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


try:
    context.config  # noqa: B018 - set only while Alembic runs this file
except AttributeError:  # imported outside Alembic (a doctest collection): nothing to do
    pass
else:
    run_migrations()
