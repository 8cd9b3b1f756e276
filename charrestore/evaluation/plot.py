"""Confusion matrices as a PNG, for the eye (``charrestore eval --plot``).

matplotlib is an extra (``[plot]``): it is imported only when a plot is asked for.
"""

from __future__ import annotations

import numpy as np

from .results import CharResult, TokenResult


def plot_confusion(result: CharResult | TokenResult, path: str) -> None:
    """Write the confusion matrices of a result as a PNG (row-normalized colours, counts in the cells).

    Needs matplotlib (the ``[plot]`` extra); raises ImportError without it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if isinstance(result, TokenResult):
        panels = [("punctuation", result.punct_confusion, result.punct_labels)]
        if result.casing_confusion is not None:
            panels.append(("casing", result.casing_confusion, result.casing_labels))
    else:
        d = result.to_dict()["confusion"]
        panels = [("char classes", np.asarray(d["matrix"], dtype=np.int64).reshape(len(d["labels"]), -1),
                   d["labels"])]
    size = max(4.0, 0.45 * max(len(p[2]) for p in panels) + 2)
    fig, axes = plt.subplots(1, len(panels), figsize=(size * len(panels), size), squeeze=False)
    for ax, (title, m, labels) in zip(axes[0], panels):
        rows = m.sum(axis=1, keepdims=True)
        norm = np.divide(m, rows, out=np.zeros(m.shape, dtype=float), where=rows > 0)
        ax.imshow(norm, cmap="Blues", vmin=0, vmax=1)
        ax.set_xticks(range(len(labels)), labels, rotation=90)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("hypothesis")
        ax.set_ylabel("reference")
        ax.set_title(title)
        if len(labels) <= 12:
            for i in range(len(labels)):
                for j in range(len(labels)):
                    ax.text(j, i, f"{100 * norm[i, j]:.1f}%\n{int(m[i, j])}", ha="center", va="center",
                            fontsize=7, color="white" if norm[i, j] > 0.5 else "black")
    fig.suptitle(result.signature, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
