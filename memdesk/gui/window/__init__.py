"""The main window: the window itself, its actions and menus, what can be done to selected
memories, the status-bar jobs indicator and the first-start semantic-search offer."""
