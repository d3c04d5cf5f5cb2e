"""Movement: the Location/Bypass state graph, the numba Dijkstra kernels and the public movement API."""
