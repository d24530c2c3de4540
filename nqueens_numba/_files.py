"""Files that survive a stop: atomic replacement (write beside the target, then rename over
it), the lock beside a checkpoint (:func:`lock_beside`), and the flag that a signal sets to
stop a write (:func:`stop_writing`)."""
import errno
import glob
import hashlib
import os
import re
import secrets
import stat
import sys
from contextlib import contextmanager

__all__ = ["atomic_file", "check_target", "probe_directory", "remove_stale_temporaries",
           "remove_pending_temporaries", "lock_beside", "unlock"]

#: Most bytes of the target's name in its temporary file's name, which adds 14 more (a dot,
#: a dot, 8 random characters, ``.tmp``), so that targets of up to 255 bytes can be written.
#: A longer name is cut and ends with a digest of the whole name, so that two targets whose
#: names begin alike never share temporary files or a lock.
_NAME_BYTES = 200

#: Temporary files being written now (and lock files held), so that a process that must end
#: at once can remove them (:func:`remove_pending_temporaries`).
_pending = set()

#: Set while a stop was asked for by a signal (the CLI's handler, :func:`stop_writing`): the
#: ``KeyboardInterrupt`` the handler raises can be swallowed (numba or llvmlite, inside a
#: finaliser), so :func:`atomic_file` checks it before putting a file in place.
_stop = set()


def stop_writing(stop=True):
    """Ask :func:`atomic_file` not to put any file in place (``stop=False``: clear that)."""
    if stop:
        _stop.add(True)
    else:
        _stop.clear()


#: Directories whose entries are not ordinary files (``/dev/stdout``, ``/proc/self/fd/1``,
#: devices): written in place, never replaced.
_SPECIAL_DIRECTORIES = ("/dev/", "/proc/")


def _temporary_prefix(target):
    """``"." + the target's name + "."``; a name of more than ``_NAME_BYTES`` bytes is cut
    to its first ``_NAME_BYTES - 17`` and ``~`` and 16 hex digits of its SHA-256."""
    name = os.fsencode(os.path.basename(target))
    if len(name) > _NAME_BYTES:
        digest = hashlib.sha256(name).hexdigest()[:16].encode()
        name = name[:_NAME_BYTES - 17] + b"~" + digest
    return "." + os.fsdecode(name) + "."


def _new_file_mode(path):
    """The mode of ``path`` if it exists, else what ``open`` would give a new file."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def check_target(path):
    """Check that ``path`` can be written, before any work; return how it will be written.

    Returns ``(name, in_place)``: the path as a ``str``, and whether it is written in place
    (a pipe, a device, anything under ``/dev`` or ``/proc`` such as ``/dev/stdout``) rather
    than replaced atomically. Raises ``OSError`` naming ``path``: ``FileNotFoundError`` for
    an empty path or a missing directory, ``IsADirectoryError`` for a directory or a path
    ending in a separator, ``ELOOP`` for a loop of symbolic links, and what creating a file
    in the directory raises (``PermissionError``, ``OSError`` for a read-only file system or
    a name that is too long).
    """
    name = os.fsdecode(os.fspath(path))
    if not name:
        raise FileNotFoundError(errno.ENOENT, "an empty path names no file", name)
    if name.endswith(("/", os.sep)):
        raise IsADirectoryError(errno.EISDIR, "a path ending in a separator names a "
                                "directory", name)
    try:
        kind = os.stat(name).st_mode
    except FileNotFoundError:
        kind = None  # a new file, or a symbolic link to one
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, name) from None
    if kind is not None and stat.S_ISDIR(kind):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    special = os.path.abspath(name).startswith(_SPECIAL_DIRECTORIES)
    if special or (kind is not None and not stat.S_ISREG(kind)):
        return name, True
    try:
        probe_directory(name)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, name) from None
    return name, False


@contextmanager
def atomic_file(path, binary=False, keep_on_stop=False):
    """Open a temporary file beside ``path``; on success, flush it to disk and rename it.

    The file keeps the mode of the file it replaces (or gets the default for a new one),
    a symbolic link is followed (its target is replaced), and on any error or interruption
    the temporary file is removed and ``path`` is left as it was. A pipe, a device or a
    path under ``/dev`` or ``/proc`` (``/dev/stdout``) is written in place: it cannot be
    replaced. Errors about the path itself (see :func:`check_target`) come before anything
    is written. After :func:`stop_writing`, the file is not put in place (an interrupted
    result), unless ``keep_on_stop`` (a checkpoint, which the stop itself saves).
    """
    name, in_place = check_target(path)
    mode, options = ("wb", {}) if binary else ("w", {"encoding": "utf-8"})
    if in_place:
        descriptor = _descriptor_of(name)
        if descriptor is not None:
            # One of this process's descriptors (``/dev/stdout``): written through it, at
            # its position, which what the process writes next shares (opened anew, the
            # file would get a position of its own, and what comes after the solutions
            # in a file that ``>`` made would overwrite them).
            for stream in (sys.stdout, sys.stderr):
                try:
                    if stream is not None and stream.fileno() == descriptor:
                        stream.flush()  # what was printed before comes first
                except (OSError, ValueError):  # (no descriptor; a closed stream)
                    pass
            with open(os.dup(descriptor), mode, **options) as file:
                yield file
            return
        # Appending: a path that leads to a regular file (``>> log``), which ``w`` would
        # truncate; for pipes and devices the two are the same.
        with open(name, mode.replace("w", "a"), **options) as file:
            yield file
        return
    target = os.path.realpath(name)
    directory = os.path.dirname(target)
    tmp = None
    try:
        fd = None
        while fd is None:  # the name is known before the file exists (see _create_new)
            tmp = _temporary_name(target)
            _pending.add(tmp)
            try:
                fd = _create_new(tmp)
            except OSError as exc:  # name the file asked for, not the temporary one
                _pending.discard(tmp)
                tmp = None
                raise type(exc)(exc.errno, exc.strerror, name) from None
            if fd is None:  # another writer's name: left alone
                _pending.discard(tmp)
        os.chmod(tmp, _new_file_mode(target))
        with os.fdopen(fd, mode, **options) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        if _stop and not keep_on_stop:  # a signal came; its interruption was swallowed
            raise KeyboardInterrupt
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    finally:
        _pending.discard(tmp)
    _sync_directory(directory)


#: The names of an open descriptor of the process: ``/dev/stdout``, ``/dev/fd/3``, ...
_DESCRIPTOR_NAME = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")
_STANDARD = {"/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor_of(name):
    """The descriptor of this process that ``name`` names (``/dev/stdout``: 1), if it is
    open; else ``None``."""
    name = os.path.normpath(os.fsdecode(name))
    match = _DESCRIPTOR_NAME.fullmatch(name)
    descriptor = _STANDARD.get(name, int(match.group(1)) if match else None)
    if descriptor is None:
        return None
    try:
        os.fstat(descriptor)
    except OSError:  # (closed)
        return None
    return descriptor


def _sync_directory(directory):
    """Flush a rename in ``directory`` to disk, where the system allows it (POSIX)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def probe_directory(path):
    """Create and remove a temporary file beside ``path``; raises ``OSError`` if it fails."""
    target = os.path.realpath(os.fsdecode(os.fspath(path)))
    probe = None
    try:
        fd = None
        while fd is None:
            probe = _temporary_name(target)
            fd = _create_new(probe)
        os.close(fd)
    finally:
        if probe is not None:
            try:
                os.unlink(probe)
            except OSError:  # never made (interrupted, or the error being raised)
                pass


