"""The application shell: the task manager (two lanes), the open database's session and undo
stack, Qt work-arounds and the maintenance scheduler. No window code. (i18n.py, the language,
joins them after the open branches merge: their tests import memdesk.gui.i18n.)"""
