"""The balance report printed by `gen build` and `gen validate`."""

from __future__ import annotations

from rich.table import Table


def balance_table(manifest: dict) -> Table:
    table = Table(title=f"Balance of {manifest.get('suite', 'suite')}")
    for column in ("paradigm", "items", "capacity", "additive", "mean residual", "max lemma share",
                   "words SN/LN/SI/LI", "zipf SN/LN/SI/LI"):
        table.add_column(column, justify="right" if column != "paradigm" else "left", no_wrap=column == "paradigm")
    for name, stats in manifest.get("paradigms", {}).items():
        conditions = stats.get("conditions", {})
        words = "/".join(f"{c['mean_words']:.1f}" for c in conditions.values())
        zipf = "/".join(f"{c['zipf_mean_content']:.2f}" if c.get("zipf_mean_content") is not None else "-"
                        for c in conditions.values())
        usage = stats.get("lemma_usage", {})
        table.add_row(
            name, str(stats.get("n_items", 0)), f"{stats.get('capacity', 0):,}",
            f"{100 * stats.get('additive_share', 0):.1f}%", f"{stats.get('mean_residual_words', 0):.2f}",
            f"{100 * usage.get('max_share', 0):.1f}% ({usage.get('most_used', '')})", words, zipf,
        )
    return table


def print_table(table: Table) -> None:
    """Print to stdout; on a terminal at its width, in a pipe or a log file at full width, so
    no cell is cut short with `…` (rich assumes 80 columns when stdout is not a terminal)."""
    from rich.console import Console
    console = Console()
    if not console.is_terminal:
        console = Console(width=100_000, color_system=None)
    console.print(table)