def _temporary_name(target):
    """A new name for a temporary file of ``target``, beside it: ``_temporary_prefix``, 8
    random characters, ``.tmp``."""
    return os.path.join(os.path.dirname(target),
                        f"{_temporary_prefix(target)}{secrets.token_hex(4)}.tmp")


def _create_new(name):
    """Create the file ``name`` (mode 0o600) and return its descriptor, or None if it exists.

    The callers choose the name first, so that an interruption at any point leaves them a
    file they know to remove (``tempfile.mkstemp`` names its file only once it is made)."""
    try:
        return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return None


def remove_pending_temporaries():
    """Remove the temporary files that :func:`atomic_file` is writing now (for a process that
    ends at once, without unwinding)."""
    for tmp in list(_pending):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def remove_stale_temporaries(path):
    """Remove temporary files that a killed writer of ``path`` left beside it.

    Only names of the exact form of :func:`atomic_file`'s temporary files for ``path`` are
    matched (the prefix, 8 random characters, ``.tmp``), not those of other targets.
    """
    target = os.path.realpath(os.fsdecode(os.fspath(path)))
    directory = os.path.dirname(target)
    prefix = _temporary_prefix(target)
    exact = re.compile(re.escape(prefix) + r"[A-Za-z0-9_]{8}\.tmp")
    for stale in glob.glob(os.path.join(glob.escape(directory), glob.escape(prefix) + "*.tmp")):
        if exact.fullmatch(os.path.basename(stale)):
            try:
                os.unlink(stale)
            except OSError:
                pass


def lock_beside(path):
    """Take an exclusive lock for ``path``: a lock file ``.NAME.lock`` beside it, locked with
    ``flock`` (released by the system when the process ends, even by ``kill -9``).

    Returns ``(fd, lock_path)`` for :func:`unlock`, ``None`` where ``flock`` does not exist
    (Windows). Raises ``BlockingIOError`` if another open file holds the lock, ``OSError``
    if the lock file cannot be created.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return None
    target = os.path.realpath(os.fsdecode(os.fspath(path)))
    lock_path = os.path.join(os.path.dirname(target), _temporary_prefix(target) + "lock")
    while True:
        try:  # (not through a link: one to a missing file would create it, and leave it)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                         0o644)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise FileExistsError(errno.EEXIST, f"{lock_path!r} is a symbolic link, not a "
                                  f"lock file, but has the lock's name: rename it") from None
        try:  # (the descriptor is closed, so the lock released, whatever stops this)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # The holder before may have removed the file (:func:`unlock`) after this one
            # opened it: a lock on a removed file excludes nobody, so take the new file's.
            held = os.fstat(fd)
            now = _stat_or_none(lock_path)
            if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                if held.st_size or not stat.S_ISREG(held.st_mode):  # (a lock is empty)
                    raise FileExistsError(errno.EEXIST, f"{lock_path!r} is not a lock file "
                                          f"but has the lock's name: rename it")
                _pending.add(lock_path)
                return fd, lock_path
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _stat_or_none(path):
    """``os.stat(path)``, or ``None`` for a path that does not exist."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def unlock(lock):
    """Release a lock of :func:`lock_beside` and remove its lock file."""
    if lock is None:
        return
    fd, lock_path = lock
    try:  # (removed while still held, so that no run takes a lock on a removed file)
        _pending.discard(lock_path)
        os.unlink(lock_path)
    except OSError:
        pass
    finally:
        os.close(fd)  # releases the lock, whatever stops the removal
