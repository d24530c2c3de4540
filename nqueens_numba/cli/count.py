"""``nqueens count`` (on this machine or on a Dask cluster) and ``nqueens status FILE``, the
progress of a checkpointed count."""
import json
import logging

from .. import _validate, checkpoint, counting
from .stop import keeping, stop_if_signalled
from .values import load_blocked


def count_command(args, out):
    """``nqueens count``: print the total (or fundamental) count to ``out``."""
    if args.checkpoint_every is not None:  # checked first, as the other options
        _validate.seconds(args.checkpoint_every, "checkpoint_every")
    keeping("the count's work is lost (no --checkpoint)" if args.checkpoint is None else
            f"{args.checkpoint!r} keeps the progress of its last save: run the same command "
            f"again to resume from there")
    if args.scheduler is not None:
        if args.gpus is not None:
            raise ValueError("--gpus does not apply with --scheduler (the workers with a "
                             "GPU count on it: run one worker per GPU)")
        total = _count_on_dask(args)
    elif args.scheduler_timeout is not None:
        raise ValueError("--scheduler-timeout applies only with --scheduler")
    else:
        total = counting.count_solutions(
            args.n, n_threads=args.threads, method=args.method,
            fundamental=args.fundamental, prefix_depth=args.prefix_depth,
            progress=args.progress, checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every, preplaced=args.preplace,
            blocked=load_blocked(args.blocked, args.n), piece=args.piece, torus=args.torus,
            device=args.device, devices=args.gpus)
    stop_if_signalled()
    out.write(f"{total}\n")


def _count_on_dask(args):
    """``nqueens count --scheduler``: the count on a Dask cluster."""
    if args.threads is not None:
        raise ValueError("--threads does not apply with --scheduler (give the workers their "
                         "threads with dask worker --nthreads)")
    try:  # (Dask missing is not a usage error: status 1, as a GPU count without numba-cuda)
        from .. import distributed
        timeout = {} if args.scheduler_timeout is None else {"timeout": args.scheduler_timeout}
        client = distributed.connect(args.scheduler, **timeout)
    except ImportError as exc:
        raise RuntimeError(f"--scheduler needs Dask: pip install 'nqueens_numba[dask]' "
                           f"({exc})") from None
    try:
        return distributed.count_solutions(
            client, args.n, fundamental=args.fundamental, method=args.method,
            prefix_depth=args.prefix_depth, checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every, progress=args.progress,
            preplaced=args.preplace, blocked=load_blocked(args.blocked, args.n), piece=args.piece,
            torus=args.torus, device=args.device)
    finally:
        cluster = getattr(client, "nqueens_cluster", None)
        if cluster is not None:  # closing it cancels its tasks: Dask need not say so
            logging.getLogger("distributed").setLevel(logging.ERROR)
        client.close()
        if cluster is not None:
            cluster.close()


def print_status(path, as_json, out):
    """``nqueens status FILE``: how far the count checkpointed in ``path`` has come, as
    lines or (``as_json``) one JSON object.

    Raises
    ------
    nqueens_numba.CheckpointError
        If ``path`` cannot be read, or is not a checkpoint.
    """
    try:
        info = checkpoint.status(path)
    except OSError as exc:  # no such file: not an output error
        raise checkpoint.CheckpointError(f"checkpoint {path!r}: {exc.strerror}") from None
    if as_json:
        out.write(json.dumps(info) + "\n")
        return
    depth = info["prefix_depth"]
    what = f"n={info['n']}, method {info['method']}, prefix depth {depth}"
    if info["board"] is not None:
        what += f", {info['board']} board"
    if info["constrained"]:
        what += f", with {checkpoint.describe_constraints(info['constraints'])}"
    partial = info["partial_count"]
    lines = [
        f"checkpoint:  {path}",
        f"count:       {what}",
        f"subproblems: {info['finished']:,} of {info['total_subproblems']:,} finished, "
        f"{info['in_progress']:,} in progress",
        f"solutions:   {'not recorded' if partial is None else f'{partial:,}'}"
        f"{'' if info['complete'] or partial is None else ' so far'}",
        ("done:        100% (complete)" if info["complete"] else
         f"done:        {min(100 * info['fraction_done'], 99.9999):.6g}% (estimated)"),
        f"updated:     {info['updated']}",
    ]
    out.write("\n".join(lines) + "\n")
