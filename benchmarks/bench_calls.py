"""What a warm count costs in Python: the package functions it runs through and how often it
switches between the package's modules, in the calling thread.

    python benchmarks/bench_calls.py [--n 16] [--verbose]

Counts ``count_solutions(n)`` once to load the kernels, then again under ``sys.setprofile``:
prints the distinct package functions called (comprehensions and generator expressions
aside, they belong to their function) and the number of times the running module changed
from one package module to another (calls and returns alike; other libraries in between
are passed over). A count that asks many modules many small questions shows here.
"""
import argparse
import sys

import nqueens_numba as nq

INLINE = ("<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>")


def module_of(frame):
    """The package module running ``frame`` (comprehensions: their function's), else
    ``None``."""
    while frame is not None and frame.f_code.co_name in INLINE:
        frame = frame.f_back
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return name if name.startswith("nqueens_numba") else None


def profile(call):
    """``(functions, switches, sequence)`` of ``call()`` in this thread."""
    functions, sequence = set(), []
    current = [None]

    def hook(frame, event, arg):
        if event not in ("call", "return") or frame.f_code.co_name in INLINE:
            return
        module = module_of(frame if event == "call" else frame.f_back)
        if event == "call" and module is not None:
            functions.add((module, frame.f_code.co_name))
        if module is not None and module != current[0]:
            if current[0] is not None:
                sequence.append(f"{module.removeprefix('nqueens_numba.')}:"
                                f"{frame.f_code.co_name if event == 'call' else '<return>'}")
            current[0] = module

    sys.setprofile(hook)
    try:
        call()
    finally:
        sys.setprofile(None)
    return functions, len(sequence), sequence


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--verbose", action="store_true", help="list them")
    args = parser.parse_args()
    nq.count_solutions(args.n)  # loads the kernels
    functions, switches, sequence = profile(lambda: nq.count_solutions(args.n))
    print(f"count_solutions({args.n}), warm: {len(functions)} package functions, "
          f"{switches} module switches in the calling thread")
    if args.verbose:
        for module, name in sorted(functions):
            print(f"  {module}.{name}")
        print(" -> ".join(sequence))


if __name__ == "__main__":
    main()
