"""Where memories are kept: the peewee models, SQLite and PostgreSQL backends, schema and
migrations, backups, checkpoints, reconnects, the page cache and stored vectors.
Imports only core.domain.
"""
