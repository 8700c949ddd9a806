# peewee, as mypy sees it: untyped. peewee 4's own stubs type a .tuples()/.dicts() row as the
# model class and know no auto "id" or "<fk>_id" attribute, so every raw-row read would need a
# cast. Our records (memdesk/core/records.py) carry the types across the core's API instead.
from typing import Any

def __getattr__(name: str) -> Any: ...
