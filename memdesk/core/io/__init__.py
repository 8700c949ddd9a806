"""Import and export. One module per format; plan.py previews and applies."""
