"""The main window's parts: its actions and menus, and what can be done to selected memories.
(main_window.py and status.py join them here after the open branches merge.)"""
