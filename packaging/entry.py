"""Entry point of the frozen build (PyInstaller runs this file)."""
import sys

from memdesk.cli import main

if __name__ == "__main__":
    sys.exit(main())
