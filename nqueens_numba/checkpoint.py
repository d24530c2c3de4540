"""Checkpoint files of long counts: finished subproblems, searches in progress, as JSON.

A checkpoint records, for one split (board order, method, prefix depth and a hash of the
subproblem array), what each finished subproblem counted and the explicit stacks of the
searches in progress, so that a resumed count loses at most the last save interval of each
thread. A SHA-256 checksum covers the record. The file is rewritten atomically (a temporary
file beside it, flushed to disk, then renamed over it), so a crash or ``kill -9`` leaves
either the previous or the new version, never a torn file. Imports nothing else from the
package but its file helper.

The file, version 2::

    {"format": "nqueens_numba checkpoint", "version": 2,
     "split": {"n": 15, "method": "symmetric", "prefix_depth": 3, "n_subproblems": 871,
               "subproblems_sha256": "..."},
     "finished": [[index, count, ...], ...],
     "in_progress": [[index, [settled, ...], [[level, [partial, ...], [[free, cols, diag,
                      anti], ...]], ...]], ...],
     "partial_count": 123456, "fraction_done": 0.0421,
     "sha256": "...", "complete": false, "updated": "2026-11-29T21:46:34+00:00"}

An entry of ``in_progress`` is a subproblem whose search was under way: what its finished
parts counted (``settled``) and its pieces (the level being searched, what the piece has
counted, and its stack, one row per level). ``partial_count`` is the number of solutions the
recorded work stands for, ``fraction_done`` an estimate of the share of the count done.
Version 1 files (no ``in_progress``) are still read.
"""
import errno
import hashlib
import json
import os
from datetime import datetime, timezone

import numpy as np

from . import _validate, config
from ._files import atomic_file, lock_beside, probe_directory, remove_stale_temporaries, unlock

__all__ = ["Checkpoint", "CheckpointError", "status", "split_record", "recorded_depth",
           "describe_constraints"]

