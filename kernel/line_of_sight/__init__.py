"""Line of sight: the exact hexside tracer, the numba rule kernels and the public LOS API."""
