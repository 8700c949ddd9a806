"""Semantic search from the window: the embedding model's jobs (controller), where models come
from (hub), what the user is told (wording), the Settings dialog's Model tab and the first-start
offer."""
