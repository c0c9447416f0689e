"""The chunking grid's chart (``grid.png``, :mod:`evaluation.compare`): retrieval quality and ingestion cost per
chunking configuration, drawn the same way every time for the same rows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

CHART_SIZE = (12, 6)  # inches, at CHART_DPI: 1200 x 600 px
CHART_DPI = 100
# Tick labels: the full names of neighbouring groups run into each other at 15 configurations.
_SHORT = {"fixed_size": "fixed", "recursive_char": "recursive", "semantic": "semantic"}


def chart_rows(rows: Sequence[dict]) -> list[dict]:
    """The rows the chart shows: one per chunking configuration, with weighted fusion and rerank off.

    When those were not run, the first fusion that was, and rerank off when it was run.
    """
    if not rows:
        return []
    fusions = [r["fusion"] for r in rows]
    fusion = "weighted" if "weighted" in fusions else fusions[0]
    rerank = False if any(not r["rerank"] for r in rows if r["fusion"] == fusion) else True
    return [r for r in rows if r["fusion"] == fusion and r["rerank"] == rerank]


def write_chart(rows: Sequence[dict], path: Path, title: str) -> Path:
    """Grouped bars of Acc@1, Acc@5 and MRR per chunking configuration, ingestion s/page on a twin axis.

    Parameters
    ----------
    rows : one row per configuration (see :func:`chart_rows`).
    path : the PNG to write.
    title : chart title.

    Notes
    -----
    Drawn on a Figure with the Agg canvas directly, not through pyplot, so no GUI backend or global figure state
    is involved and the same rows always give the same PNG.
    """
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=CHART_SIZE, dpi=CHART_DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=11)
    if not rows:
        ax.text(0.5, 0.5, "no rows measured", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    else:
        x = np.arange(len(rows))
        width = 0.26
        series = [("acc@1", "Acc@1", "#4c72b0"), ("acc@5", "Acc@5", "#55a868"), ("mrr", "MRR", "#dd8452")]
        for j, (key, name, colour) in enumerate(series):
            # A metric that does not apply (None) is drawn as no bar rather than as a misleading zero.
            values = [np.nan if r[key] is None else r[key] for r in rows]
            ax.bar(x + (j - 1) * width, values, width, label=name, color=colour)
        # Headroom above 1.0 keeps the legend clear of the tallest bars.
        ax.set_ylim(0, 1.2)
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.set_ylabel("share of answerable questions / MRR")
        # At least four groups' width, centred, so a run of one or two configurations does not draw slabs.
        pad = max(0.0, (4 - len(rows)) / 2)
        ax.set_xlim(-0.5 - pad, len(rows) - 0.5 + pad)
        ax.set_xticks(x)
        ax.set_xticklabels([f"{_SHORT.get(r['strategy'], r['strategy'])}\n{r['size']} / "
                            f"{'–' if r['overlap'] is None else r['overlap']}" for r in rows], fontsize=8)
        ax.set_xlabel("strategy (fixed_size, recursive_char, semantic), chunk size / overlap in characters")
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        twin = ax.twinx()
        per_page = [np.nan if r["seconds_per_page"] is None else r["seconds_per_page"] for r in rows]
        twin.plot(x, per_page, linestyle="none", marker="D", color="black", label="ingestion s/page")
        finite = [v for v in per_page if not np.isnan(v)]
        twin.set_ylim(0, max(finite) * 1.25 if finite else 1)
        twin.set_ylabel("ingestion seconds per page")
        handles, labels = ax.get_legend_handles_labels()
        more, more_labels = twin.get_legend_handles_labels()
        ax.legend(handles + more, labels + more_labels, loc="upper left", fontsize=8, ncols=4)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    # No software version in the metadata, so a matplotlib upgrade alone does not change the file.
    fig.savefig(path, format="png", metadata={"Software": None})
    return path
