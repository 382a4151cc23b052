"""Loads a model by alias, Hugging Face id or local directory, on a device and dtype, and
exposes the two calls the scorers need: hidden states of a batch, and fp32 log-probabilities
of chosen target tokens from the hidden states at chosen positions."""

from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark import gemma, smollm2
from benchmark.errors import BenchError
from benchmark.registry import GEMMA_ALIAS, SMOLLM2_ALIAS, lookup

PROBE = "Il gatto dorme sul divano."
LOGITS_BYTES = {"cpu": 1 << 28, "cuda": 1 << 31}   # fp32 logits alive at once: 256 MB CPU, 2 GB GPU
# Matrix products of a few rows take other CPU kernels, which round differently; padding the
# LM head's input to this many rows keeps a token's score independent of its batch (and so
# of how sentences are split across processes).
MIN_HEAD_ROWS = 8


@dataclass
class LoadedModel:
    name: str                # what the user passed
    model_id: str            # Hugging Face id or directory
    revision: str
    kind: str                # "causal" | "masked"
    model: Any
    tokenizer: Any
    device: Any              # torch.device
    dtype: str               # "fp32" | "bf16"
    lowercase: bool
    vocab_limit: int         # softmax over the first `vocab_limit` logits (the tokenizer's length)
    bos_id: int | None = None
    bos_token: str | None = None
    warnings: list[str] = field(default_factory=list)
    device_map: dict | None = None   # module -> device when split over devices (--device-map)
    output_device: Any = None        # where the LM head runs: the last device of a device map
    _body: Any = None
    _head: Any = None        # None: the body already returns logits
    _softcap: float | None = None

    def compile(self) -> None:
        """torch.compile the model body (dynamic shapes: one compilation serves every length).
        Fuses the normalisation, rotary and activation steps; the first batches pay for it."""
        import torch
        self._body = torch.compile(self._body, dynamic=True)

    # --- the two calls the scorers use -------------------------------------------------
    def hidden(self, ids):
        """Last hidden states (B, L, H) of a batch without padding (logits when not split), on
        `device` (with a device map they come back from the last device)."""
        out = self._body(input_ids=ids)
        states = out.logits if self._head is None else out[0]
        return states.to(self.device)

    def tree_hidden(self, ids, positions, mask):
        """`hidden` for packed prefix trees: explicit position ids and a prepared 4-D additive
        attention mask (or a dict of them, one per layer type)."""
        out = self._body(input_ids=ids, position_ids=positions, attention_mask=mask, use_cache=False)
        states = out.logits if self._head is None else out[0]
        return states.to(self.device)

    @property
    def compute_dtype(self):
        import torch
        return torch.bfloat16 if self.dtype == "bf16" else torch.float32

    def logprobs(self, states, targets):
        """fp32 log P(target) from hidden states (N, H) at the scored positions (N,)."""
        import torch
        states, targets = states.to(self._head_device), targets.to(self._head_device)
        out = []
        for a, logits in self._logit_chunks(states):
            t = targets[a:a + logits.shape[0]]
            out.append(logits.gather(1, t[:, None]).squeeze(1) - torch.logsumexp(logits, dim=-1))
        return torch.cat(out).to(self.device)

    def logprobs_rows(self, states, rows, targets):
        """fp32 log P(targets[p] | states[rows[p]]): one log-softmax per row of `states`, shared
        by every prediction made from it (prefix-shared scoring)."""
        import torch
        dev = self._head_device
        states, rows, targets = states.to(dev), rows.to(dev), targets.to(dev)
        out = torch.empty(rows.shape[0], dtype=torch.float32, device=dev)
        for a, logits in self._logit_chunks(states):
            here = ((rows >= a) & (rows < a + logits.shape[0])).nonzero().squeeze(1)
            local = rows[here] - a
            out[here] = logits[local, targets[here]] - torch.logsumexp(logits, dim=-1)[local]
        return out.to(self.device)

    @property
    def _head_device(self):
        return self.output_device or self.device

    def _logit_chunks(self, states):
        """(first row, fp32 logits over the tokenizer's vocabulary) for chunks of `states`, each
        small enough that its logits stay within LOGITS_BYTES."""
        import torch
        step = max(1, LOGITS_BYTES.get(self._head_device.type, 1 << 28) // (4 * self.vocab_limit))
        for a in range(0, states.shape[0], step):
            h = states[a:a + step]
            rows = h.shape[0]
            if rows < MIN_HEAD_ROWS and self._head is not None:
                h = torch.cat([h, h.new_zeros(MIN_HEAD_ROWS - rows, h.shape[1])])
            logits = (h if self._head is None else self._head(h.float())).float()[:rows]
            if self._softcap is not None and self._head is not None:
                logits = torch.tanh(logits / self._softcap) * self._softcap
            yield a, logits[:, :self.vocab_limit]


# --- resolution --------------------------------------------------------------------------
def resolve_device(device: str, index: int | None = None):
    """The torch device for auto|cpu|cuda; `index` picks the GPU (a process's local rank)."""
    import torch
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise BenchError("--device cuda: no CUDA GPU is visible to torch; use --device cpu or auto")
    if device not in ("cpu", "cuda"):
        raise BenchError(f"--device {device}: choose auto, cpu or cuda")
    if device == "cuda" and index is not None:
        if index >= torch.cuda.device_count():
            raise BenchError(f"process {index} on this node has no GPU of its own ({torch.cuda.device_count()} "
                             "visible): start at most one process per GPU")
        torch.cuda.set_device(index)
        return torch.device("cuda", index)
    return torch.device(device)


DEVICE_MAPS = ("auto", "balanced", "balanced_low_0", "sequential")


def parse_max_memory(text: str | None) -> dict[str, str] | None:
    """`--max-memory 0=20GiB,1=20GiB,cpu=60GiB` -> {"0": "20GiB", "1": "20GiB", "cpu": "60GiB"}."""
    if not text:
        return None
    out = {}
    for part in text.split(","):
        dev, sep, size = part.strip().partition("=")
        if not sep or not dev.strip() or not size.strip():
            raise BenchError(f"--max-memory {text}: write DEVICE=SIZE pairs separated by commas, "
                             "e.g. 0=20GiB,1=20GiB,cpu=60GiB")
        out[dev.strip()] = size.strip()
    return out


def _accelerate_max_memory(max_memory: dict[str, str] | None) -> dict | None:
    if max_memory is None:
        return None
    return {int(k) if k.isdigit() else k: v for k, v in max_memory.items()}


def _offload_folder() -> str:
    """Where accelerate puts the weights that fit on no device (read back layer by layer);
    removed when this process ends."""
    import atexit
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="isole-offload-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _first_device(model, fallback):
    """Where inputs go under a device map: the device of the input embeddings."""
    import torch
    weight = model.get_input_embeddings().weight
    if weight.device.type != "meta":
        return weight.device
    for where in model.hf_device_map.values():
        if isinstance(where, int):
            return torch.device("cuda", where)
    return fallback


def _head_device(model, fallback):
    """Where the LM head's weights live (the last device of a device map)."""
    head = model.get_output_embeddings()
    weight = getattr(head, "weight", None)
    return weight.device if weight is not None and weight.device.type != "meta" else fallback


def resolve_dtype(dtype: str, device) -> str:
    import torch
    if dtype == "auto":
        return "bf16" if device.type == "cuda" and torch.cuda.is_bf16_supported() else "fp32"
    if dtype not in ("fp32", "bf16"):
        raise BenchError(f"--dtype {dtype}: choose auto, fp32 or bf16")
    return dtype


def _dir_hash(path: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(path)).encode())
        with open(f, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                h.update(block)
    return "sha256:" + h.hexdigest()[:16]


def _kind_from_config(config) -> str:
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES, MODEL_FOR_MASKED_LM_MAPPING_NAMES)
    archs = " ".join(getattr(config, "architectures", None) or [])
    if "MaskedLM" in archs:
        return "masked"
    if "CausalLM" in archs or "LMHeadModel" in archs:
        return "causal"
    if config.model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES and not getattr(config, "is_decoder", False):
        return "masked"
    if config.model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "causal"
    raise BenchError(f"cannot tell whether model type '{config.model_type}' is causal or masked")


