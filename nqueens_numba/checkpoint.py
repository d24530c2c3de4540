"""Checkpoint files of long counts: finished subproblems and their counts, as JSON.

A checkpoint records which subproblems of one split (board order, method, prefix depth and a
hash of the subproblem array) are finished and what each counted, with a SHA-256 checksum of
that record. It is rewritten atomically (a temporary file beside it, flushed to disk, then
renamed over it), so a crash or ``kill -9`` leaves either the previous or the new version,
never a torn file. Imports nothing else from the package but its file helper.

The file, version 1::

    {"format": "nqueens_numba checkpoint", "version": 1,
     "split": {"n": 15, "method": "symmetric", "prefix_depth": 3, "n_subproblems": 871,
               "subproblems_sha256": "..."},
     "finished": [[index, count, ...], ...],
     "sha256": "...", "complete": false, "updated": "2026-11-29T21:46:34+00:00"}
"""
import hashlib
import json
import os
from datetime import datetime, timezone

import numpy as np

from ._files import atomic_file, probe_directory, remove_stale_temporaries

__all__ = ["Checkpoint", "CheckpointError", "split_record", "recorded_depth"]

FORMAT = "nqueens_numba checkpoint"
VERSION = 1
_INT64_MAX = 2**63 - 1


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: damaged, of another count, or not writable."""


def _checksum(split, finished):
    text = json.dumps([split, finished], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Checkpoint:
    """The checkpoint of one count: load what a file holds, record progress, save atomically.

    Parameters
    ----------
    path : str, bytes or os.PathLike
        The checkpoint file. It need not exist; its directory must, and must be writable
        (checked at once). A symbolic link is followed.
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
    """

    def __init__(self, path, split, width):
        self.path = os.fsdecode(os.fspath(path))
        self.split = dict(split)
        self.width = int(width)
        self.finished = {}
        if not self.path:
            raise CheckpointError("checkpoint path is empty")
        target = os.path.realpath(self.path)
        directory = os.path.dirname(target)
        if os.path.isdir(target):
            raise CheckpointError(f"checkpoint {self.path!r} is a directory")
        if not os.path.isdir(directory):
            raise CheckpointError(f"checkpoint {self.path!r}: directory {directory!r} "
                                  f"does not exist")
        try:  # a real write: permission bits do not tell everything (root, read-only mounts)
            probe_directory(target)
        except OSError as exc:
            raise CheckpointError(f"checkpoint {self.path!r}: cannot write in directory "
                                  f"{directory!r} ({exc.strerror})") from None
        if os.path.exists(target):
            if not os.path.isfile(target):  # a pipe or a device: reading it could block
                raise CheckpointError(f"checkpoint {self.path!r} is not a regular file")
            if not os.access(target, os.R_OK):
                raise CheckpointError(f"checkpoint {self.path!r} is not readable")
            self._load(target)
        remove_stale_temporaries(target)

    @property
    def complete(self):
        """Whether every subproblem is recorded."""
        return len(self.finished) == self.split.get("n_subproblems")

    def _damaged(self, why):
        return CheckpointError(f"checkpoint {self.path!r} is damaged or is not a checkpoint "
                               f"of nqueens_numba ({why}); it was left unchanged: move or "
                               f"delete it to start a new count")

    def _load(self, target):
        try:
            with open(target, encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise self._damaged(f"{type(exc).__name__}: {str(exc)[:200]}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise self._damaged("no 'format' field naming it")
        if type(data.get("version")) is not int or data.get("version") != VERSION:
            raise self._damaged(f"version {data.get('version')!r}, expected {VERSION}")
        split = data.get("split")
        if split != self.split:
            theirs, ours = _describe(split), _describe(self.split)
            if theirs == ours:
                theirs += " with other subproblems (another version of nqueens_numba?)"
            raise CheckpointError(
                f"checkpoint {self.path!r} belongs to another count: it was written for "
                f"{theirs}; this count is {ours}. It was left unchanged: use another file, "
                f"or the arguments it was written with")
        finished = data.get("finished")
        if not isinstance(finished, list):
            raise self._damaged("'finished' is not a list")
        if data.get("sha256") != _checksum(split, finished):
            raise self._damaged("its checksum does not match its content")
        n_subproblems = self.split.get("n_subproblems")
        for entry in finished:
            if (not isinstance(entry, list) or len(entry) != 1 + self.width
                    or not all(type(v) is int for v in entry)
                    or not 0 <= entry[0] < n_subproblems
                    or not all(0 <= v <= _INT64_MAX for v in entry[1:])):
                raise self._damaged(f"bad entry {str(entry)[:100]} in 'finished'")
            if entry[0] in self.finished:
                raise self._damaged(f"subproblem {entry[0]} recorded twice")
            self.finished[entry[0]] = tuple(entry[1:])

    def record(self, index, counts):
        """Record the counts of finished subproblem ``index``."""
        self.finished[int(index)] = tuple(int(c) for c in counts)

    def save(self):
        """Write the checkpoint: a temporary file beside it, flushed, then renamed over it."""
        finished = [[i, *c] for i, c in sorted(self.finished.items())]
        data = {
            "format": FORMAT,
            "version": VERSION,
            "split": self.split,
            "finished": finished,
            "sha256": _checksum(self.split, finished),
            "complete": self.complete,
            "updated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        with atomic_file(self.path) as file:
            json.dump(data, file, separators=(",", ":"))
            file.write("\n")


def split_record(n, method, depth, states, results=None, constraints_sha256=None):
    """What identifies a split in a checkpoint file (its ``"split"`` field).

    JSON-serialisable: the board order, method and prefix depth, the number of subproblems
    and a hash of their ``(n_states, 3 + depth)`` int64 array; ``results`` names what each
    subproblem records when it is more than one count, ``constraints_sha256`` identifies the
    constraints of a constrained count.
    """
    split = {
        "n": int(n),
        "method": method,
        "prefix_depth": int(depth),
        "n_subproblems": int(len(states)),
        "subproblems_sha256": hashlib.sha256(np.ascontiguousarray(states).tobytes()).hexdigest(),
    }
    if results is not None:
        split["results"] = list(results)
    if constraints_sha256 is not None:
        split["constraints_sha256"] = constraints_sha256
    return split


def recorded_depth(path, n, method):
    """The prefix depth the checkpoint at ``path`` was written with, if it records a split of
    ``n`` by ``method``; else ``None``.

    Used to resume with the split a file was written with. ``None`` also when there is no
    such regular file yet or it cannot be read: opening it with :class:`Checkpoint` reports
    what is wrong.
    """
    if path is None or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as file:
            split = json.load(file).get("split")
        if split.get("n") != n or split.get("method") != method:
            return None
        depth = split.get("prefix_depth")
    except (OSError, ValueError, AttributeError, RecursionError):
        return None  # a damaged file: Checkpoint reports it
    return depth if type(depth) is int else None


def _describe(split):
    if not isinstance(split, dict):
        return repr(split)
    return ", ".join(f"{key}={value!r}" for key, value in split.items()
                     if key != "subproblems_sha256")
