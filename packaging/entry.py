"""Entry point of the frozen build (PyInstaller runs this file)."""

import multiprocessing
import sys

from memdesk.launch import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the window imports files in a spawned child process
    sys.exit(main())
