"""Where the embedding model is downloaded from: Hugging Face, the hub the environment names, or
a mirror the user typed; the last choice is kept in the preferences."""

from __future__ import annotations

import os

from memdesk.gui import prefs

HF_URL = "https://huggingface.co"
MIRROR_EXAMPLE = "https://hf-mirror.com"
HUB_KEY, HUB_URL_KEY = "models/hub", "models/hub_url"  # "hf" | "env" | "mirror", the mirror's URL


def environment_hub() -> tuple[str, str] | None:
    """(variable, URL) of the hub the environment names ($MEMDESK_HUB_URL, else $HF_ENDPOINT)."""
    for variable in ("MEMDESK_HUB_URL", "HF_ENDPOINT"):
        value = (os.environ.get(variable) or "").strip()
        if value:
            return variable, value.rstrip("/")
    return None


def hub_choice() -> tuple[str, str]:
    """("hf" | "env" | "mirror", mirror URL) as last chosen; the environment's hub by default."""
    s = prefs.settings()
    default = "env" if environment_hub() else "hf"
    kind = s.value(HUB_KEY, default)
    if kind not in ("hf", "env", "mirror") or (kind == "env" and not environment_hub()):
        kind = default
    return kind, str(s.value(HUB_URL_KEY, "") or "")


def set_hub_choice(kind: str, url: str) -> None:
    s = prefs.settings()
    s.setValue(HUB_KEY, kind)
    s.setValue(HUB_URL_KEY, url)


def hub_for(kind: str, url: str) -> str:
    """The hub's address for a choice; a mirror's address is checked (MemDeskError if unusable)."""
    from memdesk.core.embed.download import check_hub

    if kind == "env":
        env = environment_hub()
        return check_hub(env[1]) if env else HF_URL
    if kind == "mirror":
        return check_hub(url)
    return HF_URL
