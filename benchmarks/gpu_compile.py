"""The GPU kernels compiled for a GPU architecture on a machine without a GPU: how long numba-cuda
takes (to PTX, the host's part of a first launch's compile), and what ``ptxas`` makes of
them (registers, spills, local and shared memory, SASS instructions).

    python benchmarks/gpu_compile.py [--n 20] [--arch 90] [--block 128] [--max-registers 0]
                                      [--keep DIR]

Needs numba-cuda with NVVM (``pip install "numba-cuda[cu13]"``) and, for the ``ptxas``
figures, ``ptxas`` and ``cuobjdump`` from the ``nvidia-cuda-nvcc`` and
``nvidia-cuda-cuobjdump`` wheels of the same CUDA version, or on the PATH (without them only
the compile times are printed). Each
kernel of ``nqueens_numba._kernels.gpu`` is compiled for the shape a count of ``--n``
plans (its prefix depth; the stack's word width follows n: 32 bits up to n = 31). Blocks per
multiprocessor that fit are computed for 64 Ki registers and 228 KiB of shared memory (sm_90;
what ``config.GPU_BLOCKS_PER_SM`` may ask for without leaving blocks waiting).

The device functions of the kernels ask numba-cuda for the current GPU's compute capability,
which a machine without a GPU has not: the script answers ``--arch`` for it
(``numba.cuda.dispatcher.get_current_device``, numba-cuda's internals: a tool of this
benchmark only). ``--keep DIR`` keeps the PTX, cubin and SASS of each kernel.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from nqueens_numba import _kernels, _split
from nqueens_numba.board import QUEEN, board_of

KERNELS = (  # (name, kernel table job, board, constrained, method)
    ("count", "gpu_count", QUEEN, False, "halving"),
    ("count with constraints", "gpu_count", QUEEN, True, "halving"),
    ("torus", "gpu_count", board_of("queen", True), False, "halving"),
    ("superqueen count", "gpu_count", board_of("superqueen"), False, "halving"),
    ("symmetric", "gpu_symmetric", QUEEN, False, "symmetric"),
    ("superqueen symmetric", "gpu_symmetric", board_of("superqueen"), False, "symmetric"),
)


#: An instruction's address in ``cuobjdump -sass``: ``/*0a70*/``.
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/")


def tool(name):
    """The path of CUDA tool ``name``: from the ``nvidia`` wheels beside numba-cuda's NVVM
    (whose PTX an older toolkit's ``ptxas`` refuses), else on the PATH."""
    for site in sys.path:
        hits = glob.glob(os.path.join(site, "nvidia", "*", "bin", name))
        if hits:
            return hits[0]
    return shutil.which(name)


def answer_compute_capability(arch):
    """Let numba-cuda compile device functions for ``arch`` without a GPU."""
    import numba.cuda.dispatcher as dispatcher

    class Device:
        compute_capability = (arch // 10, arch % 10)

    dispatcher.get_current_device = lambda: Device()


def signature(symmetric):
    from numba import types

    i64, a1, a2 = types.int64, types.Array(types.int64, 1, "C"), types.Array(types.int64, 2,
                                                                            "C")
    # (n, states, depth, [allow,] todo, first, count, counter, stop, out)
    head = (i64, a2, i64) if symmetric else (i64, a2, i64, a1)
    return head + (a1, i64, i64, a1, a1, a2)


def fits(registers, shared, block):
    """Blocks per multiprocessor that fit in sm_90's registers and shared memory."""
    by_registers = 65536 // max(1, registers * block)
    by_shared = (228 * 1024) // (shared + 1024)  # (1 KiB a block reserved)
    return min(by_registers, by_shared, 32, 2048 // block)


def register_cap(text):
    """An argparse type: a register cap, 0 (none) to 255 (ptxas's most)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= 255:
        raise argparse.ArgumentTypeError(f"must be 0 (no cap) to 255, got {value}")
    return value


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("--n", type=int, default=20, help="the count whose shapes to compile")
    parser.add_argument("--arch", type=int, default=90, help="compute capability, as 90")
    parser.add_argument("--block", type=int, default=128, help="threads per block")
    parser.add_argument("--max-registers", type=register_cap, default=0, metavar="R",
                        help="the most registers a thread takes (ptxas -maxrregcount, as "
                             "config.GPU_MAX_REGISTERS); 0: any")
    parser.add_argument("--keep", default=None, metavar="DIR",
                        help="keep the PTX, cubin and SASS there")
    args = parser.parse_args()
    from numba.cuda import compile_ptx

    answer_compute_capability(args.arch)
    ptxas, cuobjdump = tool("ptxas"), tool("cuobjdump")
    if ptxas is None:
        print("ptxas not found: compile times only")
    folder = args.keep or tempfile.mkdtemp()
    os.makedirs(folder, exist_ok=True)
    print(f"n={args.n}, sm_{args.arch}, block {args.block}, at most "
          f"{args.max_registers or 'any'} registers")
    for name, job, board, constrained, method in KERNELS:
        split = _split.plan_count(args.n, board, method=method, device="cuda").split
        if split is None:  # (a board without solutions: the plain count's shape)
            split = _split.plan_count(args.n, QUEEN, method=method, device="cuda").split
        depth = split.depth
        levels, block, wide = _kernels.launch_shape(args.n, depth, args.block)
        kernel = _kernels.entry(job, board, constrained)(levels, block, wide)
        start = time.perf_counter()
        ptx, _ = compile_ptx(kernel.py_func, signature(method == "symmetric"),
                             cc=(args.arch // 10, args.arch % 10))
        seconds = time.perf_counter() - start
        line = (f"{name:21s} depth {depth}, {levels} levels, {block} threads, "
                f"{'int64' if wide else 'int32'}: NVVM {seconds:.2f} s")
        if ptxas is not None:
            base = os.path.join(folder, name.replace(" ", "_"))
            with open(base + ".ptx", "w") as file:
                file.write(ptx)
            start = time.perf_counter()
            cap = [f"-maxrregcount={args.max_registers}"] if args.max_registers else []
            info = subprocess.run([ptxas, f"-arch=sm_{args.arch}", "-O3", "-v", *cap,
                                   base + ".ptx", "-o", base + ".cubin"],
                                  capture_output=True, text=True, check=True).stderr
            seconds = time.perf_counter() - start
            registers = int(re.search(r"Used (\d+) registers", info).group(1))
            spills = int(re.search(r"(\d+) bytes spill stores", info).group(1))
            stack = int(re.search(r"(\d+) bytes stack frame", info).group(1))
            shared = int((re.search(r"(\d+) bytes smem", info) or [0, 0])[1])
            line += (f", ptxas {seconds:.2f} s: {registers} registers, {spills} B spilled, "
                     f"{stack} B local, {shared:,} B shared, {fits(registers, shared, block)} "
                     f"blocks/SM fit")
            if cuobjdump is not None:
                sass = subprocess.run([cuobjdump, "-sass", base + ".cubin"],
                                      capture_output=True, text=True, check=True).stdout
                with open(base + ".sass", "w") as file:
                    file.write(sass)
                count = len(re.findall(INSTRUCTION, sass))
                line += f", {count:,} SASS instructions"
        print(line, flush=True)
    if args.keep:
        print(f"kept in {folder}")
    else:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
