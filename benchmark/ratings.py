"""Human acceptability ratings beside model scores (METRICS.md, "For human-comparable plots").

Ratings file (CSV, `,` or `;` separated, UTF-8): one row per judgment with at least
`participant`, `item_id`, `condition` and `rating` (any numeric scale; the lists written by
`gen export --format ratings` use 1-7); `paradigm` is read when present, otherwise taken
from the item id (`whether_island-00042` -> whether_island). Rows with an empty rating are
skipped (unanswered trials). Fillers and any other condition count for z-scoring but not
in the tables.

- Each participant's ratings are z-scored over all of that participant's ratings (sample
  standard deviation); a participant with fewer than two ratings or no variation is
  dropped and named in summary.json.
- Each model run (`results/<suite>/<run>/sentences.csv`) contributes one measure (LP by
  default): its scores over all paradigms are binned into 7 equal-width bins, and the bin
  numbers z-scored, so model and humans share a scale.
- Per paradigm, source and condition: mean of the per-unit means (unit = participant for
  humans, item for models) and its standard error; DD = z(LN) + z(SI) - z(SN) - z(LI), with
  its standard error over the units that saw all four conditions.
- One interaction plot per paradigm: a panel per source (humans first), x short/long,
  solid line non-island, dashed line island, standard-error bars."""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from suite_format import ISLAND

CONDITIONS = ISLAND.conditions  # ratings are compared on the island design only
REQUIRED = ("participant", "item_id", "condition", "rating")
HUMANS = "humans"
BINS = 7
MEASURES = ("LP", "MeanLP", "PenLP", "SLOR")


class RatingsError(ValueError):
    """Bad ratings or run input; the message names the file (and line)."""


@dataclass
class Units:
    """z-scores of one source: rows of (unit, paradigm, item_id, condition, z)."""
    source: str
    rows: list[tuple[str, str, str, str, float]]
    notes: list[str] = field(default_factory=list)


# ---- reading ------------------------------------------------------------------------------

def _read_csv(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    path = Path(path)
    if not path.is_file():
        raise RatingsError(f"{path}: file not found")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RatingsError(f"{path}: not UTF-8 text") from exc
    lines = text.splitlines()
    if not lines:
        raise RatingsError(f"{path}: empty file")
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(lines, delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader)]
    rows = []
    for line_no, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise RatingsError(f"{path}:{line_no}: {len(cells)} columns, the header has {len(header)}")
        rows.append((line_no, {h: c.strip() for h, c in zip(header, cells)}))
    return header, rows


def read_ratings(path: Path) -> Units:
    """Human ratings, z-scored per participant."""
    header, rows = _read_csv(path)
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise RatingsError(f"{path}:1: missing column(s) {', '.join(missing)} "
                           f"(need {', '.join(REQUIRED)}; paradigm optional)")
    by_participant: dict[str, list[tuple[str, str, str, float]]] = {}
    skipped = 0
    for line_no, row in rows:
        if not row["rating"]:
            skipped += 1
            continue
        try:
            rating = float(row["rating"].replace(",", "."))
        except ValueError:
            raise RatingsError(f"{path}:{line_no}: rating {row['rating']!r} is not a number") from None
        if not math.isfinite(rating):
            raise RatingsError(f"{path}:{line_no}: rating {row['rating']!r} is not a number")
        if not row["participant"] or not row["item_id"]:
            raise RatingsError(f"{path}:{line_no}: empty participant or item_id")
        condition = row["condition"].strip().lower().replace(" ", "_").replace("-", "_")
        paradigm = row.get("paradigm") or row["item_id"].rsplit("-", 1)[0]
        by_participant.setdefault(row["participant"], []).append((paradigm, row["item_id"], condition, rating))
    units = Units(HUMANS, [])
    if skipped:
        units.notes.append(f"{skipped} rows without a rating skipped")
    for participant in sorted(by_participant):
        values = by_participant[participant]
        z = zscores([v[3] for v in values])
        if z is None:
            units.notes.append(f"participant {participant} dropped: fewer than two ratings or no variation")
            continue
        units.rows += [(participant, p, i, c, zi) for (p, i, c, _), zi in zip(values, z)]
    if not any(c in CONDITIONS for _, _, _, c, _ in units.rows):
        raise RatingsError(f"{path}: no ratings of the conditions {', '.join(CONDITIONS)}")
    return units


