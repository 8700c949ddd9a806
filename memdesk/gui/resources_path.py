"""Where the app's resources (icons, translations, examples) are at run time."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

ENV_RESOURCES = "MEMDESK_RESOURCES"


def _candidates() -> list[Path]:
    package = Path(__file__).resolve().parents[1]  # memdesk/
    found = []
    override = os.environ.get(ENV_RESOURCES)
    if override:
        found.append(Path(override))
    bundle = getattr(sys, "_MEIPASS", None)  # PyInstaller unpacks data files here
    if bundle:
        found.append(Path(bundle) / "resources")
    found.append(package / "resources")  # installed wheel (package data)
    found.append(package.parent / "resources")  # source checkout
    return found


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    for candidate in _candidates():
        if (candidate / "i18n").is_dir() or (candidate / "icons").is_dir():
            return candidate
    return _candidates()[-1]


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
