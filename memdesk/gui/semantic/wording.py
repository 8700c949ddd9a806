"""What the user is told about models: a failure in the window's language, one line per model."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from .hub import MIRROR_EXAMPLE

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def describe_error(exc: BaseException) -> str:
    """What went wrong, in the window's language: what it means for the user, then the core's
    reason said by its code (reasons.py)."""
    from memdesk.core.domain.errors import CancelledError, ModelError
    from memdesk.gui.reasons import error_text

    if isinstance(exc, CancelledError):
        return translate("ModelManager", "Paused. Download again to resume where it stopped.")
    kind = getattr(exc, "kind", "") if isinstance(exc, ModelError) else ""
    heads = {
        "network": translate(
            "ModelManager",
            "Cannot reach the model hub. Check the network, or choose a mirror "
            "(for example {mirror}). What was downloaded is kept: try again to "
            "resume.",
        ).format(mirror=MIRROR_EXAMPLE),
        "server": translate(
            "ModelManager", "The model hub refused the request: check the address of the hub or mirror."
        ),
        "checksum": translate(
            "ModelManager",
            "The downloaded file does not match its checksum; it was deleted "
            "and nothing was installed. Try again, or use another mirror.",
        ),
        "disk": translate(
            "ModelManager",
            "Not enough free disk space for the model. Free some space and try again; what was downloaded is kept.",
        ),
        "not_model": translate(
            "ModelManager", "This is not a model: a model is a folder or .zip holding model.onnx and tokenizer.json."
        ),
        "exists": translate("ModelManager", "A model of that name is already installed; remove it first."),
        "broken": translate("ModelManager", "The model does not work (it fails on a test sentence)."),
    }
    keep = translate("ModelManager", "The active model was not changed.")
    if kind in heads:
        return f"{heads[kind]} {keep}\n\n{error_text(exc)}"
    head = translate("ModelManager", "The model could not be set up.")
    return f"{head} {keep}\n\n" + translate("ModelManager", "Details: {details}").format(details=error_text(exc))


def describe_model(info) -> str:
    cfg = info.config
    if cfg is None:
        return translate("ModelManager", "{name}: damaged ({problem})").format(name=info.name, problem=info.problem)
    precision = "int8" if cfg.quantization else "fp32"
    return translate("ModelManager", "{name} · {dim} dimensions · {pooling} pooling · {size} MB · {precision}").format(
        name=info.name, dim=cfg.dimension, pooling=cfg.pooling, size=f"{info.size_bytes / 1e6:.1f}", precision=precision
    )


def model_name_and_size(info) -> str:
    """A model as a person needs it: its name and size (the details go in a tooltip)."""
    if info.config is None:
        return translate("ModelManager", "{name}: damaged").format(name=info.name)
    megabytes = info.size_bytes / 1e6
    size = f"{megabytes:.1f}" if megabytes < 10 else f"{megabytes:.0f}"
    return translate("ModelManager", "{name} ({size} MB)").format(name=info.name, size=size)