FORMAT = "nqueens_numba checkpoint"
VERSION = 2
_READABLE_VERSIONS = (1, 2)
_INT64_MAX = 2**63 - 1
#: Largest count a file may record: sums of a few stay within int64 (real counts are far
#: smaller).
_COUNT_MAX = 2**62
_INT64_MIN = -2**63


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: damaged, of another count, or not writable."""


def _checksum(data, early=False):
    """The checksum of a checkpoint's content ``data`` (a dict): of every field but
    ``sha256`` and ``updated`` (version 1: of ``split`` and ``finished`` only; ``early``:
    the checksum of the first version 2 files, of ``split``, ``finished`` and
    ``in_progress``)."""
    if data.get("version") == 1:
        record = [data.get("split"), data.get("finished")]
    elif early:
        record = [data.get("split"), data.get("finished"), data.get("in_progress")]
    else:
        record = {key: value for key, value in data.items() if key not in ("sha256", "updated")}
    text = json.dumps(record, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _is_int(value, low, high):
    return type(value) is int and low <= value <= high


def _counts_ok(values, width):
    return (isinstance(values, list) and len(values) == width
            and all(_is_int(v, 0, _COUNT_MAX) for v in values))


def _read(path, why_damaged, check_split=None):
    """The validated content of a checkpoint file: ``(data, finished, in_progress)`` with
    ``finished`` a dict of index to counts and ``in_progress`` a dict of index to
    ``(settled, [(level, partial, stack), ...])``. ``why_damaged(text)`` makes the error;
    ``check_split(split)``, called once the file is known to be an intact checkpoint, may
    refuse its split."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise why_damaged(f"{type(exc).__name__}: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise why_damaged("no 'format' field naming it")
    version = data.get("version")
    if type(version) is not int or version not in _READABLE_VERSIONS:
        raise why_damaged(f"version {version!r}, expected one of {_READABLE_VERSIONS}")
    split = data.get("split")
    if not isinstance(split, dict) or not _is_int(split.get("n_subproblems"), 0, _INT64_MAX) \
            or not _is_int(split.get("n"), 0, config.MAX_N):
        raise why_damaged("no valid 'split' field")
    finished = data.get("finished")
    if not isinstance(finished, list):
        raise why_damaged("'finished' is not a list")
    in_progress = data.get("in_progress") if version >= 2 else None
    if version >= 2 and not isinstance(in_progress, list):
        raise why_damaged("'in_progress' is not a list")
    if data.get("sha256") != _checksum(data):
        if version == 2 and data.get("sha256") == _checksum(data, early=True):
            data.pop("partial_count", None)  # not covered by that checksum
            data.pop("fraction_done", None)
        else:
            raise why_damaged("its checksum does not match its content")
    if check_split is not None:  # (a file edited by hand is damaged, not another count's)
        check_split(split)
    results = split.get("results")
    if results is not None and (not isinstance(results, list) or not results
                                or not all(isinstance(r, str) for r in results)):
        raise why_damaged("'results' of its split is not a list of names")
    n_subproblems = split["n_subproblems"]
    width = len(split.get("results") or ()) or 1
    done = {}
    for entry in finished:
        if (not isinstance(entry, list) or len(entry) != 1 + width
                or not _is_int(entry[0], 0, n_subproblems - 1)
                or not _counts_ok(entry[1:], width)):
            raise why_damaged(f"bad entry {str(entry)[:100]} in 'finished'")
        if entry[0] in done:
            raise why_damaged(f"subproblem {entry[0]} recorded twice")
        done[entry[0]] = tuple(entry[1:])
    going = {}
    for entry in in_progress or ():
        if (not isinstance(entry, list) or len(entry) != 3
                or not _is_int(entry[0], 0, n_subproblems - 1)
                or not _counts_ok(entry[1], width) or not isinstance(entry[2], list)
                or not entry[2] or not all(_piece_ok(p, width, split["n"]) for p in entry[2])):
            raise why_damaged(f"bad entry {str(entry)[:100]} in 'in_progress'")
        if entry[0] in done or entry[0] in going:
            raise why_damaged(f"subproblem {entry[0]} recorded twice")
        going[entry[0]] = (tuple(entry[1]), [(p[0], tuple(p[1]), p[2]) for p in entry[2]])
    return data, done, going


def _piece_ok(piece, width, n):
    """The form of a piece: ``[level, partial, stack]`` (what it means is checked against
    the split by the count that resumes it)."""
    return (isinstance(piece, list) and len(piece) == 3 and _is_int(piece[0], 0, n)
            and _counts_ok(piece[1], width) and isinstance(piece[2], list)
            and len(piece[2]) == piece[0] + 1
            and all(isinstance(row, list) and len(row) == 4
                    and all(_is_int(v, _INT64_MIN, _INT64_MAX) for v in row)
                    for row in piece[2]))


def _check_stat(name, target):
    """``CheckpointError`` naming ``name`` if ``target`` is a loop of symbolic links (which
    the checks of a missing file or directory would take for a new file)."""
    try:
        os.stat(target)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CheckpointError(f"checkpoint {name!r}: {exc.strerror}") from None