def zscores(values: list[float]) -> list[float] | None:
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    if sd == 0:
        return None
    return [(v - mean) / sd for v in values]


def bin_scores(values: list[float], bins: int = BINS) -> list[int]:
    """Equal-width bins 1..bins over [min, max] of `values`."""
    low, high = min(values), max(values)
    if high == low:
        return [(bins + 1) // 2] * len(values)
    return [min(bins, int((v - low) / (high - low) * bins) + 1) for v in values]


def read_run(run_dir: Path, measure: str = "LP") -> Units:
    """A model run's scores, binned to 7 points over all paradigms, then z-scored."""
    run_dir = Path(run_dir)
    if measure not in MEASURES:
        raise RatingsError(f"--measure {measure}: expected one of {', '.join(MEASURES)}")
    path = run_dir / "sentences.csv"
    if not path.is_file():
        raise RatingsError(f"{path}: not found (expected a run folder results/<suite>/<run>/)")
    header, rows = _read_csv(path)
    missing = [c for c in ("item_id", "paradigm", "condition", measure.lower()) if c not in header]
    if missing:
        raise RatingsError(f"{path}:1: missing column(s) {', '.join(missing)}")
    records = []
    for line_no, row in rows:
        try:
            score = float(row[measure.lower()])
        except ValueError:
            raise RatingsError(f"{path}:{line_no}: {measure} {row[measure.lower()]!r} is not a number") from None
        if math.isfinite(score):
            records.append((row["item_id"], row["paradigm"], row["condition"], score))
    if len(records) < 2:
        raise RatingsError(f"{path}: fewer than two scored sentences")
    z = zscores([float(b) for b in bin_scores([r[3] for r in records])]) or [0.0] * len(records)
    return Units(f"{_run_label(run_dir)} ({measure})", [(i, p, i, c, zi) for (i, p, c, _), zi in zip(records, z)])


def _run_label(run_dir: Path) -> str:
    info_path = run_dir / "run.json"
    if info_path.is_file():
        try:
            info = json.loads(info_path.read_text(encoding="utf-8"))
            if isinstance(info, dict) and info.get("model"):
                return str(info["model"]) + (f" {info['scorer']}" if info.get("scorer") else "")
        except json.JSONDecodeError:
            pass
    return run_dir.name


# ---- tables -----------------------------------------------------------------------------

def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, sd / math.sqrt(n)


def unit_means(units: Units) -> dict[str, dict[str, dict[str, float]]]:
    """paradigm -> condition -> unit -> mean z of that unit in that cell."""
    cells: dict[tuple[str, str, str], list[float]] = {}
    for unit, paradigm, _, condition, z in units.rows:
        if condition in CONDITIONS:
            cells.setdefault((paradigm, condition, unit), []).append(z)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (paradigm, condition, unit), zs in sorted(cells.items()):
        out.setdefault(paradigm, {}).setdefault(condition, {})[unit] = sum(zs) / len(zs)
    return out


def condition_rows(units: Units) -> list[dict]:
    rows = []
    for paradigm, by_condition in unit_means(units).items():
        for condition in CONDITIONS:
            values = list(by_condition.get(condition, {}).values())
            if not values:
                continue
            mean, se = _mean_se(values)
            rows.append({"source": units.source, "paradigm": paradigm, "condition": condition,
                         "length": condition.split("_")[0], "structure": condition.split("_")[1],
                         "n_units": len(values), "mean_z": mean, "se": se})
    return rows


def dd_rows(units: Units) -> list[dict]:
    rows = []
    for paradigm, by_condition in unit_means(units).items():
        if any(c not in by_condition for c in CONDITIONS):
            continue
        means = {c: _mean_se(list(by_condition[c].values()))[0] for c in CONDITIONS}
        complete = set.intersection(*(set(by_condition[c]) for c in CONDITIONS))
        per_unit = [by_condition["long_nonisland"][u] + by_condition["short_island"][u]
                    - by_condition["short_nonisland"][u] - by_condition["long_island"][u] for u in sorted(complete)]
        rows.append({
            "source": units.source, "paradigm": paradigm, "n_units": len(complete),
            "dd": means["long_nonisland"] + means["short_island"] - means["short_nonisland"] - means["long_island"],
            "dd_se": _mean_se(per_unit)[1] if per_unit else float("nan"),
        })
    return rows


# ---- plots ------------------------------------------------------------------------------

def plot_data(rows: list[dict], paradigm: str, sources: list[str]) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """What the plot of `paradigm` draws: source -> structure -> [(mean, se) short, (mean, se) long]."""
    data: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for source in sources:
        cells = {r["condition"]: (r["mean_z"], r["se"]) for r in rows
                 if r["source"] == source and r["paradigm"] == paradigm}
        if all(c in cells for c in CONDITIONS):
            data[source] = {s: [cells[f"short_{s}"], cells[f"long_{s}"]] for s in ("nonisland", "island")}
    return data


def plot_paradigm(data: dict[str, dict[str, list[tuple[float, float]]]], paradigm: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context():
        plt.style.use("default")
        fig, axes = plt.subplots(1, len(data), figsize=(3.2 * len(data), 3.4), sharey=True, squeeze=False)
        for ax, (source, lines) in zip(axes[0], data.items()):
            for structure, style, label in (("nonisland", "-", "non-island"), ("island", "--", "island")):
                means = [m for m, _ in lines[structure]]
                errors = [0.0 if math.isnan(se) else se for _, se in lines[structure]]
                ax.errorbar([0, 1], means, yerr=errors, linestyle=style, marker="o", capsize=4, color="black",
                            label=label)
            ax.set_xticks([0, 1], ["short", "long"])
            ax.set_xlim(-0.3, 1.3)
            ax.set_title(source)
            ax.axhline(0, color="0.85", linewidth=0.8, zorder=0)
        axes[0][0].set_ylabel("mean z-score")
        axes[0][0].legend(loc="lower left", frameon=False)
        fig.suptitle(paradigm.replace("_", " "))
        fig.tight_layout()
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)


# ---- the whole report -------------------------------------------------------------------

def _csv_text(header: list[str], rows: list[dict]) -> str:
    lines = [",".join(header)]
    for row in rows:
        cells = []
        for key in header:
            value = row[key]
            cells.append("" if isinstance(value, float) and math.isnan(value)
                         else f"{value:.6f}" if isinstance(value, float) else str(value))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def report(ratings: Path, runs: list[Path], out: Path, measure: str = "LP", force: bool = False) -> dict:
    """Read, z-score, tabulate and plot; write everything to `out` at once. Returns the summary."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not force)):
        raise RatingsError(f"{out}: exists and is not an empty folder; pass --force to replace it")
    sources = [read_ratings(ratings)] + [read_run(run, measure) for run in runs]
    labels = [s.source for s in sources]
    if len(set(labels)) != len(labels):
        raise RatingsError(f"two runs share the label {[x for x in labels if labels.count(x) > 1][0]!r}")
    by_condition = [row for s in sources for row in condition_rows(s)]
    dd = [row for s in sources for row in dd_rows(s)]
    human_paradigms = sorted({r["paradigm"] for r in by_condition if r["source"] == HUMANS})
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    os.chmod(tmp, 0o755)
    try:
        (tmp / "ratings_by_condition.csv").write_text(_csv_text(
            ["source", "paradigm", "condition", "length", "structure", "n_units", "mean_z", "se"], by_condition),
            encoding="utf-8")
        (tmp / "ratings_dd.csv").write_text(_csv_text(["source", "paradigm", "n_units", "dd", "dd_se"], dd),
                                            encoding="utf-8")
        human = sources[0]
        (tmp / "ratings_zscored.csv").write_text(_csv_text(
            ["participant", "paradigm", "item_id", "condition", "z"],
            [dict(zip(("participant", "paradigm", "item_id", "condition", "z"), r)) for r in human.rows]),
            encoding="utf-8")
        plots = {}
        for paradigm in human_paradigms:
            data = plot_data(by_condition, paradigm, labels)
            if data:
                plot_paradigm(data, paradigm, tmp / f"ratings_{paradigm}.png")
                plots[paradigm] = data
        summary = {
            "ratings_file": Path(ratings).name,
            "participants": len({r[0] for r in human.rows}),
            "judgments": len(human.rows),
            "measure": measure,
            "runs": labels[1:],
            "paradigms": human_paradigms,
            "plots": [f"ratings_{p}.png" for p in plots],
            "notes": [f"{s.source}: {n}" for s in sources for n in s.notes],
        }
        (tmp / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    summary["plot_data"] = plots
    return summary
