"""The application shell: the task manager (two lanes), the open database's session and undo
stack, the language, Qt work-arounds and the maintenance scheduler. No window code."""
