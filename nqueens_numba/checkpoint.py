"""Checkpoint files of long counts: finished subproblems and their counts, as JSON.

A checkpoint records which subproblems of one split (board order, method, prefix depth and a
hash of the subproblem array) are finished and what each counted. It is rewritten atomically
(a temporary file in the same directory, flushed to disk, then renamed over the old one), so
a crash or ``kill -9`` leaves either the previous or the new version, never a torn file.
Pure Python; imports nothing else from the package.

The file, version 1::

    {"format": "nqueens_numba checkpoint", "version": 1,
     "split": {"n": 15, "method": "symmetric", "prefix_depth": 3, "n_subproblems": 871,
               "subproblems_sha256": "..."},
     "finished": [[index, count, ...], ...],
     "complete": false, "updated": "2026-11-29T21:46:34+00:00"}
"""
import json
import os
import tempfile
from datetime import datetime, timezone

__all__ = ["Checkpoint", "CheckpointError"]

FORMAT = "nqueens_numba checkpoint"
VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint file that is damaged or belongs to another count."""


class Checkpoint:
    """The checkpoint of one count: load what a file holds, record progress, save atomically.

    Parameters
    ----------
    path : str or os.PathLike
        The checkpoint file. It need not exist; its directory must.
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
        self.path = os.fspath(path)
        self.split = dict(split)
        self.width = int(width)
        self.finished = {}
        self.complete = False
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise CheckpointError(f"checkpoint {self.path!r}: directory {directory!r} "
                                  f"does not exist")
        if os.path.exists(self.path):
            self._load()

    def _damaged(self, why):
        return CheckpointError(f"checkpoint {self.path!r} is damaged or is not a checkpoint "
                               f"of nqueens_numba ({why}); it was left unchanged: move or "
                               f"delete it to start a new count")

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._damaged(f"{type(exc).__name__}: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise self._damaged("no 'format' field naming it")
        if data.get("version") != VERSION:
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
        n_subproblems = self.split.get("n_subproblems")
        finished = data.get("finished")
        if not isinstance(finished, list):
            raise self._damaged("'finished' is not a list")
        for entry in finished:
            if (not isinstance(entry, list) or len(entry) != 1 + self.width
                    or not all(type(v) is int for v in entry)
                    or not 0 <= entry[0] < n_subproblems or min(entry[1:]) < 0):
                raise self._damaged(f"bad entry {entry!r} in 'finished'")
            self.finished[entry[0]] = tuple(entry[1:])
        self.complete = len(self.finished) == n_subproblems

    def record(self, index, counts):
        """Record the counts of finished subproblem ``index``."""
        self.finished[int(index)] = tuple(int(c) for c in counts)

    def save(self):
        """Write the checkpoint: a temporary file beside it, flushed, then renamed over it."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "split": self.split,
            "finished": [[i, *c] for i, c in sorted(self.finished.items())],
            "complete": len(self.finished) == self.split.get("n_subproblems"),
            "updated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, tmp = tempfile.mkstemp(prefix=".nqueens-checkpoint-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                json.dump(data, file, separators=(",", ":"))
                file.write("\n")
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _describe(split):
    if not isinstance(split, dict):
        return repr(split)
    return ", ".join(f"{key}={value!r}" for key, value in split.items()
                     if key != "subproblems_sha256")
