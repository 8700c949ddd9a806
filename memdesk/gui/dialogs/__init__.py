"""Dialogs: import preview, personas, settings, conflicts. All open non-blocking (open())."""
