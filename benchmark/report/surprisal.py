"""Token-surprisal plots: for one item, the four sentences stacked, one bar per token (bits),
regions shaded, the title giving DD and the length / structure / total effects."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .errors import ReportError
from .load import ABBREV, CONDITIONS, Run, paradigm_label

REGION_COLOURS = ("#e8eef7", "#f7f1e3")


@dataclass(frozen=True)
class ItemEffects:
    item_id: str
    paradigm: str
    measure: str
    DD: float
    length: float
    structure: float
    total: float


def choose_items(run: Run, measure: str, asked: tuple[str, ...], n_extreme: int) -> list[str]:
    """The items asked for, or the n lowest-DD and n highest-DD items (ties by item id)."""
    items = run.measure_items(measure)
    if asked:
        unknown = [i for i in asked if i not in set(items["item_id"])]
        if unknown:
            raise ReportError(f"{run.path}: unknown item id(s) {', '.join(unknown)}")
        return list(dict.fromkeys(asked))
    if n_extreme <= 0 or items.empty:
        return []
    ranked = items.sort_values(["DD", "item_id"], kind="mergesort")["item_id"].tolist()
    chosen = ranked[:n_extreme] + ranked[-n_extreme:]
    return list(dict.fromkeys(chosen))


def effects(run: Run, measure: str, item_id: str) -> ItemEffects:
    row = run.measure_items(measure).set_index("item_id").loc[item_id]
    return ItemEffects(item_id, str(row["paradigm"]), measure, float(row["DD"]), float(row["length"]),
                       float(row["structure"]), float(row["total"]))


def surprisal_data(run: Run, item_ids: list[str]) -> pd.DataFrame:
    """One row per token: item, condition, token index and text, surprisal in bits, region."""
    tokens = run.tokens(item_ids).dropna(subset=["logprob"])
    regions = run.regions(item_ids)
    texts = run.sentences.set_index(["item_id", "condition"])["text"] if "text" in run.sentences else None
    frames = []
    groups = dict(tuple(tokens.groupby(["item_id", "condition"], sort=False)))
    for item_id, cond in ((i, c) for i in item_ids for c in CONDITIONS):
        if (item_id, cond) not in groups:
            continue
        toks = groups[item_id, cond].sort_values("token_index")
        text = texts.get((item_id, cond)) if texts is not None else None
        starts, ends = toks["char_start"].to_numpy(), toks["char_end"].to_numpy()
        shown = [_token_text(text, tok, s, e) for tok, s, e in zip(toks["token"], starts, ends)]
        regs = regions[(regions["item_id"] == item_id) & (regions["condition"] == cond)]
        frames.append(pd.DataFrame({
            "item_id": item_id, "condition": cond, "token_index": toks["token_index"].to_numpy(),
            "token": shown, "bits": -toks["logprob"].to_numpy(dtype=float) / math.log(2),
            "region": [_region_of(regs, s, e) for s, e in zip(starts, ends)],
        }))
    columns = ["item_id", "condition", "token_index", "token", "bits", "region"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def plot_item(data: pd.DataFrame, fx: ItemEffects, model: str, measure_label: str, stem: Path) -> list[Path]:
    from .figures import save, style

    rows = data[data["item_id"] == fx.item_id]
    with style() as plt:
        fig, axes = plt.subplots(4, 1, figsize=(8, 7.2), sharey=True)
        top = max(float(rows["bits"].max()) if len(rows) else 1.0, 1.0) * 1.18
        for ax, cond in zip(axes, CONDITIONS):
            sent = rows[rows["condition"] == cond].sort_values("token_index")
            x = np.arange(len(sent))
            _shade_regions(ax, sent["region"].tolist(), top)
            colour = "#c0392b" if cond == "long_island" else "#1f5fa8"
            ax.bar(x, sent["bits"], color=colour, width=0.7)
            ax.set_xticks(x, sent["token"].tolist(), rotation=0, fontsize=8)
            ax.set_xlim(-0.6, max(len(sent), 1) - 0.4)
            ax.set_ylim(0, top)
            ax.set_ylabel(f"{ABBREV[cond]}\nbits")
        fig.suptitle(f"{fx.item_id}: {paradigm_label(fx.paradigm)}, {model}\n"
                     f"DD {fx.DD:+.2f}   length {fx.length:+.2f}   structure {fx.structure:+.2f}   "
                     f"total {fx.total:+.2f}   ({measure_label}, nats)")
        fig.subplots_adjust(left=0.09, right=0.98, bottom=0.05, top=0.88, hspace=0.45)
        return save(fig, stem)


def region_runs(regions: list[str]) -> list[tuple[str, int, int]]:
    """Consecutive tokens of one region as (name, first index, last index)."""
    runs: list[tuple[str, int, int]] = []
    for k, name in enumerate(regions):
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1], k)
        else:
            runs.append((name, k, k))
    return runs


def _shade_regions(ax, regions: list[str], top: float) -> None:
    for k, (name, first, last) in enumerate(region_runs(regions)):
        if not name:
            continue
        ax.axvspan(first - 0.5, last + 0.5, color=REGION_COLOURS[k % 2], lw=0, zorder=0)
        ax.text((first + last) / 2, top * 0.97, short_region(name, last - first + 1), ha="center",
                va="top", fontsize=7, color="#555555", clip_on=True)


def short_region(name: str, n_tokens: int) -> str:
    """The region name, cut to fit over its tokens ('complementizer' over one token: 'compl.')."""
    room = 7 * n_tokens
    return name if len(name) <= room else name[: max(room - 2, 2)] + "."


def _token_text(text, token: str, start, end) -> str:
    if isinstance(text, str) and 0 <= start < end <= len(text):
        return text[int(start):int(end)]
    return str(token).replace("Ġ", " ").replace("▁", " ").strip() or str(token)


def _region_of(regions: pd.DataFrame, start: int, end: int) -> str:
    for name, s, e in zip(regions["region"], regions["char_start"], regions["char_end"]):
        if s <= start and end <= e and e > s:
            return str(name)
    for name, s, e in zip(regions["region"], regions["char_start"], regions["char_end"]):
        if s < end and start < e:  # partial overlap: the region where the token starts
            return str(name)
    return ""
