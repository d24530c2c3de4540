"""One solution of a huge board: an explicit construction, and local search with constraints.

Counting and enumerating stop at n = 63 (int64 bitboards) and, in practice, far below; one
solution is easy for any n: :func:`construct` writes one down in O(n), and
:func:`find_solution` completes pre-placed queens by min-conflicts repair (kernel
``_min_conflicts``).
"""
import numpy as np

from . import _kernels, _validate
from .constraints import check_no_attacks, preplaced_array

__all__ = ["construct", "find_solution"]

#: Largest board these functions accept: their arrays hold ``n`` int64 (and counters of
#: ``4 n``): 10^9 rows take 40 GB.
MAX_HUGE_N = 10**9


def _check_huge_n(n):
    n = _validate.in_range(n, "n", 0, MAX_HUGE_N)
    if n in (2, 3):
        raise ValueError(f"the {n}-queens problem has no solution (n = 2 and 3 have none)")
    return n


def construct(n):
    """One solution for any ``n``, written down in O(n) time and memory.

    The classic explicit solution: the even numbers ``2, 4, ...`` then the odd numbers
    ``1, 3, ...`` (1-based), adjusted when ``n mod 6`` is 2 (swap 1 and 3, move 5 to the
    end of the odd numbers) or 3 (move 2 to the end of the even numbers and 1, 3 to the end
    of the odd numbers), read as the column of each row's queen.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 10**9``, not 2 or 3.

    Returns
    -------
    queens : numpy.ndarray, shape (n,), dtype int32
        ``queens[row] == column``; a solution (:func:`~nqueens_numba.is_solution`).

    Raises
    ------
    TypeError
        If ``n`` is not an integer.
    ValueError
        If ``n`` is 2 or 3 (no solution exists) or outside ``0..10**9``.

    See Also
    --------
    find_solution : a solution that keeps pre-placed queens.

    References
    ----------
    .. [1] E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the solution of
       the m queens problem", Mathematics Magazine 42 (2), 1969, 66-72.
    .. [2] B. Bernhardsson, "Explicit solutions to the N-queens problem for all N", ACM
       SIGART Bulletin 2 (2), 1991, 7.

    Examples
    --------
    >>> construct(8)
    array([1, 3, 5, 7, 2, 0, 6, 4], dtype=int32)
    >>> from nqueens_numba import is_solution
    >>> all(is_solution(construct(n)) for n in [1, 4, 5, 100, 1001])
    True
    """
    n = _check_huge_n(n)
    dtype = np.int32  # n <= MAX_HUGE_N < 2**31
    evens = np.arange(2, n + 1, 2, dtype=dtype)
    odds = np.arange(1, n + 1, 2, dtype=dtype)
    if n % 6 == 2:  # 1 and 3 swap places, 5 goes last
        odds = np.concatenate([[3, 1], odds[3:], [5]]).astype(dtype)
    elif n % 6 == 3:  # 2 goes last; 1 and 3 go last
        evens = np.concatenate([evens[1:], [2]]).astype(dtype)
        odds = np.concatenate([odds[2:], [1, 3]]).astype(dtype)
    queens = np.concatenate([evens, odds])
    queens -= 1
    return queens


def find_solution(n, *, preplaced=None, seed=None, max_steps=None):
    """One solution that keeps pre-placed queens, by min-conflicts local search.

    Queens are kept in distinct rows and columns (a permutation); a greedy random placement
    avoids most diagonal conflicts, then queens under attack swap columns with random rows
    while that lowers the number of attacking pairs (kernel ``_min_conflicts``).
    Pre-placed queens never move.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 10**9``, not 2 or 3 (n = 0 gives the empty solution).
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        ``{row: column}``, or ``queens[row] == column`` with -1 for free rows.
    seed : int, optional
        Seed of the search: the same seed gives the same solution. Drawn at random if None.
    max_steps : int, optional
        Swap tries before giving up, ``0 .. 2**63 - 1`` (default ``50 * n + 10**6``).

    Returns
    -------
    queens : numpy.ndarray, shape (n,), dtype int64
        A solution with ``queens[row] == column`` for every pre-placed queen.

    Raises
    ------
    TypeError
        If ``n``, ``seed`` or ``max_steps`` is not an integer, or ``preplaced`` does not hold
        integers.
    ValueError
        If ``n`` is out of range, 2 or 3, or pre-placed queens are off the board or attack
        each other (named in the message).
    RuntimeError
        If no solution was found within ``max_steps`` (the pre-placed queens may have no
        completion: n-queens completion is NP-complete); the message suggests what to try.

    See Also
    --------
    construct : one solution without constraints, in O(n).
    solve : every completion (``preplaced=``), for ``n <= 63``.

    References
    ----------
    .. [1] S. Minton, M. D. Johnston, A. B. Philips and P. Laird, "Minimizing conflicts: a
       heuristic repair method for constraint satisfaction and scheduling problems",
       Artificial Intelligence 58 (1992) 161-205.
    .. [2] R. Sosic and J. Gu, "Efficient local search with conflict minimization: a case
       study of the n-queens problem", IEEE Transactions on Knowledge and Data Engineering
       6 (5), 1994, 661-668.
    .. [3] I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens Completion",
       Journal of Artificial Intelligence Research 59 (2017) 815-848.

    Examples
    --------
    >>> from nqueens_numba import is_solution
    >>> q = find_solution(1000, preplaced={0: 5, 999: 17}, seed=1)
    >>> bool(is_solution(q)), int(q[0]), int(q[999])
    (True, 5, 17)
    """
    n = _check_huge_n(n)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**31)
    seed = _validate.in_range(seed, "seed", 0, 2**32 - 1)
    steps = (50 * n + 10**6 if max_steps is None
             else _validate.in_range(max_steps, "max_steps", 0, 2**63 - 1))
    fixed = np.full(n, -1, dtype=np.int64) if preplaced is None else preplaced_array(preplaced, n)
    check_no_attacks(fixed)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    free_rows = np.flatnonzero(fixed < 0).astype(np.int64)
    used = np.zeros(n, dtype=bool)
    used[fixed[fixed >= 0]] = True
    queens = fixed.copy()
    queens[free_rows] = np.flatnonzero(~used)  # any permutation; the search shuffles it
    if len(free_rows) == 0 or n == 1:
        result = 0
    else:
        result = _kernels._min_conflicts(
            queens, free_rows, seed, steps, np.zeros(2 * n - 1, dtype=np.int64),
            np.zeros(2 * n - 1, dtype=np.int64), np.zeros(n, dtype=bool), free_rows.copy(),
            np.empty(len(free_rows), dtype=np.int64))
    if result < 0:
        if preplaced is None or len(free_rows) == n:
            why = "the search was cut short; try another seed or a larger max_steps"
        else:
            why = ("the pre-placed queens may have no completion (n-queens completion is "
                   "NP-complete); try another seed, a larger max_steps, or fewer pre-placed "
                   "queens")
        raise RuntimeError(f"find_solution({n}) found no solution within "
                           f"max_steps={steps}: {why}")
    return queens
