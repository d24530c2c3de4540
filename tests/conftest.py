import os

# The thread tests compare 1 and 2 threads; give numba two even on a one-core machine.
# Must happen before numba is imported.
if (os.cpu_count() or 1) < 2:
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")
