"""The symmetry group D4 of the square acting on placements (NumPy, vectorised over batches).

A placement of ``n`` non-attacking rooks, ``queens[row] == column`` (a permutation of
``0..n-1``; every n-queens solution is one), is mapped by each symmetry of the board to
another placement. Functions take one placement, shape ``(n,)``, or a batch, shape
``(k, n)``, and work on the whole batch at once.

The eight elements, as maps of a square ``(row, col)`` of an ``n``-board (``m = n - 1``):

==================  ==========================  ===============================================
name                square ``(r, c)`` goes to   image ``p`` of ``q`` (``q⁻¹`` the inverse)
==================  ==========================  ===============================================
``identity``        ``(r, c)``                  ``p[i] = q[i]``
``rot90``           ``(c, m - r)``              ``p[i] = m - q⁻¹[i]`` (quarter turn clockwise)
``rot180``          ``(m - r, m - c)``          ``p[i] = m - q[m - i]``
``rot270``          ``(m - c, r)``              ``p[i] = q⁻¹[m - i]``
``flip_h``          ``(r, m - c)``              ``p[i] = m - q[i]`` (mirror left-right)
``flip_v``          ``(m - r, c)``              ``p[i] = q[m - i]`` (mirror top-bottom)
``transpose``       ``(c, r)``                  ``p[i] = q⁻¹[i]`` (main diagonal)
``anti_transpose``  ``(m - c, m - r)``          ``p[i] = m - q⁻¹[m - i]`` (anti-diagonal)
==================  ==========================  ===============================================

References
----------
.. [1] OEIS A002562, number of ways of placing n nonattacking queens on an n X n board, up to
   rotations and reflections ("fundamental solutions"), https://oeis.org/A002562
.. [2] W. Burnside, *Theory of Groups of Finite Order*, 1897 (the orbit-counting lemma).
"""
import numpy as np

from . import _docs, _validate

__all__ = [
    "D4",
    "compose",
    "transform",
    "images",
    "orbit",
    "stabilizer_order",
    "orbit_size",
    "canonical_form",
    "is_canonical",
]

#: The eight elements of D4 in a fixed order (``identity`` first).
D4 = ("identity", "rot90", "rot180", "rot270", "flip_h", "flip_v", "transpose",
      "anti_transpose")

# Each element as a matrix acting on centred coordinates (2r - m, 2c - m) of a square.
_MATRIX = {
    "identity": ((1, 0), (0, 1)),
    "rot90": ((0, 1), (-1, 0)),
    "rot180": ((-1, 0), (0, -1)),
    "rot270": ((0, -1), (1, 0)),
    "flip_h": ((1, 0), (0, -1)),
    "flip_v": ((-1, 0), (0, 1)),
    "transpose": ((0, 1), (1, 0)),
    "anti_transpose": ((0, -1), (-1, 0)),
}
# The image of q under each element: (uses the inverse, reverses the index, complements values).
_RECIPE = {
    "identity": (False, False, False),
    "rot90": (True, False, True),
    "rot180": (False, True, True),
    "rot270": (True, True, False),
    "flip_h": (False, False, True),
    "flip_v": (False, True, False),
    "transpose": (True, False, False),
    "anti_transpose": (True, True, True),
}


def compose(second, first):
    """The element of D4 equal to applying ``first``, then ``second``.

    Parameters
    ----------
    second, first : str
        Names from :data:`D4`.

    Returns
    -------
    str
        The name of the product, so that ``transform(transform(q, first), second) ==
        transform(q, compose(second, first))``.

    Raises
    ------
    TypeError
        If an element is not a string.
    ValueError
        If a name is not an element of D4.

    Examples
    --------
    >>> compose("rot90", "rot90")
    'rot180'
    >>> compose("flip_h", "flip_h")
    'identity'
    """
    a = np.array(_MATRIX[_check_element(second)])
    b = np.array(_MATRIX[_check_element(first)])
    product = tuple(map(tuple, (a @ b).tolist()))
    return next(name for name, m in _MATRIX.items() if m == product)


