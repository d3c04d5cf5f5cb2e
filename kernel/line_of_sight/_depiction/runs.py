"""numba kernel of the judged pixel runs of many depiction-model LOS at once (private; see
:func:`kernel.line_of_sight.depiction.judged_runs`).

The depiction walk (:func:`kernel.line_of_sight._depiction.walk.depiction_walk`)
records one step per run of judged art pixels of one hex, class and
elevation (what ``hexkernel los --depiction --explain`` lists).  The
interactive page marks, for the LOS it shows, the runs that decided
something: those that add hindrance, block or cast a blind zone (and the
counters steps that do, so the hindrance adds up).  This kernel walks many
pairs, recording, and keeps only those steps.
"""

from __future__ import annotations

import numpy as np

from kernel._jit import jit
from kernel.line_of_sight._depiction.walk import (
    LOG_CLASS, LOG_COLUMNS, LOG_DRM, LOG_EFFECT, LOG_HEX, LOG_X0, LOG_X1, LOG_Y0, LOG_Y1, depiction_walk,
    scratch_size,
)
from kernel.line_of_sight._hex.rules import BLIND, BLOCK, NONE
from kernel._dtypes import MAX_MATRIX_DRM

#: Columns of a kept run: hex, pixel class, first pixel (x, y), last pixel (x, y), value.
(RUN_HEX, RUN_CLASS, RUN_X0, RUN_Y0, RUN_X1, RUN_Y1, RUN_VALUE) = range(7)
RUN_COLUMNS = 7
#: ``RUN_VALUE`` of a run that blocks the LOS, and of one that casts a blind zone (else its DRM, > 0).
RUN_BLOCKS = -1
RUN_BLIND = -2


@jit
def judged_runs_kernel(first, second, levels2, log_rows, tables, out, counts):
    """For pair ``k`` (``first[k]`` at ``levels2[first[k]]`` half levels to ``second[k]``): its runs of
    art pixels with an effect, and its other steps with one (counters, ``COUNTERS``; the inherent terrain beside
    a hexside the LOS runs along, ``HEXSIDE_RUN``; pixels 0), at most
    ``out.shape[1]`` in walking order, into ``out[k]`` (``RUN_*`` columns) and their number into
    ``counts[k]``.  ``log_rows``: rows of the longest pair's log.  Serial: the pairs of a page take a
    fraction of a second, and a parallel loop around the whole recorded walk compiled far longer."""
    (lat_x, lat_y, cell_index, neighbours, depression_group, pixels, pixel_info, n_levels, level_min,
     class_wall, class_inherent, hex_terrain, far_open, class_own, hex_own, squares, cap, per_range, counter_info,
     has_counters) = tables
    pairs = first.shape[0]
    keep = out.shape[1]
    log = np.empty((log_rows, LOG_COLUMNS), np.int64)   # every row is written in full before it is read
    counted = np.empty(scratch_size(pixels), np.int64)
    for k in range(pairs):
        a = np.int64(first[k])   # the walk's hex arguments as int64, as the recorded LOS of one pair passes
        b = np.int64(second[k])  # them: both share one compiled recorded walk
        n_log = depiction_walk(True, log, a, levels2[a], b, levels2[b], lat_x, lat_y, cell_index, neighbours,
                               depression_group, pixels, pixel_info, n_levels, level_min, class_wall,
                               class_inherent, hex_terrain, far_open, class_own, hex_own, squares, cap, per_range,
                               counter_info,
                               has_counters, counted)[5]
        kept = 0
        for r in range(n_log):
            if kept == keep:
                break
            effect = log[r, LOG_EFFECT]
            drm = log[r, LOG_DRM]
            if effect == NONE and drm <= 0:
                continue
            out[k, kept, RUN_HEX] = log[r, LOG_HEX]
            out[k, kept, RUN_CLASS] = log[r, LOG_CLASS]
            # a step that is not art (a hex's SMOKE and vehicles, the inherent terrain beside a hexside the
            # LOS runs along: negative classes) has no pixels, and its pixel columns were never written
            art = log[r, LOG_CLASS] >= 0
            out[k, kept, RUN_X0] = log[r, LOG_X0] if art else 0
            out[k, kept, RUN_Y0] = log[r, LOG_Y0] if art else 0
            out[k, kept, RUN_X1] = log[r, LOG_X1] if art else 0
            out[k, kept, RUN_Y1] = log[r, LOG_Y1] if art else 0
            if effect == BLOCK:
                out[k, kept, RUN_VALUE] = RUN_BLOCKS
            elif effect == BLIND:
                out[k, kept, RUN_VALUE] = RUN_BLIND
            else:
                out[k, kept, RUN_VALUE] = min(drm, MAX_MATRIX_DRM)
            kept += 1
        counts[k] = kept
