"""The main window's parts: its actions and menus, what can be done to selected memories,
the jobs indicator. (main_window.py joins them here after the open branches merge.)"""
