"""Shared by the benchmark scripts: the best wall time of repeated calls."""
import time


def best(func, repeat):
    """``(seconds, result)``: the shortest of ``repeat`` calls of ``func`` and its result."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result
