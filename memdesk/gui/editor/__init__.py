"""The right side of the window: one memory's fields, history and supersede chain."""
