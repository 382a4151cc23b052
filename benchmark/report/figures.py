"""Shared figure settings: the Agg backend, a fixed style and reproducible PNG/PDF files."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

PNG_METADATA = {"Software": None}
PDF_METADATA = {"CreationDate": None, "Creator": None, "Producer": None}
DPI = 110


@contextmanager
def style():
    """matplotlib with the Agg backend and default style, whatever the user's matplotlibrc."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context():
        plt.style.use("default")
        matplotlib.rcParams.update({"font.size": 9, "axes.titlesize": 10, "svg.hashsalt": "report",
                                    "pdf.compression": 6})
        yield plt


def save(fig, stem: Path, pdf: bool = True) -> list[Path]:
    """Write stem.png (and stem.pdf) and close the figure; return the written paths."""
    import matplotlib.pyplot as plt

    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.parent / f"{stem.name}.png"]
    fig.savefig(paths[0], dpi=DPI, metadata=PNG_METADATA)
    if pdf:
        paths.append(stem.parent / f"{stem.name}.pdf")
        fig.savefig(paths[1], metadata=PDF_METADATA)
    plt.close(fig)
    return paths