class Checkpoint:
    """The checkpoint of one count: load what a file holds, record progress, save atomically.

    Parameters
    ----------
    path : str, bytes or os.PathLike
        The checkpoint file. It need not exist; its directory must, and must be writable
        (checked at once). A symbolic link is followed. One run per file at a time: the
        file is locked (a lock file ``.NAME.lock`` beside it, locked with ``flock`` where the
        system has it) until :meth:`close`; another run raises :class:`CheckpointError`.
    split : dict
        What identifies the count: JSON-serialisable values (board order, method, prefix
        depth, number and hash of the subproblems). A file written for another split raises
        :class:`CheckpointError` and is left as it is.
    width : int
        Counts recorded per subproblem.

    Attributes
    ----------
    finished : dict of int to tuple of int
        Counts of the finished subproblems, by index.
    in_progress : dict of int to (tuple of int, list)
        The subproblems whose search was in progress when the file was written, by index:
        what their finished parts counted, and their pieces ``(level, partial, stack)``
        (``stack``: ``level + 1`` rows of 4 ints).
    """

    def __init__(self, path, split, width):
        self.path = os.fsdecode(os.fspath(path))
        self.split = dict(split)
        self.width = int(width)
        self.finished = {}
        self.in_progress = {}
        self._in_progress_record = []
        self._summary = {}
        self._lock = None
        if not self.path:
            raise CheckpointError("checkpoint path is empty")
        target = os.path.realpath(self.path)
        directory = os.path.dirname(target)
        _check_stat(self.path, target)
        if os.path.isdir(target):
            raise CheckpointError(f"checkpoint {self.path!r} is a directory")
        if os.path.exists(self.path) and not os.path.isfile(self.path):  # (a pipe, a device;
            # /dev/stdout's link names no path, but the stream behind it is one of those)
            raise CheckpointError(f"checkpoint {self.path!r} is not a regular file")
        if not os.path.isdir(directory):
            why = (f"{directory!r} is not a directory" if os.path.exists(directory)
                   else f"directory {directory!r} does not exist")
            raise CheckpointError(f"checkpoint {self.path!r}: {why}")
        try:  # a real write: permission bits do not tell everything (root, read-only mounts)
            probe_directory(target)
        except OSError as exc:
            raise CheckpointError(f"checkpoint {self.path!r}: cannot write in directory "
                                  f"{directory!r} ({exc.strerror})") from None
        self._original = None  # the file's bytes when opened (see restore)
        self._final = False
        self.saved = False  # whether the file holds some of this count (see save)
        try:  # (whatever stops the opening once the lock is taken releases it: a Ctrl-C too)
            try:
                self._lock = lock_beside(target)
            except BlockingIOError:
                raise CheckpointError(f"checkpoint {self.path!r} is in use by another count "
                                      f"running now (one run per file at a time)") from None
            except OSError as exc:
                raise CheckpointError(f"checkpoint {self.path!r}: cannot lock it "
                                      f"({exc.strerror or exc})") from None
            if os.path.exists(target):
                if not os.path.isfile(target):  # a pipe or a device: reading it could block
                    raise CheckpointError(f"checkpoint {self.path!r} is not a regular file")
                if not os.access(target, os.R_OK):
                    raise CheckpointError(f"checkpoint {self.path!r} is not readable")
                with open(target, "rb") as file:
                    self._original = file.read()
                self._load(target)
                self.saved = True
                self._final = self.complete  # (saved as complete: its time stays)
            remove_stale_temporaries(target)
        except BaseException:
            self.close()
            raise

    def restore(self):
        """Put the file back as it was when opened (removed if there was none): for a count
        whose results turn out not to add up, which must not leave them saved as a
        complete count."""
        if self._original is None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            return
        with atomic_file(self.path, binary=True, keep_on_stop=True) as file:
            file.write(self._original)

    def close(self):
        """Release the file for other runs (the lock taken when it was opened)."""
        unlock(self._lock)
        self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def complete(self):
        """Whether every subproblem is recorded."""
        return len(self.finished) == self.split.get("n_subproblems")

    def check_in_progress(self, check):
        """Validate the searches in progress the file holds, before anything trusts them.

        ``check(index, settled, pieces)`` gets each entry of :attr:`in_progress` and returns
        ``None`` to accept it, or the reason it is no search of this count (a str). A
        reason raises :class:`CheckpointError` (the file is damaged), and the file is left
        unchanged.
        """
        for index, (settled, pieces) in self.in_progress.items():
            why = check(index, settled, pieces)
            if why is not None:
                raise self._damaged(f"subproblem {index}: {why}")

    def _damaged(self, why):
        return CheckpointError(f"checkpoint {self.path!r} is damaged or is not a checkpoint "
                               f"of nqueens_numba ({why}); it was left unchanged: move or "
                               f"delete it to start a new count")

    def _load(self, target):
        def check_split(split):
            if _identity(split) != _identity(self.split):
                boards = isinstance(split, dict) and "board" in {*split, *self.split}
                theirs, ours = _describe(split, boards), _describe(self.split, boards)
                if theirs == ours and isinstance(split, dict):
                    if split.get("constraints_sha256") != self.split.get("constraints_sha256"):
                        theirs += " (other ones)"
                    else:
                        theirs += (" with other subproblems or results (blocked squares "
                                   "or pre-placed queens that allow the same squares but "
                                   "split otherwise, or another version of nqueens_numba)")
                raise CheckpointError(
                    f"checkpoint {self.path!r} belongs to another count: it was written for "
                    f"{theirs}; this count is {ours}. It was left unchanged: use another "
                    f"file, or the arguments it was written with")

        _, finished, in_progress = _read(target, self._damaged, check_split)
        self.finished = finished
        self.in_progress = in_progress

    def record(self, index, counts):
        """Record the counts of finished subproblem ``index``."""
        self.finished[int(index)] = tuple(int(c) for c in counts)

    def progress(self, in_progress, partial_count, fraction_done):
        """Set what the next :meth:`save` records besides the finished subproblems: the
        searches in progress, ``[(index, settled, [(level, partial, stack), ...]), ...]``
        (``stack``: ``(level + 1, 4)`` int64), and the summary of the count so far."""
        self._in_progress_record = [
            [int(i), [int(c) for c in settled],
             [[int(level), [int(c) for c in partial], np.asarray(stack).tolist()]
              for level, partial, stack in pieces]]
            for i, settled, pieces in sorted(in_progress, key=lambda entry: entry[0])]
        self._summary = {"partial_count": int(partial_count),
                         "fraction_done": float(fraction_done)}

    def snapshot(self):
        """What :meth:`save` writes, as cheap copies: take it under the lock that guards
        :meth:`record` and :meth:`progress`, and save it outside."""
        return list(self.finished.items()), self._in_progress_record, dict(self._summary)

    def save(self, snapshot=None):
        """Write the checkpoint (``snapshot`` if given, else what is recorded now): a
        temporary file beside it, flushed, then renamed over it. A file complete when
        opened is not written again: nothing in it can change, and ``updated`` keeps the
        time the count finished."""
        if self._final:
            return
        items, in_progress, summary = self.snapshot() if snapshot is None else snapshot
        finished = [[i, *c] for i, c in sorted(items)]
        data = {
            "format": FORMAT,
            "version": VERSION,
            "split": self.split,
            "finished": finished,
            "in_progress": in_progress,
            **summary,
            "complete": len(finished) == self.split.get("n_subproblems"),
        }
        data["sha256"] = _checksum(data)
        data["updated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with atomic_file(self.path, keep_on_stop=True) as file:
            json.dump(data, file, separators=(",", ":"))
            file.write("\n")
        self.saved = True


def status(path):
    """How far the count recorded in a checkpoint file has come.

    Parameters
    ----------
    path : str, bytes or os.PathLike
        A checkpoint file written by ``count_solutions(..., checkpoint=path)`` or
        ``nqueens count --checkpoint``, possibly by a run still going or one that was killed.

    Returns
    -------
    dict
        ``n``, ``method``, ``prefix_depth``, ``board`` (``None`` for queens, else
        ``"torus"`` or ``"superqueen"``): the count; ``constrained``: whether it counts
        completions of pre-placed queens or blocked squares; ``constraints``: which, as
        ``{"preplaced": [[row, column], ...], "blocked": [[row, column], ...]}`` (``None``
        without constraints, or in a file of an earlier version, which records only their
        hash; :func:`describe_constraints` writes them as the command line takes pre-placed
        queens); ``total_subproblems``: the
        subproblems of its split; ``finished``: how many are done; ``in_progress``: how many
        have a search under way (resumed from its saved stack); ``partial_count``: the
        solutions the recorded work stands for (``None`` in a version 1 file);
        ``fraction_done``: an estimate of the share of the count done, 0 to 1 (finished
        subproblems, and the share of the searches in progress behind their stacks);
        ``complete``; ``updated``: when the file was written (ISO 8601, UTC);
        ``version``: of the file format.

    Raises
    ------
    FileNotFoundError
        If there is no such file (a count writes its checkpoint when it starts).
    CheckpointError
        (a ``ValueError``) If the file cannot be read or is damaged.

    Examples
    --------
    >>> import nqueens_numba as nq, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "n12.json")
    >>> nq.count_solutions(12, checkpoint=path)
    14200
    >>> info = nq.checkpoint.status(path)
    >>> info["n"], info["complete"], info["partial_count"], info["fraction_done"]
    (12, True, 14200, 1.0)
    """
    name = _validate.path(path, "path")
    _check_stat(name, name)
    if not os.path.exists(name):
        raise FileNotFoundError(errno.ENOENT, "no such checkpoint file", name)
    if not os.path.isfile(name):
        raise CheckpointError(f"checkpoint {name!r} is not a regular file")

    def damaged(why):
        return CheckpointError(f"checkpoint {name!r} is damaged or is not a checkpoint of "
                               f"nqueens_numba ({why})")

    data, finished, in_progress = _read(name, damaged)
    split = data["split"]
    total = split["n_subproblems"]
    fraction = data.get("fraction_done")
    if not isinstance(fraction, float) or not 0 <= fraction <= 1:
        fraction = len(finished) / total if total else 1.0
    partial = data.get("partial_count")
    if not _is_int(partial, 0, 2**128):
        partial = None
    return {
        "n": split["n"],
        "method": split.get("method"),
        "prefix_depth": split.get("prefix_depth"),
        "board": split.get("board"),
        "constrained": "constraints_sha256" in split,
        "constraints": _constraints_record(split) if "constraints_sha256" in split else None,
        "total_subproblems": total,
        "finished": len(finished),
        "in_progress": len(in_progress),
        "partial_count": partial,
        "fraction_done": 1.0 if len(finished) == total else fraction,
        "complete": len(finished) == total,
        "updated": data.get("updated"),
        "version": data["version"],
    }


def split_record(n, method, depth, states, results=None, constraints_sha256=None,
                 board_name=None, counted=None, constraints=None):
    """What identifies a split in a checkpoint file (its ``"split"`` field).

    JSON-serialisable: the board order, method and prefix depth, the number of subproblems
    and a hash of their ``(n_states, 3 + depth)`` int64 array; ``results`` names what each
    subproblem records when it is more than one count, ``constraints_sha256`` identifies the
    constraints of a constrained count, ``board_name`` the board of a variant (``"torus"``,
    ``"superqueen"``), ``counted`` how a subproblem's solutions are counted when not one by
    one (``"by least steps"``: weighted, on the torus; earlier versions counted toroidal
    subproblems one by one, and some of their subproblems look the same), ``constraints``
    the constraints themselves, for the reader (``Constraints.record``: not compared, so
    that files of earlier versions, which lack it, resume).
    """
    split = {
        "n": int(n),
        "method": method,
        "prefix_depth": int(depth),
        "n_subproblems": int(len(states)),
        "subproblems_sha256": hashlib.sha256(np.ascontiguousarray(states).tobytes()).hexdigest(),
    }
    optional = {"results": None if results is None else list(results),
                "constraints_sha256": constraints_sha256, "board": board_name,
                "counted": counted, "constraints": constraints}
    split.update((key, value) for key, value in optional.items() if value is not None)
    return split


def recorded_depth(path, n, method, board_name=None):
    """The prefix depth the checkpoint at ``path`` was written with, if it records a split of
    ``n`` by ``method`` on the board named ``board_name`` (``None``: plain queens); else
    ``None``.

    Used to resume with the split a file was written with. A missing or damaged file, or
    one of another board, gives ``None`` (opening it with :class:`Checkpoint` reports what
    is wrong).
    """
    split = _recorded_split(path, n, board_name)
    if split is None or split.get("method") != method:
        return None
    depth = split.get("prefix_depth")
    return depth if type(depth) is int else None


def recorded_method(path, n, board_name=None):
    """The counting method the checkpoint at ``path`` was written with, if it records a
    split of ``n`` on the board named ``board_name`` (``None``: plain queens); else
    ``None``. Used to resume with the file's method where none is asked for."""
    split = _recorded_split(path, n, board_name)
    method = None if split is None else split.get("method")
    return method if isinstance(method, str) else None


def _recorded_split(path, n, board_name):
    """The split record of the checkpoint at ``path`` if it is a split of ``n`` on the board
    named ``board_name``; ``None`` also when there is no such regular file yet or it cannot
    be read (opening it with :class:`Checkpoint` reports what is wrong)."""
    if path is None or not os.path.isfile(path):
        return None
    try:  # (only from an intact file: an edited record would make another split first)
        split = _read(path, CheckpointError)[0]["split"]
    except (CheckpointError, OSError):
        return None  # a damaged file: Checkpoint reports it
    if not isinstance(split, dict) or split.get("n") != n or split.get("board") != board_name:
        return None
    return split


def _identity(split):
    """What of a split record tells one count from another: all but the constraints' own
    record (for the reader; their hash is compared)."""
    if not isinstance(split, dict):
        return split
    return {key: value for key, value in split.items() if key != "constraints"}


def _describe(split, board=False):
    """The count a split record is of, in words; ``board``: naming the plain queens' board
    too (which records none)."""
    if not isinstance(split, dict):
        return repr(split)
    parts = [f"{key}={value!r}" for key, value in split.items()
             if key in ("n", "method", "prefix_depth", "board")]
    if board and "board" not in split:
        parts.append("board='queen'")
    if "constraints_sha256" in split:
        parts.append(describe_constraints(_constraints_record(split)))
    return ", ".join(parts) or repr(split)[:200]


def _constraints_record(split):
    """The constraints a split records (``Constraints.record``), or ``None`` when it records
    none or one that is not the constraints whose hash it holds (a file edited by hand)."""
    from .constraints import check_constraints

    record, n = split.get("constraints"), split["n"]

    def squares(name):  # [(row, column), ...] on the board
        found = []
        for row, column in record[name]:
            found.append((_validate.in_range(row, name, 0, n - 1),
                          _validate.in_range(column, name, 0, n - 1)))
        return found

    try:
        queens = dict(squares("preplaced"))
        blocked = np.zeros((n, n), dtype=bool)
        for square in squares("blocked"):
            blocked[square] = True
        cons = check_constraints(n, queens or None, blocked)
    except (TypeError, KeyError, ValueError, OverflowError, IndexError, AttributeError):
        return None
    if cons is None or cons.sha256 != split.get("constraints_sha256"):
        return None
    return cons.record()


def describe_constraints(record, most=8):
    """The constraints of a checkpoint's split (``Constraints.record``) in the command
    line's words (``--preplace 0:5,3:7``): ``2 pre-placed queens (0:5,3:7) and 2 blocked
    squares (1:1,2:2)``, the first
    ``most`` of each; without a record (files of earlier versions), ``pre-placed queens or
    blocked squares``."""
    try:
        queens, blocked = record["preplaced"], record["blocked"]
        parts = []
        for name, squares in (("pre-placed queen", queens), ("blocked square", blocked)):
            if squares:
                shown = ",".join(f"{int(r)}:{int(c)}" for r, c in squares[:most])
                more = ",..." if len(squares) > most else ""
                parts.append(f"{len(squares)} {name}{'s' * (len(squares) != 1)} "
                             f"({shown}{more})")
        if parts:
            return " and ".join(parts)
    except (TypeError, KeyError, ValueError, OverflowError):
        pass  # (no record, or not one this version wrote)
    return "pre-placed queens or blocked squares"
