"""Overlapped windows: split a long sequence, decode the windows as one batch, keep the well-inside parts.

After B. Nguyen et al. (chunk merging): predictions near a window edge lack context, so consecutive
windows overlap by ``overlap`` positions and the seam between them sits ``cut`` positions before the
end of the earlier window (the paper's min_words_cut, here counted in model positions).

>>> [(w.start, w.end, w.keep_start, w.keep_end) for w in plan(10, size=6, overlap=2, cut=1)]
[(0, 6, 0, 5), (4, 10, 5, 10)]
>>> plan(3, size=6, overlap=2, cut=1)
[Window(start=0, end=3, keep_start=0, keep_end=3)]
"""

from __future__ import annotations

from typing import NamedTuple


class Window(NamedTuple):
    start: int
    end: int
    keep_start: int
    keep_end: int


def plan(n: int, size: int, overlap: int, cut: int) -> list[Window]:
    """Windows of exactly ``size`` positions covering ``n`` (one shorter window if ``n <= size``).

    All windows have one length, so they batch without padding (padding would disturb a BiLSTM's
    backward pass). The last window is aligned to the end, so its overlap may be larger; every seam
    still keeps at least ``cut`` positions of right context for the earlier window, where possible.
    """
    if not 0 <= cut <= overlap < size:
        raise ValueError(f"need 0 <= cut <= overlap < size, got cut={cut} overlap={overlap} size={size}")
    if n <= size:
        return [Window(0, n, 0, n)]
    stride = size - overlap
    starts = list(range(0, n - size, stride)) + [n - size]
    seams = [0]
    for prev_start, next_start in zip(starts, starts[1:]):
        prev_end = prev_start + size
        # Seam inside the overlap [next_start, prev_end): ``cut`` before the earlier window's end.
        seams.append(max(next_start, prev_end - cut) if prev_end - next_start >= cut else prev_end)
    seams.append(n)
    return [Window(s, s + size, seams[i], seams[i + 1]) for i, s in enumerate(starts)]
