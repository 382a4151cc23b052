"""`bench perf`: PLL throughput of this engine against minicons on the same model and sentences.

CPU: a BERT with a real vocabulary (4 layers x 256 hidden, 32k WordPiece vocabulary, random
weights). GPU: the shape of dbmdz BERT XXL (12 x 768, config vocabulary 32,102, tokenizer
31,102), random weights, bf16; reports sentences/s and model FLOP utilisation against the
GPU's dense bf16 peak. `--model` measures any model on the same sentences: a masked one here,
a causal one in perf_causal.py (prefix-shared path, per-sentence path and minicons)."""

from __future__ import annotations

import json
import random
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmark.errors import BenchError

# Dense bf16 tensor-core peaks (FLOP/s), by a substring of torch.cuda.get_device_name().
BF16_PEAK = (
    ("GH200", 989e12), ("H200", 989e12), ("H100 PCIe", 756e12), ("H100 NVL", 835e12), ("H100", 989e12),
    ("H800", 989e12), ("B200", 2250e12), ("A100", 312e12), ("A800", 312e12), ("L40S", 362e12),
    ("L40", 181e12), ("L4", 121e12), ("A10G", 70e12), ("A10", 125e12), ("A6000", 155e12),
    ("RTX 4090", 165e12), ("RTX 3090", 71e12), ("V100", 125e12), ("T4", 65e12),
)


@dataclass(frozen=True)
class BertShape:
    layers: int
    hidden: int
    heads: int
    ffn: int
    config_vocab: int
    tokenizer_vocab: int


CPU_SHAPE = BertShape(4, 256, 4, 1024, 32000, 32000)
GPU_SHAPE = BertShape(12, 768, 12, 3072, 32102, 31102)     # dbmdz/bert-base-italian-xxl-cased


def peak_flops(device_name: str) -> float | None:
    for key, value in BF16_PEAK:
        if key.lower() in device_name.lower():
            return value
    return None


def pll_flops(shape: BertShape, lengths: list[int]) -> float:
    """Model FLOPs of PLL over sentences of these token lengths: each sentence of L tokens
    (specials included) is L-2 forward passes of the encoder plus the MLM head at one position."""
    d, f = shape.hidden, shape.ffn
    total = 0.0
    for L in lengths:
        rows = L - 2
        encoder = shape.layers * (2 * L * (4 * d * d + 2 * d * f) + 4 * L * L * d)
        head = 2 * (d * d + d * shape.config_vocab)
        total += rows * (encoder + head)
    return total


# --- sentences ---------------------------------------------------------------------------
_SUBJ = ["Gianni", "Maria", "il professore", "la ragazza", "l'avvocato", "mio fratello", "Paolo", "la nonna",
         "il sindaco", "Giulia", "lo studente", "la dottoressa", "il giornalista", "Luca", "la maestra"]
_VERB = ["abbia riscosso", "abbia letto", "abbia firmato", "abbia comprato", "abbia venduto", "abbia scritto",
         "abbia dimenticato", "abbia portato", "abbia ricevuto", "abbia spedito"]
_OBJ = ["il pagamento", "la lettera", "il contratto", "il libro", "la macchina", "il regalo", "la casa",
        "il quadro", "la relazione", "il biglietto"]
_FRAME = ["Chi pensa che {s} {v} {o}?", "Cosa pensa che {s} {v}?", "Chi si domanda se {s} {v} {o}?",
          "Cosa si domanda se {s} {v}?", "Chi è partito dopo che {s} {v} {o}?", "Cosa è partito dopo che {s} {v}?",
          "Chi ha sentito la notizia che {s} {v} {o}?", "Cosa ha sentito la notizia che {s} {v}?"]


def italian_sentences(n: int, seed: int = 0) -> list[str]:
    """n distinct island-style Italian sentences, the same for a given n and seed."""
    rng, out, seen = random.Random(seed), [], set()
    while len(out) < n:
        s = rng.choice(_FRAME).format(s=rng.choice(_SUBJ), v=rng.choice(_VERB), o=rng.choice(_OBJ))
        if s not in seen or len(seen) >= len(_FRAME) * len(_SUBJ) * len(_VERB) * len(_OBJ):
            seen.add(s)
            out.append(s)
    return out


