"""The trace templates: the exact centre-to-centre tracer, its tables kept on disk, and their prefix tree
(private; the hex model, the sweep and the depiction model read them)."""
