"""Scores sentences with minicons, the reference implementation the benchmark is checked against.

Runs in an environment of its own (minicons' masked scorer needs transformers 4.x):

    python3.11 -m venv .venv-oracle
    .venv-oracle/bin/pip install torch==2.13.0          # first: the CPU wheel
    .venv-oracle/bin/pip install "transformers<5" minicons

Modes:
  golden  scores the committed tiny test models on tests/benchmark/data/oracle_sentences.json
          and writes tests/benchmark/data/minicons_golden.json
  perf    scores --sentences FILE (JSON list of strings) with --model DIR (--kind masked: PLL,
          original; --kind causal: LP after the BOS) and writes {"seconds", "scores" (per
          sentence, per token)} to --out (used by `bench perf`)

For a causal model whose folder was saved by transformers 5 (the converted Gemma 3 270M), use an
environment with transformers 5 as well (transformers 4.x misreads such a folder):

    python3.11 -m venv .venv-oracle5
    .venv-oracle5/bin/pip install torch==2.13.0
    .venv-oracle5/bin/pip install "transformers>=5,<6" minicons
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "benchmark" / "data"


def golden() -> None:
    import minicons
    import torch
    import transformers
    from minicons import scorer

    torch.set_num_threads(1)
    sentences = json.loads((DATA / "oracle_sentences.json").read_text(encoding="utf-8"))
    out = {"minicons": getattr(minicons, "__version__", "unknown"), "transformers": transformers.__version__,
           "torch": torch.__version__, "models": {}}
    for name in ("bert", "roberta"):
        s = scorer.MaskedLMScorer(str(DATA / "tiny" / name), device="cpu")
        out["models"][name] = {
            metric: s.compute_stats(s.prepare_text(sentences["masked"], PLL_metric=metric))
            for metric in ("original", "within_word_l2r")}
    s = scorer.IncrementalLMScorer(str(DATA / "tiny" / "gpt2"), device="cpu")
    out["models"]["gpt2"] = {"lp": s.compute_stats(s.prepare_text(sentences["causal"], bos_token=True))}
    (DATA / "minicons_golden.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print("wrote", DATA / "minicons_golden.json")


def perf(model: str, sentences_file: str, out_file: str, device: str, batch_size: int, dtype: str,
         repeat: int, threads: int | None, kind: str = "masked") -> None:
    import torch
    from minicons import scorer

    if threads:
        torch.set_num_threads(threads)
    sentences = json.loads(Path(sentences_file).read_text(encoding="utf-8"))
    kw = {"torch_dtype": torch.bfloat16} if dtype == "bf16" else {}
    if kind == "causal":
        s = scorer.IncrementalLMScorer(model, device=device, **kw)
        # The BOS goes in once: as text where the tokenizer adds none itself (GPT-2), else by
        # the tokenizer (Gemma), as `bos_token=True` would then give two.
        own_bos = s.tokenizer("a")["input_ids"][0] == s.tokenizer.bos_token_id
        prepare = lambda batch: s.prepare_text(batch, bos_token=not own_bos)  # noqa: E731
    else:
        s = scorer.MaskedLMScorer(model, device=device, **kw)
        prepare = s.prepare_text
    s.compute_stats(prepare(sentences[:2]))          # warm-up
    times = []
    for _ in range(repeat):                 # the best of `repeat`, as on the other side
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        scores = []
        for a in range(0, len(sentences), batch_size):
            scores += s.compute_stats(prepare(sentences[a:a + batch_size]))
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    seconds = min(times)
    Path(out_file).write_text(json.dumps({"seconds": seconds, "scores": scores}), encoding="utf-8")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["golden", "perf"])
    ap.add_argument("--model")
    ap.add_argument("--sentences")
    ap.add_argument("--out")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--dtype", default="fp32")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--kind", choices=["masked", "causal"], default="masked")
    args = ap.parse_args()
    if args.mode == "golden":
        golden()
    else:
        perf(args.model, args.sentences, args.out, args.device, args.batch_size, args.dtype, args.repeat, args.threads,
             args.kind)
