"""`memdesk model ...` end to end: exit codes, stdout, stderr, and the models folder."""

import argparse
import json

import pytest

from memdesk.cli import main
from memdesk.cli.model import register
from memdesk.core.embed import HUB_MODELS, active_name


def run(capsys, *argv):
    code = main(["model", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_register_adds_a_model_group_whose_handlers_return_exit_codes(tiny, models_root, capsys):
    parser = argparse.ArgumentParser(prog="memdesk")
    parser.add_argument("--db")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["model", "install", str(tiny("t")), "--name", "cli-t"])
    assert args.needs_store is False
    assert args.func(args) == 0
    args = parser.parse_args(["model", "use", "missing"])
    assert args.func(args) == 1
    assert "no model named 'missing'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parser.parse_args(["model"])  # an action is required


def test_list_without_models_explains_how_to_add_one(models_root, capsys):
    code, out, err = run(capsys, "list")
    assert code == 0
    assert "memdesk model install DIR" in out and "memdesk model download bge-small-zh-v1.5" in out


def test_install_list_use_remove(tiny, models_root, capsys):
    code, out, _ = run(capsys, "install", str(tiny("first")))
    assert code == 0 and "installed first (16 dims, mean pooling" in out and "active model" in out
    code, _, err = run(capsys, "install", str(tiny("first")))
    assert code == 1 and "memdesk: error: a model named 'first' is already installed" in err
    code, _, err = run(capsys, "install", str(tiny("odd", pooling=None)))
    assert code == 1 and "--pooling cls" in err
    code, out, _ = run(
        capsys, "install", str(tiny("odd", pooling=None)), "--pooling", "cls", "--name", "second", "--max-tokens", "64"
    )
    assert code == 0 and "memdesk model use second" in out
    assert active_name() == "first"

    code, out, _ = run(capsys, "list")
    assert code == 0 and out.splitlines()[0].startswith("* first") and "  second (16 dims, cls" in out
    code, out, _ = run(capsys, "list", "--json")
    listed = json.loads(out)
    assert [(m["name"], m["active"], m["pooling"]) for m in listed["models"]] == [
        ("first", True, "mean"),
        ("second", False, "cls"),
    ]

    assert run(capsys, "use", "second")[0] == 0 and active_name() == "second"
    code, _, err = run(capsys, "use", "nope")
    assert code == 1 and "no model named 'nope'" in err
    code, out, _ = run(capsys, "remove", "second")
    assert code == 0 and "keyword-only" in out and active_name() is None
    code, out, _ = run(capsys, "list")
    assert "no model is active" in out
    code, _, err = run(capsys, "remove", "second")
    assert code == 1 and "no model named 'second'" in err


def test_download_through_the_cli(hub, kit, models_root, tmp_path, capsys):
    bge = HUB_MODELS["bge-small-zh-v1.5"]
    folder = kit.make_folder(tmp_path / "hubsrc", hidden=512)
    hub.repos[bge.repo] = {
        bge.files["model.onnx"]: (folder / "model.onnx").read_bytes(),
        bge.files["tokenizer.json"]: (folder / "tokenizer.json").read_bytes(),
    }
    hub.lfs.add(bge.files["model.onnx"])
    code, out, err = run(capsys, "download", "bge-small-zh-v1.5")
    assert code == 0, err
    assert "installed bge-small-zh-v1.5 (512 dims, cls pooling" in out
    code, _, err = run(capsys, "download", "nonesuch")
    assert code == 1 and "unknown model 'nonesuch'" in err


def test_cli_constants_match_the_embed_package():
    # cli/model.py keeps copies so that building the parser does not import numpy.
    from memdesk.cli import model as cli_model
    from memdesk.core.embed import HUB_MODELS
    from memdesk.core.embed.config import POOLINGS

    assert cli_model.POOLINGS == POOLINGS
    assert set(cli_model.HUB_MODEL_NAMES) == set(HUB_MODELS)


def test_cli_download_takes_hub_and_honours_hf_endpoint(hub, kit, models_root, tmp_path, capsys, monkeypatch):
    bge = HUB_MODELS["bge-small-zh-v1.5"]
    folder = kit.make_folder(tmp_path / "hubsrc", hidden=512)
    hub.repos[bge.repo] = {
        bge.files["model.onnx"]: (folder / "model.onnx").read_bytes(),
        bge.files["tokenizer.json"]: (folder / "tokenizer.json").read_bytes(),
    }
    hub.lfs.add(bge.files["model.onnx"])
    import os

    served = os.environ["MEMDESK_HUB_URL"]
    monkeypatch.delenv("MEMDESK_HUB_URL")
    monkeypatch.setenv("HF_ENDPOINT", served)
    code, out, err = run(capsys, "download", "bge-small-zh-v1.5")
    assert code == 0, err
    assert json.loads(run(capsys, "list", "--json")[1])["models"][0]["source"].startswith(served.rstrip("/"))
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing there
    code, out, err = run(capsys, "download", "bge-small-zh-v1.5", "--name", "via-flag", "--hub", served)
    assert code == 0, err
    assert "installed via-flag" in out
    code, _, err = run(capsys, "download", "bge-small-zh-v1.5", "--name", "x", "--hub", "not a url")
    assert code == 1 and "not a hub address" in err