def _check_element(element):
    if not isinstance(element, str):
        raise TypeError(f"an element of D4 is a string, one of {', '.join(D4)}; got "
                        f"{type(element).__name__}")
    if element not in _MATRIX:
        raise ValueError(f"unknown element {element!r} of D4; expected one of {', '.join(D4)}")
    return element


def _check_placements(queens):
    """Validate placements: integer array of shape (n,) or (k, n), each row a permutation.

    Returns ``(batch, single)``: the placements as an ``(k, n)`` array of their own integer
    dtype, and whether the input was a single placement.
    """
    arr = _validate.integer_array(queens, empty_dtype=np.int8)
    if arr is None:
        raise ValueError("not a valid placement: columns too large for any board")
    if arr.ndim not in (1, 2):
        raise ValueError(f"queens must have shape (n,) or (k, n), got shape {arr.shape}")
    single = arr.ndim == 1
    batch = arr[None, :] if single else arr
    n = batch.shape[1]
    if not isinstance(queens, np.ndarray) or queens.dtype == object:  # the package's dtype
        batch = batch.astype(_validate.placement_dtype(n))
    if batch.size:
        if batch.min() < 0 or batch.max() >= n:
            raise ValueError(f"not a valid placement: columns must lie in 0..{n - 1}")
        seen = np.zeros(batch.shape, dtype=bool)
        seen[np.arange(batch.shape[0])[:, None], batch] = True
        if not seen.all():
            bad = int(np.flatnonzero(~seen.all(axis=1))[0])
            where = "" if single else f"placement {bad} of the batch: "
            raise ValueError(f"not a valid placement: {where}a column is repeated "
                             f"(each column must hold exactly one queen)")
    return batch, single


def _inverse(batch):
    """Inverse permutations of a ``(k, n)`` batch, same dtype."""
    k, n = batch.shape
    inv = np.empty_like(batch)
    inv[np.arange(k)[:, None], batch] = np.arange(n, dtype=batch.dtype)
    return inv


def _image(batch, inverse, element):
    use_inverse, reverse, complement = _RECIPE[element]
    out = inverse if use_inverse else batch
    if reverse:
        out = out[:, ::-1]
    if complement and batch.shape[1]:
        out = (batch.shape[1] - 1) - out
    return np.ascontiguousarray(out, dtype=batch.dtype)


def transform(queens, element):
    """Apply one element of D4 to a placement or a batch of placements.

    Parameters
    ----------
    queens : array_like of int, shape (n,) or (k, n)
        Placements, ``queens[..., row] == column``; each a permutation of ``0..n-1``.
    element : str
        One of :data:`D4`: ``identity, rot90, rot180, rot270, flip_h, flip_v, transpose,
        anti_transpose`` (see the module docstring for each as a map of squares).

    Returns
    -------
    numpy.ndarray
        Same shape as ``queens``; the dtype of ``queens`` when it is an array, else the
        package's dtype for placements (the smallest signed integer type that holds
        ``n - 1``: int8 up to n = 128).

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers, or ``element`` is not a string.
    ValueError
        If ``element`` is not in D4, or a row is not a permutation (wrong shape, repeated
        column, column out of range).

    Examples
    --------
    >>> transform([1, 3, 0, 2], "flip_h")
    array([2, 0, 3, 1], dtype=int8)
    >>> transform([1, 3, 0, 2], "rot90")
    array([1, 3, 0, 2], dtype=int8)
    """
    _check_element(element)
    batch, single = _check_placements(queens)
    out = _image(batch, _inverse(batch), element)
    return out[0] if single else out


@_docs.fill
def images(queens):
    """All eight images of placements under D4, in the order of :data:`D4`.

    %(placements)s

    Returns
    -------
    numpy.ndarray, shape (8, n) or (k, 8, n)
        ``images(q)[..., j, :] == transform(q, D4[j])``; dtype as in :func:`transform`.

    %(placements_raise)s
    """
    batch, single = _check_placements(queens)
    out = _all_images(batch)
    return out[0] if single else out


