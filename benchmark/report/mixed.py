"""Mixed-effects model per paradigm: score ~ length x structure + (1 | item).

Coding: length = 1 for the long (subject-gap) conditions, structure = 1 for the island
conditions, so the interaction coefficient is S(SN) - S(LN) - S(SI) + S(LI) = -DD on average:
a negative interaction is a super-additive penalty on the long-island condition, i.e. an
island effect.

statsmodels fits the model (REML). It is started from the closed-form estimates of a complete
balanced design (OLS fixed effects, ANOVA variance components), which is where REML ends for
such designs; this cuts the fit from seconds to about one second per 1,000 items. Every warning
the fit raises is kept and shown in the report.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .load import Run

TERM = "length:structure"


@dataclass(frozen=True)
class MixedResult:
    run: str
    measure: str
    paradigm: str
    n_items: int
    estimate: float
    ci_lo: float
    ci_hi: float
    p_value: float
    converged: bool
    warnings: tuple[str, ...]
    error: str = ""


def design(sentences: pd.DataFrame, measure: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Response, fixed-effects design (const, length, structure, interaction) and groups."""
    data = sentences.dropna(subset=[measure]).sort_values(["item_id", "condition"], kind="mergesort")
    length = data["condition"].str.startswith("long").to_numpy(dtype=float)
    structure = data["condition"].str.endswith("_island").to_numpy(dtype=float)
    exog = np.column_stack([np.ones_like(length), length, structure, length * structure])
    return data[measure].to_numpy(dtype=float), exog, data["item_id"].to_numpy()


def fit_interaction(run: Run, paradigm: str, measure: str) -> MixedResult:
    from statsmodels.regression.mixed_linear_model import MixedLM, MixedLMParams

    sentences = run.sentences[run.sentences["paradigm"] == paradigm]
    if measure not in sentences.columns:
        return _failed(run, paradigm, measure, 0, f"no {measure} column in sentences.csv")
    y, exog, groups = design(sentences, measure)
    n_items = len(np.unique(groups))
    if n_items < 3:
        return _failed(run, paradigm, measure, n_items, "fewer than 3 items")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = MixedLM(y, exog, groups=groups)
            fe, ratio = _start_values(y, exog, groups)
            start = MixedLMParams.from_components(fe_params=fe, cov_re=np.array([[ratio]]))
            result = model.fit(reml=True, start_params=start, method=["lbfgs"])
            ci = result.conf_int()[3]
            out = (float(result.fe_params[3]), float(ci[0]), float(ci[1]), float(result.pvalues[3]),
                   bool(result.converged))
            error = ""
        except (np.linalg.LinAlgError, ValueError, ZeroDivisionError) as exc:
            out, error = (np.nan, np.nan, np.nan, np.nan, False), f"{type(exc).__name__}: {exc}"
    messages = tuple(dict.fromkeys(_one_line(w.message) for w in caught))
    return MixedResult(run.name, measure, paradigm, n_items, *out, messages, error)


def _start_values(y: np.ndarray, exog: np.ndarray, groups: np.ndarray) -> tuple[np.ndarray, float]:
    """OLS fixed effects and the ANOVA ratio of item variance to residual variance."""
    fe = np.linalg.lstsq(exog, y, rcond=None)[0]
    resid = pd.Series(y - exog @ fe)
    codes = pd.factorize(groups)[0]
    means = resid.groupby(codes).transform("mean").to_numpy()
    counts = np.bincount(codes)
    n, g = len(y), len(counts)
    within = float(((resid.to_numpy() - means) ** 2).sum()) / max(n - g - (exog.shape[1] - 1), 1)
    group_means = resid.groupby(codes).mean().to_numpy()
    between = float((counts * group_means**2).sum()) / max(g - 1, 1)
    tau2 = (between - within) / max(counts.mean(), 1.0)
    ratio = tau2 / within if within > 0 else 1.0
    return fe, float(max(ratio, 1e-3))


def mixed_frame(results: list[MixedResult]) -> pd.DataFrame:
    return pd.DataFrame.from_records([{
        "run": r.run, "measure": r.measure, "paradigm": r.paradigm, "n_items": r.n_items,
        "interaction": r.estimate, "ci_lo": r.ci_lo, "ci_hi": r.ci_hi, "p_value": r.p_value,
        "converged": r.converged, "warnings": " | ".join(r.warnings), "error": r.error,
    } for r in results])


def _failed(run: Run, paradigm: str, measure: str, n_items: int, why: str) -> MixedResult:
    nan = float("nan")
    return MixedResult(run.name, measure, paradigm, n_items, nan, nan, nan, nan, False, (), why)


def _one_line(message) -> str:
    return " ".join(str(message).split())
