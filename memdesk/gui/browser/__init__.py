"""The left side of the window: memory tree, search bar and result list."""