def suite_sentences(path: Path | None) -> list[str]:
    from benchmark.suite import read_suite
    suite = read_suite(path)
    return sorted({sent.text for _, _, sent in suite.sentences()})


def sample_sentences(path: Path | None, n: int) -> list[str]:
    """About n distinct sentences of a stratified sample of the suite (as the main job scores
    on a CPU); built-in sentences when the suite does not exist yet."""
    from benchmark.runner import sample_suite
    from benchmark.suite import read_suite
    try:
        suite = read_suite(path)
    except BenchError:
        if path is not None:
            raise
        return italian_sentences(n)
    per_paradigm = -(-n // (4 * len(suite.paradigms)))
    sample = sample_suite(suite, per_paradigm, seed=0)
    return sorted({sent.text for _, _, sent in sample.sentences()})[:n]


# --- the model ---------------------------------------------------------------------------
def build_bert(out: Path, shape: BertShape, seed: int = 0) -> Path:
    """A randomly initialised BERT with a WordPiece vocabulary of real size: the most frequent
    Italian words (wordfreq) after the characters and their ## continuations."""
    import torch
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForMaskedLM
    from wordfreq import top_n_list

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZàèéìíòóùÀÈÉÌÒÙ0123456789'’?.,;:!\"()-"))
    vocab = specials + chars + ["##" + c for c in chars]
    seen = set(vocab)
    for w in top_n_list("it", 3 * shape.tokenizer_vocab):
        for cand in (w, w.capitalize()):
            if len(vocab) < shape.tokenizer_vocab and cand not in seen:
                vocab.append(cand)
                seen.add(cand)
    tok = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=False, strip_accents=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tok.decoder = decoders.WordPiece()
    out.mkdir(parents=True, exist_ok=True)
    tok.save(str(out / "tokenizer.json"))
    (out / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 512, "unk_token": "[UNK]",
        "pad_token": "[PAD]", "cls_token": "[CLS]", "sep_token": "[SEP]", "mask_token": "[MASK]"}))
    torch.manual_seed(seed)
    model = BertForMaskedLM(BertConfig(vocab_size=shape.config_vocab, hidden_size=shape.hidden,
                                       num_hidden_layers=shape.layers, num_attention_heads=shape.heads,
                                       intermediate_size=shape.ffn, max_position_embeddings=512))
    model.save_pretrained(out)
    return out


# --- measurements ------------------------------------------------------------------------
@dataclass
class Measured:
    seconds: float
    scores: list[list[float]]


def ours(model_dir: str, sentences: list[str], device: str, dtype: str, scorer_name: str,
         token_budget: int | None, repeat: int = 1):
    from benchmark import loading
    from benchmark.records import SentenceInput
    from benchmark.runner import make_scorer
    lm = loading.load(model_dir, device, dtype, log=lambda *_: None)
    scorer = make_scorer(lm, scorer_name, token_budget)
    inputs = [SentenceInput(s, ()) for s in sentences]
    scorer.score(inputs[:32], lambda pairs: None)                    # warm-up
    _sync(lm.device)
    got: dict = {}
    times = []
    for _ in range(repeat):                 # the best of `repeat`: a shared machine only slows down
        t0 = time.perf_counter()
        scorer.score(inputs, lambda pairs: got.update(pairs))
        _sync(lm.device)
        times.append(time.perf_counter() - t0)
    return lm, Measured(min(times), [list(got[s].logprobs) for s in inputs])


def _sync(device) -> None:
    if device.type == "cuda":
        import torch
        torch.cuda.synchronize()


