"""Atomic file replacement: write beside the target, then rename over it."""
import errno
import glob
import os
import stat
import tempfile
from contextlib import contextmanager

__all__ = ["atomic_file", "probe_directory", "remove_stale_temporaries"]


def _temporary_prefix(path):
    return "." + os.path.basename(path) + "."


def _new_file_mode(path):
    """The mode of ``path`` if it exists, else what ``open`` would give a new file."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def atomic_file(path, binary=False):
    """Open a temporary file beside ``path``; on success, flush it to disk and rename it.

    The file keeps the mode of the file it replaces (or gets the default for a new one),
    a symbolic link is followed (its target is replaced), and on any error or interruption
    the temporary file is removed and ``path`` is left as it was. A target that exists and
    is not a regular file (a pipe, ``/dev/stdout``, a device) is written directly: it cannot
    be replaced. A directory, or an empty path, raises before anything is written.
    """
    name = os.fsdecode(os.fspath(path))
    mode, options = ("wb", {}) if binary else ("w", {"encoding": "utf-8"})
    if not name:
        raise FileNotFoundError(errno.ENOENT, "an empty path names no file", name)
    try:
        kind = os.stat(name).st_mode
    except OSError:
        kind = None
    if kind is not None and stat.S_ISDIR(kind):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    if kind is not None and not stat.S_ISREG(kind):
        with open(name, mode, **options) as file:
            yield file
        return
    target = os.path.realpath(name)
    directory = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(target), suffix=".tmp",
                                   dir=directory)
    except OSError as exc:  # name the file asked for, not the temporary one
        raise type(exc)(exc.errno, exc.strerror, name) from None
    try:
        os.chmod(tmp, _new_file_mode(target))
        with os.fdopen(fd, mode, **options) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def probe_directory(path):
    """Create and remove a temporary file beside ``path``; raises ``OSError`` if it fails."""
    target = os.path.realpath(os.fsdecode(os.fspath(path)))
    fd, probe = tempfile.mkstemp(prefix=_temporary_prefix(target), suffix=".tmp",
                                 dir=os.path.dirname(target))
    os.close(fd)
    os.unlink(probe)


def remove_stale_temporaries(path):
    """Remove temporary files that a killed writer of ``path`` left beside it."""
    target = os.path.realpath(os.fsdecode(os.fspath(path)))
    pattern = os.path.join(glob.escape(os.path.dirname(target)),
                           glob.escape(_temporary_prefix(target)) + "*.tmp")
    for stale in glob.glob(pattern):
        try:
            os.unlink(stale)
        except OSError:
            pass
