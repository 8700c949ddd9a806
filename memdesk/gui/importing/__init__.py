"""Importing a file from the window: plan it in a child process (process.py), preview it
(dialogs/import_preview.py), apply it on the db lane (importer.py)."""
