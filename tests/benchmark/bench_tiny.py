"""Tiny randomly initialised BERT, RoBERTa and GPT-2 models with tokenizers trained on the fly
(the `tokenizers` library), saved as ordinary model directories.

`python tests/benchmark/bench_tiny.py DIR` writes them to DIR; the copies committed under
tests/benchmark/data/tiny/ were written this way and are the ones the minicons golden values
were computed on (scripts/minicons_oracle.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

CORPUS = [
    "Chi pensa che Gianni abbia riscosso il pagamento?",
    "Cosa pensa che Gianni abbia riscosso?",
    "Chi si domanda se Gianni abbia riscosso il pagamento?",
    "Cosa si domanda se Gianni abbia riscosso?",
    "Il gatto dorme sul divano.",
    "Maria crede che l'avvocato abbia firmato il contratto.",
    "Quale libro hai letto prima di partire per Roma?",
    "Luca è partito perché la nonna stava male.",
    "Dove hai messo le chiavi della macchina?",
    "La ragazza che ha vinto la gara è mia sorella.",
    "Non so perché Paolo sia arrivato così tardi.",
    "Chi ha detto che il treno era già partito?",
    "Gli studenti hanno ascoltato la lezione del professore.",
    "Che cosa ti ha raccontato l'amica di Giulia?",
    "Il sindaco ha inaugurato la nuova biblioteca comunale.",
    "Perché non mi hai chiamato ieri sera?",
]

SPECIALS_BERT = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
SPECIALS_ROBERTA = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
EOT = "<|endoftext|>"


def _corpus() -> list[str]:
    return CORPUS * 4 + [s.lower() for s in CORPUS]


def _save_tokenizer(tok, out: Path, config: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tok.save(str(out / "tokenizer.json"))
    # a config both transformers 4 and 5 read: the generic fast tokenizer class
    (out / "tokenizer_config.json").write_text(json.dumps(
        {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 60, **config}, indent=1) + "\n")


def bert_tokenizer(out: Path) -> None:
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=False, strip_accents=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(_corpus(), trainers.WordPieceTrainer(vocab_size=220, special_tokens=SPECIALS_BERT))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    tok.decoder = decoders.WordPiece()
    _save_tokenizer(tok, out, {"unk_token": "[UNK]", "pad_token": "[PAD]", "cls_token": "[CLS]",
                               "sep_token": "[SEP]", "mask_token": "[MASK]"})


def _bpe(specials: list[str], vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(_corpus(), trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return tok


def roberta_tokenizer(out: Path) -> None:
    from tokenizers import processors
    tok = _bpe(SPECIALS_ROBERTA, 340)
    tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")),
                                                      trim_offsets=True, add_prefix_space=False)
    _save_tokenizer(tok, out, {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>",
                               "cls_token": "<s>", "sep_token": "</s>", "mask_token": "<mask>"})


def gpt2_tokenizer(out: Path) -> None:
    from tokenizers import processors
    tok = _bpe([EOT], 340)
    tok.post_processor = processors.ByteLevel(trim_offsets=True)
    _save_tokenizer(tok, out, {"bos_token": EOT, "eos_token": EOT, "unk_token": EOT})


def build(root: Path) -> dict[str, Path]:
    """Writes bert/, roberta/ and gpt2/ under `root`; deterministic for a given torch version."""
    import torch
    from transformers import (AutoTokenizer, BertConfig, BertForMaskedLM, GPT2Config, GPT2LMHeadModel,
                              RobertaConfig, RobertaForMaskedLM)
    root = Path(root)
    small = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 initializer_range=0.3)
    out = {}
    for name, make_tok in (("bert", bert_tokenizer), ("roberta", roberta_tokenizer), ("gpt2", gpt2_tokenizer)):
        d = root / name
        make_tok(d)
        vocab = len(AutoTokenizer.from_pretrained(d))
        torch.manual_seed(0)
        if name == "bert":
            model = BertForMaskedLM(BertConfig(vocab_size=vocab, max_position_embeddings=64, **small))
        elif name == "roberta":
            model = RobertaForMaskedLM(RobertaConfig(vocab_size=vocab, max_position_embeddings=66, pad_token_id=1,
                                                     bos_token_id=0, eos_token_id=2, type_vocab_size=1, **small))
        else:
            model = GPT2LMHeadModel(GPT2Config(vocab_size=vocab, n_positions=64, n_embd=32, n_layer=2, n_head=2,
                                               initializer_range=0.3, bos_token_id=0, eos_token_id=0))
        model.save_pretrained(d)
        out[name] = d
    return out


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