def _offline_message(name: str, source: str, exc: Exception) -> str:
    reason = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
    return (f"cannot load model '{name}': tried the Hugging Face id '{source}' (local cache, then the hub) "
            f"and it is not cached and the hub cannot be reached or has no such model ({reason}). "
            f"Download it where a network is available (`hf download {source}`) and copy it, "
            "or pass a local directory: bench run --model /path/to/model_dir")


def resolve_source(name: str, log=print) -> tuple[str, str | None, bool]:
    """(where to load from, fixed revision or None, lowercase) for an alias, id or directory."""
    spec = lookup(name)
    if spec is not None and spec.alias in (GEMMA_ALIAS, SMOLLM2_ALIAS):
        folder = (gemma if spec.alias == GEMMA_ALIAS else smollm2).ensure_local(log=log)
        return str(folder), "gguf-sha256:" + gemma.source_info(folder)["gguf_sha256"][:16], False
    if spec is not None:
        return spec.hf_id, None, spec.lowercase
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise BenchError(f"{path}: a model directory needs config.json (and weights and tokenizer files)")
        return str(path), _dir_hash(path), False
    if path.exists() or name.startswith((".", "/", "~")) or name.count("/") > 1:
        raise BenchError(f"--model {name}: no such model directory (and not a registry alias; see `bench models`)")
    return name, None, False