def minicons(oracle_python: Path, model_dir: str, sentences: list[str], device: str, dtype: str,
             batch_size: int, repeat: int = 1, threads: int | None = None, kind: str = "masked") -> Measured:
    script = Path(__file__).resolve().parent.parent / "scripts" / "minicons_oracle.py"
    with tempfile.TemporaryDirectory() as tmp:
        sent_file, out_file = Path(tmp) / "s.json", Path(tmp) / "o.json"
        sent_file.write_text(json.dumps(sentences, ensure_ascii=False), encoding="utf-8")
        cmd = [str(oracle_python), str(script), "perf", "--model", model_dir, "--sentences", str(sent_file),
               "--out", str(out_file), "--device", device, "--batch-size", str(batch_size), "--dtype", dtype,
               "--repeat", str(repeat), "--kind", kind] + (["--threads", str(threads)] if threads else [])
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise BenchError(f"the minicons side failed ({oracle_python}): {tail}")
        data = json.loads(out_file.read_text(encoding="utf-8"))
    return Measured(data["seconds"], data["scores"])


# --- CPU speed: what each change gives, measured A/B in interleaved rounds ----------------
@dataclass(frozen=True)
class CpuVariant:
    label: str
    threads: int
    compiled: bool


def cpu_variants() -> list[CpuVariant]:
    import os
    cores = os.cpu_count() or 1
    out = [CpuVariant(f"eager, {cores} threads (the default)", cores, False)]
    if cores > 1:
        out.append(CpuVariant("eager, 1 thread", 1, False))
    out.append(CpuVariant(f"torch.compile of the model body (--compile), {cores} threads", cores, True))
    return out


def measure_cpu_variants(model: str, sentences: list[str], repeat: int = 2, log=print) -> list[dict]:
    """Sentences/s of each CPU variant on the same model and sentences; the variants take turns
    in every round (a shared machine's load then hits them alike) and the best round counts.
    A warm-up on 16 sentences (for a compiled variant, the compilation) is timed apart."""
    import torch

    from benchmark import loading
    from benchmark.records import SentenceInput
    from benchmark.runner import make_scorer
    lm = loading.load(model, "cpu", "fp32", log=lambda *_: None)
    eager_body = lm._body
    scorer = make_scorer(lm, "auto", None)
    inputs = [SentenceInput(s, ()) for s in sentences]
    variants = cpu_variants()
    bodies, rows = {}, {v.label: {"variant": v.label, "seconds": []} for v in variants}

    def use(v: CpuVariant) -> None:
        torch.set_num_threads(v.threads)
        if v.compiled and v.label not in bodies:
            bodies[v.label] = torch.compile(eager_body, dynamic=True)
        lm._body = bodies.get(v.label, eager_body)

    for v in variants:                     # warm-up on a few sentences (and compilation)
        use(v)
        t0 = time.perf_counter()
        scorer.score(inputs[:16], lambda pairs: None)
        rows[v.label]["first_pass_s"] = round(time.perf_counter() - t0, 1)
    reference: dict = {}
    for rnd in range(repeat):
        for v in variants:
            use(v)
            got: dict = {}
            t0 = time.perf_counter()
            scorer.score(inputs, got.update)
            seconds = time.perf_counter() - t0
            rows[v.label]["seconds"].append(seconds)
            if rnd == 0:
                reference = reference or got
                rows[v.label]["max_abs_diff"] = max((abs(a - b) for s in inputs
                                                     for a, b in zip(got[s].logprobs, reference[s].logprobs)),
                                                    default=0.0)
            log(f"  round {rnd + 1}, {v.label}: {seconds:.1f} s")
    lm._body = eager_body
    base = min(rows[variants[0].label]["seconds"])
    out = []
    for v in variants:
        r = rows[v.label]
        best = min(r["seconds"])
        out.append({**r, "best_s": round(best, 2), "sentences_per_s": round(len(inputs) / best, 2),
                    "speedup": round(base / best, 2)})
    log(f"| variant | sentences/s | vs default | warm-up on 16 sentences (s) | max abs diff per token |")
    log("| --- | ---: | ---: | ---: | ---: |")
    for r in out:
        log(f"| {r['variant']} | {r['sentences_per_s']:.2f} | {r['speedup']:.2f}x | {r['first_pass_s']} | "
            f"{r['max_abs_diff']:.1e} |")
    return out


