"""Writing solutions to files, chunk by chunk: NumPy ``.npy``, text boards, JSON and CSV.

Takes an iterable of ``(k, n)`` int8 chunks, so that sets of solutions larger than memory can
be written; computes nothing. A path is written atomically: into a temporary file beside it,
renamed over the target only when complete, and removed if the writing fails or is
interrupted, so the target never holds a partial file.
"""
import io
import os
import stat
import sys

import numpy as np

from ._files import atomic_file
from .render import format_text
from .render.text import board_rows

__all__ = ["FORMATS", "SUFFIXES", "format_for", "is_binary", "write_solutions"]

#: Output formats and whether they are binary.
FORMATS = {"npy": True, "text": False, "json": False, "csv": False}

#: File name suffixes (lower case) and the format they stand for.
SUFFIXES = {".npy": "npy", ".txt": "text", ".json": "json", ".csv": "csv"}


def is_binary(file):
    """Whether an open file takes bytes (``True``) or text (``False``); ``None`` for a path
    or when it cannot be told."""
    if isinstance(file, (str, bytes, os.PathLike)):
        return None
    if isinstance(file, io.TextIOBase):
        return False
    if isinstance(file, (io.RawIOBase, io.BufferedIOBase)):
        return True
    mode = getattr(file, "mode", None)
    return ("b" in mode) if isinstance(mode, str) else None


def format_for(target):
    """The format a file name's suffix stands for (see :data:`SUFFIXES`), or ``None``.

    ``target`` is a path or an open file (its ``name``, if it has a string one, is used).
    """
    name = target if isinstance(target, (str, bytes, os.PathLike)) else getattr(
        target, "name", None)
    if not isinstance(name, (str, bytes, os.PathLike)):
        return None
    suffix = os.path.splitext(os.fsdecode(name))[1].lower()
    return SUFFIXES.get(suffix)