def load(name: str, device: str = "auto", dtype: str = "auto", revision: str | None = None,
         log=print, device_index: int | None = None, device_map: str | dict | None = None,
         max_memory: dict[str, str] | None = None) -> LoadedModel:
    """`device_map` ("auto", "balanced", "sequential" or a module -> device dict) spreads a model
    too large for one device over the GPUs (then CPU memory) with accelerate, within
    `max_memory` per device; inputs go to the first device, scores come back from the last."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    if isinstance(device_map, str) and device_map not in DEVICE_MAPS:
        raise BenchError(f"--device-map {device_map}: choose one of {', '.join(DEVICE_MAPS)}")
    if max_memory and device_map is None:
        raise BenchError("--max-memory limits the devices of a device map: add --device-map auto")
    dev = resolve_device(device, None if device_map else device_index)
    dt = resolve_dtype(dtype, dev)
    source, fixed_rev, lowercase = resolve_source(name, log=log)
    kw = {"revision": revision} if revision else {}
    try:
        config = AutoConfig.from_pretrained(source, **kw)
        tokenizer = AutoTokenizer.from_pretrained(source, **kw)
        try:
            kind = _kind_from_config(config)
        except BenchError as exc:
            raise BenchError(f"{source}: {exc}") from None
        cls = AutoModelForMaskedLM if kind == "masked" else AutoModelForCausalLM
        torch_dtype = torch.bfloat16 if dt == "bf16" else torch.float32
        if device_map is not None:
            kw.update(device_map=device_map, max_memory=_accelerate_max_memory(max_memory),
                      offload_folder=_offload_folder())
        if Path(source).is_dir():
            _check_weights_match(Path(source), config, cls)
        model = cls.from_pretrained(source, dtype=torch_dtype, **kw)
    except BenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - a local folder's files are user input: one line, no traceback
        if Path(source).is_dir():
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            raise BenchError(f"cannot load the model in {source}: {first}") from None
        if not isinstance(exc, (OSError, ValueError, EnvironmentError)):
            raise
        raise BenchError(_offline_message(name, source, exc)) from None
    model.eval()
    placed = getattr(model, "hf_device_map", None) if device_map is not None else None
    if placed:
        dev = _first_device(model, dev)
    else:
        model.to(dev)
    if dev.type == "cuda" and dt == "bf16":
        torch.backends.cuda.matmul.allow_tf32 = True   # the fp32 LM head (a small share of the work)
    rev = fixed_rev or revision or getattr(config, "_commit_hash", None) or "unknown"
    out_vocab = model.get_output_embeddings().weight.shape[0] if model.get_output_embeddings() is not None \
        else config.vocab_size
    top_id = max(tokenizer.get_vocab().values(), default=-1)   # ids can have holes: the largest one counts
    spec = lookup(name)
    lm = LoadedModel(name=name, model_id=spec.hf_id if spec else source, revision=str(rev), kind=kind, model=model,
                     tokenizer=tokenizer, device=dev, dtype=dt, lowercase=lowercase,
                     vocab_limit=min(max(len(tokenizer), top_id + 1), out_vocab), device_map=placed and
                     {k: str(v) for k, v in placed.items()}, output_device=_head_device(model, dev))
    if len(tokenizer) > out_vocab or top_id >= out_vocab:
        raise BenchError(f"model '{name}': the tokenizer has {len(tokenizer)} entries (ids up to {top_id}) but the "
                         f"output layer only {out_vocab}: tokenizer and weights do not belong together")
    if kind == "causal":
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        lm.bos_id = bos
        lm.bos_token = tokenizer.convert_ids_to_tokens(bos) if bos is not None else None
    elif tokenizer.mask_token_id is None:
        raise BenchError(f"model '{name}' is a masked LM but its tokenizer has no mask token")
    _split(lm)
    return lm


def _check_weights_match(folder: Path, config, cls) -> None:
    """Refuse a config.json that does not describe the weights beside it (say, another
    architecture's config): transformers would build a randomly initialised model of the
    config's size, which for a large config takes minutes and tens of GB before any warning."""
    import torch
    from safetensors import safe_open
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        return
    present: set[str] = set()
    for f in files:
        with safe_open(str(f), framework="pt") as handle:
            present.update(handle.keys())
    with torch.device("meta"):
        expected = set(cls.from_config(config).state_dict())

    def tail(key: str) -> str:   # checkpoints differ in the base-model prefix
        return ".".join(key.split(".")[-3:])
    found = {tail(k) for k in present}
    matched = sum(tail(k) in found for k in expected)
    if expected and matched < 0.1 * len(expected):
        example = sorted(expected)[0]
        raise BenchError(f"{folder}: config.json (model type '{config.model_type}') does not describe the weights "
                         f"in {files[0].name}: {matched} of its {len(expected)} parameters are in the checkpoint "
                         f"(e.g. {example!r} is not); config.json may come from another model")


def _split(lm: LoadedModel) -> None:
    """Use body + head separately (head applied only where needed) when that reproduces the
    model's own logits on a probe; otherwise fall back to full logits."""
    import torch
    model = lm.model
    body = getattr(model, model.base_model_prefix, None)
    head = getattr(model, "cls", None) if lm.kind == "masked" else None
    head = head if head is not None else getattr(model, "lm_head", None)
    lm._softcap = getattr(getattr(model, "config", None), "final_logit_softcapping", None)
    lm._body, lm._head = model, None
    if body is None or head is None or body is model:
        lm.warnings.append("scoring through full logits (no separate LM head found)")
        return
    head32 = copy.deepcopy(head).float() if lm.dtype != "fp32" else head
    ids = lm.tokenizer(PROBE, add_special_tokens=True, return_tensors="pt")["input_ids"].to(lm.device)
    with torch.inference_mode():
        full = model(input_ids=ids).logits[0].float()[:, :lm.vocab_limit]
        h = body(input_ids=ids)[0][0]
        split = head32(h.float()).float()
        if lm._softcap is not None:
            split = torch.tanh(split / lm._softcap) * lm._softcap
        split = split[:, :lm.vocab_limit]
    tol = 1e-3 + (3e-2 if lm.dtype != "fp32" else 1e-4) * float(full.abs().max())
    if float((full - split).abs().max()) <= tol:
        lm._body, lm._head = body, head32
    else:
        lm.warnings.append("scoring through full logits (LM head split did not reproduce the logits)")


def threads_hint(threads: int | None = None, processes_per_node: int = 1) -> int:
    """CPU threads for intra-op parallelism: `threads`, or the cores shared out between the
    processes of this node (torch may pick fewer; torchrun sets one per process). Returns it."""
    import torch
    n = threads or max(1, (os.cpu_count() or 1) // max(1, processes_per_node))
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)
    return n