def main(device: str = "cpu", oracle_python: Path | None = None, n_sentences: int | None = None,
         suite: Path | None = None, token_budget: int | None = None, model: str | None = None,
         repeat: int = 3, threads: int | None = None, log=print) -> dict:
    import torch
    if threads:
        torch.set_num_threads(threads)
    if device == "cuda" and not torch.cuda.is_available():
        raise BenchError("bench perf --device cuda: no CUDA GPU is visible to torch")
    gpu = device == "cuda"
    if suite is not None or (gpu and n_sentences is None):
        try:
            sentences = suite_sentences(suite)
        except BenchError:
            if suite is not None:
                raise
            sentences = italian_sentences(20000)
    else:
        sentences = italian_sentences(n_sentences or 300)
    if n_sentences:
        sentences = sentences[:n_sentences]
    dtype = "bf16" if gpu else "fp32"
    shape = GPU_SHAPE if gpu else CPU_SHAPE
    report: dict = {"device": device, "n_sentences": len(sentences), "threads": torch.get_num_threads()}
    with tempfile.TemporaryDirectory() as tmp:
        if model is None:
            model_dir = str(build_bert(Path(tmp) / "bert", shape))
            report["model"] = f"random BERT {shape.layers}x{shape.hidden}, vocab {shape.config_vocab}"
        else:
            model_dir = model
            report["model"] = model
        lm, mine = ours(model_dir, sentences, device, dtype, "auto" if model else "pll", token_budget, repeat)
        n_tok = sum(len(s) for s in mine.scores)
        report.update(ours_seconds=round(mine.seconds, 3), ours_sentences_per_s=round(len(sentences) / mine.seconds, 2),
                      ours_tokens_per_s=round(n_tok / mine.seconds, 1), dtype=lm.dtype)
        log(f"{report['model']} on {device} ({lm.dtype}, {report['threads']} threads), {len(sentences)} sentences, "
            f"{n_tok} scored tokens")
        log(f"  ours:     {mine.seconds:8.2f} s (best of {repeat})  {len(sentences) / mine.seconds:9.1f} sentences/s")
        if gpu and model is None:
            name = torch.cuda.get_device_name()
            lengths = [len(lm.tokenizer(s)["input_ids"]) for s in sentences]
            flops = pll_flops(shape, lengths)
            peak = peak_flops(name)
            report.update(gpu=name, model_tflops=round(flops / mine.seconds / 1e12, 2),
                          bf16_peak_tflops=peak and peak / 1e12,
                          mfu=round(flops / mine.seconds / peak, 4) if peak else None)
            log(f"  {name}: {flops / mine.seconds / 1e12:.1f} TFLOP/s of model FLOPs"
                + (f" = {100 * flops / mine.seconds / peak:.1f}% of the {peak / 1e12:.0f} TFLOP/s bf16 peak" if peak else
                   " (no bf16 peak known for this GPU)"))
        if oracle_python is not None and lm.kind == "masked":
            theirs = minicons(oracle_python, model_dir, sentences, device, dtype, 64 if gpu else 16, repeat,
                              torch.get_num_threads())
            diff = max(abs(a - b) for x, y in zip(mine.scores, theirs.scores) for a, b in zip(x, y))
            sent_diff = max(abs(sum(x) - sum(y)) for x, y in zip(mine.scores, theirs.scores))
            same_len = all(len(x) == len(y) for x, y in zip(mine.scores, theirs.scores))
            report.update(minicons_seconds=round(theirs.seconds, 3),
                          minicons_sentences_per_s=round(len(sentences) / theirs.seconds, 2),
                          speedup=round(theirs.seconds / mine.seconds, 2), max_abs_token_diff=diff,
                          max_abs_sentence_diff=sent_diff, same_tokens=same_len)
            log(f"  minicons: {theirs.seconds:8.2f} s (best of {repeat})  {len(sentences) / theirs.seconds:9.1f} sentences/s")
            log(f"  speed-up {theirs.seconds / mine.seconds:.2f}x; max |difference| per token {diff:.2e}, "
                f"per sentence PLL {sent_diff:.2e}")
    return report
