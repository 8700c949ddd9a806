"""`memdesk model ...`: install, download, list, use and remove embedding models.

None of these touch the database: models live in the models folder
($MEMDESK_MODELS_DIR or the user data directory), shared by every database.
"""

from __future__ import annotations

import sys
import time

# The embed package pulls in numpy; import it when a model command runs, not
# when the parser is built for every other command (the MCP handshake).
from .options import json_option
from .output import guarded, print_json

POOLINGS = ("cls", "mean")
HUB_MODEL_NAMES = ("bge-small-zh-v1.5",)


def _embed():
    from memdesk.core import embed

    return embed


# Every handler exits 1 with the message on stderr for a user error (output.run_guarded);
# they run without a store, and tests call them straight from register()'s parser.
_guarded = guarded(interrupted="interrupted; nothing was installed (a download resumes when run again)")


class _Progress:
    """Byte progress on stderr, redrawn at most 5 times a second, only on a terminal."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.live or (now - self.last < 0.2 and done < total):
            return
        self.last, self.shown = now, True
        pct = 100 * done / total if total else 100
        self.stream.write(f"\r  {done / 1e6:7.1f} / {total / 1e6:.1f} MB  {pct:5.1f}%")
        self.stream.flush()

    def status(self, message: str) -> None:
        self.end()
        print(f"  {message}", file=self.stream)

    def end(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.shown = False


def _describe(info) -> str:
    cfg = info.config
    what = f"{cfg.dimension} dims, {cfg.pooling} pooling" if cfg else "damaged"
    if cfg and cfg.quantization:
        what += f", {cfg.quantization}"
    return f"{info.name} ({what}, {info.size_bytes / 1e6:.1f} MB)"


def _report_installed(info) -> int:
    print(f"installed {_describe(info)} in {info.folder}")
    if info.active:
        print(f"{info.name} is the active model: search now adds semantic matches")
    else:
        print(f"make it the active model with: memdesk model use {info.name}")
    return 0


def _install_options(args, progress: _Progress) -> dict:
    """The options install and download share; --use makes the model active, else only a first one is."""
    return dict(
        name=args.name,
        pooling=args.pooling,
        int8=args.int8,
        force=args.force,
        make_active=True if args.use else None,
        threads=args.threads,
        status=progress.status,
    )


@_guarded
def cmd_install(args) -> int:
    progress = _Progress()
    info = _embed().install_model(
        args.source,
        max_tokens=args.max_tokens,
        query_instruction=args.query_instruction,
        normalise=False if args.no_normalise else None,
        **_install_options(args, progress),
    )
    return _report_installed(info)


@_guarded
def cmd_download(args) -> int:
    progress = _Progress()
    try:
        info = _embed().download_model(
            args.model,
            repo=args.repo,
            revision=args.revision,
            hub=args.hub,
            progress=progress,
            **_install_options(args, progress),
        )
    finally:
        progress.end()
    return _report_installed(info)


@_guarded
def cmd_list(args) -> int:
    models = _embed().list_models()
    if args.json:
        print_json({"models_dir": str(_embed().models_dir()), "models": [m.to_json() for m in models]})
        return 0
    if not models:
        _, hint = _embed().active_embedder()
        print(f"no models in {_embed().models_dir()}")
        print(hint)
        return 0
    for info in models:
        mark = "*" if info.active else " "
        line = f"{mark} {_describe(info)}"
        if info.problem:
            line += f"  -- unusable: {info.problem}"
        elif info.config and info.config.source:
            line += f"  from {info.config.source}"
        print(line)
    if not any(m.active for m in models):
        print("no model is active; choose one with: memdesk model use NAME")
    return 0


@_guarded
def cmd_use(args) -> int:
    info = _embed().use_model(args.name)
    print(f"{_describe(info)} is now the active model")
    return 0


@_guarded
def cmd_remove(args) -> int:
    was_active = _embed().remove_model(args.name)
    print(f"removed {args.name}")
    if was_active:
        print("it was the active model: search is keyword-only until you `memdesk model use` another")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def register(subparsers) -> None:
    """Add the `model` command group to the main parser's subparsers."""
    model = subparsers.add_parser("model", help="manage the local embedding model (semantic search)")
    sub = model.add_subparsers(dest="model_cmd", required=True, metavar="ACTION")

    def action(name, handler, help_text):
        p = sub.add_parser(name, help=help_text)
        p.set_defaults(func=handler, needs_store=False)
        return p

    def threads_arg(p):
        p.add_argument(
            "--threads", type=_positive, default=0, help="CPU threads for testing the model (default: all cores)"
        )

    def setting_args(p):
        p.add_argument("--name", help="install under this name (default: from the source)")
        p.add_argument(
            "--pooling",
            choices=POOLINGS,
            help="how token vectors become one: cls (bge models) or mean (sentence-transformers)",
        )
        p.add_argument(
            "--int8",
            action="store_true",
            help="quantise to int8 per channel: ~4x smaller and faster, nearly the same neighbours",
        )
        p.add_argument("--force", action="store_true", help="replace an installed model of the same name")
        p.add_argument("--use", action="store_true", help="make it the active model (default: if none is)")
        threads_arg(p)

    p = action("install", cmd_install, "install a model from a folder or .zip (model.onnx + tokenizer.json)")
    p.add_argument("source", metavar="DIR|ZIP")
    setting_args(p)
    p.add_argument("--max-tokens", type=int, help="longest input in tokens (default: 512 or the model's)")
    p.add_argument("--query-instruction", help="text put in front of search queries (bge models)")
    p.add_argument("--no-normalise", action="store_true", help="keep vectors unnormalised (rarely right)")

    p = action(
        "download",
        cmd_download,
        "download a model from the Hugging Face hub or a mirror (needs internet; honours HF_ENDPOINT)",
    )
    p.add_argument("model", metavar="MODEL", help=f"one of: {', '.join(HUB_MODEL_NAMES)} (or any name with --repo)")
    setting_args(p)
    p.add_argument("--repo", help="hub repository OWNER/NAME with onnx/model.onnx and tokenizer.json")
    p.add_argument("--revision", help="branch, tag or commit (default: the pinned commit)")
    p.add_argument(
        "--hub",
        metavar="URL",
        help="a Hugging Face compatible hub or mirror, e.g. https://hf-mirror.com "
        "(default: $MEMDESK_HUB_URL, else $HF_ENDPOINT, else https://huggingface.co)",
    )

    p = action("list", cmd_list, "list installed models (* = active)")
    json_option(p)
    p = action("use", cmd_use, "make an installed model the active one")
    p.add_argument("name")
    p = action("remove", cmd_remove, "delete an installed model")
    p.add_argument("name")