def write_solutions(target, chunks, n, fmt, total=None, *, whole=False):
    """Write chunks of solutions to ``target`` in format ``fmt``; return how many were written.

    Parameters
    ----------
    target : str, os.PathLike or file object
        A path (written atomically) or an open file: binary for ``"npy"``, text otherwise.
    chunks : iterable of numpy.ndarray, shape (k, n), dtype int8
    n : int
        Board order (the width of every chunk).
    fmt : {"npy", "text", "json", "csv"}
        ``"npy"``: one ``(total, n)`` int8 array (``numpy.load`` reads it); ``"text"``: ``n``
        lines of ``.``/``Q`` per board and a blank line after each; ``"json"``: the LeetCode
        list of boards; ``"csv"``: one solution per line, its columns separated by commas.
    total : int, optional
        Number of solutions, required by ``"npy"`` (its header gives the shape first).
    whole : bool, optional
        Write the text formats to the process's own standard output, when it is a pipe, in
        writes of whole solutions that a pipe takes whole or not at all (:func:`ends_whole`),
        so that an interruption leaves no solution cut in half there.

    Raises
    ------
    ValueError
        If ``fmt`` is unknown, ``"npy"`` lacks ``total``, or the chunks do not add up to
        ``total``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt == "npy" and total is None:
        raise ValueError("the npy format needs the number of solutions beforehand")
    if not isinstance(target, (str, bytes, os.PathLike)):
        if not callable(getattr(target, "write", None)):
            raise TypeError(f"target must be a path or an open file, got "
                            f"{type(target).__name__}")
        binary = is_binary(target)
        if binary is not None and binary != FORMATS[fmt]:
            raise TypeError(f"format {fmt!r} is written to a file opened in "
                            f"{'binary' if FORMATS[fmt] else 'text'} mode; this one is in "
                            f"{'binary' if binary else 'text'} mode")
        return _write(target, chunks, n, fmt, total, _raw_pipe(target) if whole else None)
    with atomic_file(target, binary=FORMATS[fmt]) as file:
        written = _write(file, chunks, n, fmt, total, None)
    return written


#: Solutions formatted at once in the text formats (each takes about three times its text
#: while it is built: 54 MB for boards of n = 16).
_TEXT_ROWS = 65_536

#: The columns as they stand in a CSV line: before a comma, and last on the line (``S3``).
_CSV_FIELDS = np.array([f"{c}," for c in range(128)], dtype="S3")
_CSV_LAST = np.array([f"{c}\n" for c in range(128)], dtype="S3")


def _csv_lines(chunk):
    """The CSV lines of a ``(k, n)`` int8 chunk, built as one array (a line per solution:
    ``"1,3,0,2\n"``)."""
    k, n = chunk.shape
    if n == 0:
        return "\n" * k
    fields = np.empty((k, n), dtype="S3")
    fields[:, :-1] = _CSV_FIELDS[chunk[:, :-1]]
    fields[:, -1] = _CSV_LAST[chunk[:, -1]]
    return fields.tobytes().replace(b"\0", b"").decode("ascii")  # (one-digit columns' pad)


def _json_boards(chunk):
    """The boards of a ``(k, n)`` int8 chunk (``k >= 1``) as JSON lists of strings, joined by
    ``", "``, built as one array: what ``", ".join(map(json.dumps, to_boards(chunk)))``
    gives."""
    k, n = chunk.shape
    if n == 0:
        return ", ".join(["[]"] * k)
    rows = board_rows(chunk).view(np.uint8).reshape(k, n, n)
    step = n + 4  # a row and the '", "' after it
    boards = np.empty((k, 2 + n * step), dtype=np.uint8)
    boards[:, :2] = np.frombuffer(b'["', dtype=np.uint8)
    segments = boards[:, 2:].reshape(k, n, step)
    segments[:, :, :n] = rows
    segments[:, :, n:] = np.frombuffer(b'", "', dtype=np.uint8)
    boards[:, -4:] = np.frombuffer(b'"], ', dtype=np.uint8)  # the last row's end, the next
    return boards.tobytes()[:-2].decode("ascii")              # board's separator


def _write(file, chunks, n, fmt, total, pipe):
    """Write ``chunks`` to ``file``; the text formats in whole solutions straight to the file
    descriptor ``pipe`` if given (:func:`_raw_pipe`)."""
    written = 0
    if fmt == "npy":
        np.lib.format.write_array_header_2_0(
            file, {"descr": np.dtype(np.int8).str, "fortran_order": False,
                   "shape": (int(total), int(n))})
    elif fmt == "json":
        file.write("[")
    for chunk in chunks:
        chunk = np.ascontiguousarray(chunk, dtype=np.int8)
        if chunk.ndim != 2 or chunk.shape[1] != n:
            raise ValueError(f"expected chunks of shape (k, {n}), got {chunk.shape}")
        if fmt == "npy":
            if written + len(chunk) > total:
                raise ValueError(f"more than the {total} solutions announced")
            file.write(chunk.tobytes())
        else:  # in parts: the text of a chunk of 10**6 boards of n = 16 would take 0.8 GB
            for start in range(0, len(chunk), _TEXT_ROWS):
                part = chunk[start:start + _TEXT_ROWS]
                if fmt == "text":
                    _write_records(file, pipe, format_text(part), part, fmt)
                elif fmt == "json":
                    file.write((", " if written or start else "") + _json_boards(part))
                else:
                    _write_records(file, pipe, _csv_lines(part), part, fmt)
        written += len(chunk)
    if fmt == "json":
        file.write("]\n")
    if fmt == "npy" and written != total:
        raise ValueError(f"wrote {written} solutions, the header announced {total}")
    return written


#: The most a write to a pipe takes whole or not at all (POSIX: at least 512 bytes).
_PIPE_BUF = getattr(__import__("select"), "PIPE_BUF", 512)


def _line_ends(part, fmt):
    """Where each solution's text ends in the text (``"text"``) or CSV of ``part``, a
    ``(k, n)`` int8 chunk: ``(k,)`` int64 offsets, increasing."""
    k, n = part.shape
    if fmt == "text":
        size = np.full(k, n * (n + 1) + 1, dtype=np.int64)  # n lines and a blank one
    else:  # a digit or two per column, a comma or the line's end after each
        size = (part >= 10).sum(axis=1, dtype=np.int64) + 2 * n if n else np.ones(k, np.int64)
    return np.cumsum(size)


def _raw_pipe(file):
    """The file descriptor of ``file`` if it is the process's own standard output, a pipe,
    whose text goes out unchanged as ASCII bytes (an ASCII-compatible encoding, and
    ``"\n"`` line ends as Python opens it on POSIX), else ``None``: only there may the
    text formats bypass the text stream (a user's file object keeps its encoding, newlines
    and wrappers)."""
    sample = "\n.Q,0123456789"
    try:
        if (file is not sys.__stdout__ or os.linesep != "\n"
                or sample.encode(file.encoding) != sample.encode("ascii")):
            return None
        fd = file.fileno()
        return fd if stat.S_ISFIFO(os.fstat(fd).st_mode) else None
    except (AttributeError, LookupError, OSError, ValueError, TypeError):
        return None


def ends_whole(file):
    """Whether text written to ``file`` with ``whole=True`` ends on a whole solution when a
    signal interrupts it: a regular file (its writes are not cut by signals) or a pipe that
    :func:`_raw_pipe` takes; not a terminal or a file object of another kind."""
    try:
        mode = os.fstat(file.fileno()).st_mode
    except (AttributeError, OSError, ValueError, TypeError):
        return False
    return stat.S_ISREG(mode) or _raw_pipe(file) is not None


def _write_records(file, pipe, text, part, fmt):
    """Write ``text``, the solutions ``part`` in format ``fmt``, to ``file``; to the pipe
    ``pipe`` (a file descriptor, :func:`_raw_pipe`) in writes of whole solutions of at most
    ``_PIPE_BUF`` bytes, each of which a pipe takes whole or not at all: a Ctrl-C while the
    reader is behind (``nqueens solve 16 | cat``) leaves whole solutions on the pipe, where
    a large write cut by the signal ended the output inside a board (one run in three). A
    board of n = 63 takes 4,033 bytes."""
    if pipe is None:
        file.write(text)
        return
    file.flush()
    ends = _line_ends(part, fmt)
    data = memoryview(text.encode("ascii"))
    start = 0
    while start < len(data):
        at = int(np.searchsorted(ends, start + _PIPE_BUF, side="right")) - 1
        if at < 0 or ends[at] <= start:  # the next solution alone is larger: it alone
            at = int(np.searchsorted(ends, start, side="right"))
        stop = int(ends[at]) if at < len(ends) else len(data)
        while start < stop:  # (a pipe takes up to _PIPE_BUF bytes whole, more maybe not)
            start += os.write(pipe, data[start:stop])
