"""Movement: the Location/Bypass state graph, the numba Dijkstra kernels and the public movement API."""


def __getattr__(name: str):
    """Names of the 0.1 module ``kernel.movement``, deprecated (see :mod:`kernel._deprecated`)."""
    from kernel._deprecated import old_name

    return old_name("kernel.movement", name)
