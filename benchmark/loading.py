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

from benchmark import gemma
from benchmark.errors import BenchError
from benchmark.registry import GEMMA_ALIAS, lookup

PROBE = "Il gatto dorme sul divano."
LOGITS_BYTES = {"cpu": 1 << 28, "cuda": 1 << 31}   # fp32 logits alive at once: 256 MB CPU, 2 GB GPU


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
    _body: Any = None
    _head: Any = None        # None: the body already returns logits
    _softcap: float | None = None

    # --- the two calls the scorers use -------------------------------------------------
    def hidden(self, ids):
        """Last hidden states (B, L, H) of a batch without padding (logits when not split)."""
        out = self._body(input_ids=ids)
        return out.logits if self._head is None else out[0]

    def logprobs(self, states, targets):
        """fp32 log P(target) from hidden states (N, H) at the scored positions (N,)."""
        import torch
        step = max(1, LOGITS_BYTES.get(self.device.type, 1 << 28) // (4 * self.vocab_limit))
        out = []
        for a in range(0, states.shape[0], step):
            h = states[a:a + step]
            logits = (h if self._head is None else self._head(h.float())).float()
            if self._softcap is not None and self._head is not None:
                logits = torch.tanh(logits / self._softcap) * self._softcap
            logits = logits[:, :self.vocab_limit]
            t = targets[a:a + step]
            out.append(logits.gather(1, t[:, None]).squeeze(1) - torch.logsumexp(logits, dim=-1))
        return torch.cat(out)


# --- resolution --------------------------------------------------------------------------
def resolve_device(device: str):
    import torch
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise BenchError("--device cuda: no CUDA GPU is visible to torch; use --device cpu or auto")
    if device not in ("cpu", "cuda"):
        raise BenchError(f"--device {device}: choose auto, cpu or cuda")
    return torch.device(device)


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
    if spec is not None and spec.alias == GEMMA_ALIAS:
        folder = gemma.ensure_local(log=log)
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
         log=print) -> LoadedModel:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    dev = resolve_device(device)
    dt = resolve_dtype(dtype, dev)
    source, fixed_rev, lowercase = resolve_source(name, log=log)
    kw = {"revision": revision} if revision else {}
    try:
        config = AutoConfig.from_pretrained(source, **kw)
        tokenizer = AutoTokenizer.from_pretrained(source, **kw)
        kind = _kind_from_config(config)
        cls = AutoModelForMaskedLM if kind == "masked" else AutoModelForCausalLM
        torch_dtype = torch.bfloat16 if dt == "bf16" else torch.float32
        model = cls.from_pretrained(source, dtype=torch_dtype, **kw)
    except BenchError:
        raise
    except (OSError, ValueError, EnvironmentError) as exc:
        if Path(source).is_dir():
            raise BenchError(f"cannot load the model in {source}: {str(exc).splitlines()[0][:200]}") from None
        raise BenchError(_offline_message(name, source, exc)) from None
    model.eval().to(dev)
    if dev.type == "cuda" and dt == "bf16":
        torch.backends.cuda.matmul.allow_tf32 = True   # the fp32 LM head (a small share of the work)
    rev = fixed_rev or revision or getattr(config, "_commit_hash", None) or "unknown"
    out_vocab = model.get_output_embeddings().weight.shape[0] if model.get_output_embeddings() is not None \
        else config.vocab_size
    spec = lookup(name)
    lm = LoadedModel(name=name, model_id=spec.hf_id if spec else source, revision=str(rev), kind=kind, model=model,
                     tokenizer=tokenizer, device=dev, dtype=dt, lowercase=lowercase,
                     vocab_limit=min(len(tokenizer), out_vocab))
    if len(tokenizer) > out_vocab:
        raise BenchError(f"model '{name}': the tokenizer has {len(tokenizer)} entries but the output layer "
                         f"only {out_vocab}: tokenizer and weights do not belong together")
    if kind == "causal":
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        lm.bos_id = bos
        lm.bos_token = tokenizer.convert_ids_to_tokens(bos) if bos is not None else None
    elif tokenizer.mask_token_id is None:
        raise BenchError(f"model '{name}' is a masked LM but its tokenizer has no mask token")
    _split(lm)
    return lm


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


def threads_hint() -> None:
    """Use every core for intra-op parallelism on CPU (torch may pick fewer)."""
    import torch
    n = os.cpu_count() or 1
    if torch.get_num_threads() < n:
        torch.set_num_threads(n)
