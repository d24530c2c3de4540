import random, numpy as np, time, sys
from nqueens_numba import count_solutions, config
from nqueens_numba import _split
rng = random.Random(int(sys.argv[1]))
if len(sys.argv)>2: print("n15", count_solutions(15))
for trial in range(25):
    n = rng.choice([12,13,14])
    pre = {r: rng.randrange(n) for r in rng.sample(range(n), rng.randint(0, 2))}
    blk = None
    if rng.random() < 0.6:
        blk = np.array([[rng.random() < 0.1 for _ in range(n)] for _ in range(n)])
    if not pre and blk is None: blk = np.zeros((n,n),bool); blk[rng.randrange(n), rng.randrange(n)] = True
    try:
        a = count_solutions(n, preplaced=pre or None, blocked=blk)
    except ValueError as e:
        a = "VE"
    try:
        b = count_solutions(n, preplaced=pre or None, blocked=blk, method="halving", prefix_depth=3)
    except ValueError as e:
        b = "VE"
    if a != b: print("MISMATCH", n, pre, np.argwhere(blk).tolist() if blk is not None else None, a, b)
print("done")