def _all_images(batch):
    inverse = _inverse(batch)
    return np.stack([_image(batch, inverse, e) for e in D4], axis=1).astype(batch.dtype,
                                                                            copy=False)


def _lex_less(a, b):
    """Row-wise ``a < b`` in lexicographic order, for arrays of shape (..., n)."""
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1], dtype=bool)
    diff = a != b
    first = np.argmax(diff, axis=-1)
    any_diff = diff.any(axis=-1)
    av = np.take_along_axis(a, first[..., None], axis=-1)[..., 0]
    bv = np.take_along_axis(b, first[..., None], axis=-1)[..., 0]
    return any_diff & (av < bv)


@_docs.fill
def stabilizer_order(queens):
    """Number of elements of D4 that map a placement to itself.

    %(placements)s

    Returns
    -------
    int or numpy.ndarray of int64, shape (k,)
        1, 2, 4 or 8; ``orbit_size * stabilizer_order == 8``.

    %(placements_raise)s

    Examples
    --------
    >>> stabilizer_order([1, 3, 0, 2])   # fixed by the rotations
    4
    """
    batch, single = _check_placements(queens)
    order = (_all_images(batch) == batch[:, None, :]).all(axis=2).sum(axis=1).astype(np.int64)
    return int(order[0]) if single else order


@_docs.fill
def orbit_size(queens):
    """Number of distinct images of a placement under D4: ``8 // stabilizer_order``.

    %(placements)s

    Returns
    -------
    int or numpy.ndarray of int64, shape (k,)
        1, 2, 4 or 8.

    %(placements_raise)s

    Examples
    --------
    >>> orbit_size([1, 3, 0, 2])
    2
    """
    order = stabilizer_order(queens)
    return 8 // order


@_docs.fill
def orbit(queens):
    """The distinct images of a placement under D4, sorted lexicographically.

    %(placements)s

    Returns
    -------
    numpy.ndarray, shape (orbit_size, n)
        For one placement; for a batch, a list with one such array per placement. Same
        dtype as in :func:`transform`.

    %(placements_raise)s

    Examples
    --------
    >>> orbit([1, 3, 0, 2])
    array([[1, 3, 0, 2],
           [2, 0, 3, 1]], dtype=int8)
    """
    batch, single = _check_placements(queens)
    out = [np.unique(imgs, axis=0).astype(batch.dtype, copy=False)
           for imgs in _all_images(batch)]
    return out[0] if single else out


@_docs.fill
def canonical_form(queens):
    """The lexicographically smallest image of a placement under D4.

    Two placements are equivalent under D4 exactly when their canonical forms are equal;
    the fundamental solutions of the n-queens problem are the canonical forms.

    %(placements)s

    Returns
    -------
    numpy.ndarray
        Same shape as ``queens``, and the dtype :func:`transform` gives.

    %(placements_raise)s

    Examples
    --------
    >>> canonical_form([2, 0, 3, 1])
    array([1, 3, 0, 2], dtype=int8)
    """
    batch, single = _check_placements(queens)
    imgs = _all_images(batch)
    best = imgs[:, 0]
    for j in range(1, len(D4)):
        smaller = _lex_less(imgs[:, j], best)
        best = np.where(smaller[:, None], imgs[:, j], best)
    best = best.astype(batch.dtype, copy=False)
    return best[0] if single else best


@_docs.fill
def is_canonical(queens):
    """Whether a placement is its own canonical form (no image is lexicographically smaller).

    %(placements)s

    Returns
    -------
    bool or numpy.ndarray of bool, shape (k,)

    %(placements_raise)s

    Examples
    --------
    >>> is_canonical([1, 3, 0, 2]), is_canonical([2, 0, 3, 1])
    (True, False)
    """
    batch, single = _check_placements(queens)
    imgs = _all_images(batch)
    smaller = np.zeros(len(batch), dtype=bool)
    for j in range(1, len(D4)):
        smaller |= _lex_less(imgs[:, j], batch)
    out = ~smaller
    return bool(out[0]) if single else out
