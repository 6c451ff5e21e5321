"""``companion bench TARGET --json``: speed figures for docs/benchmarks.md."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys

from companion.bench import TARGETS


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bench = subparsers.add_parser("bench", help="measure speed (figures go to docs/benchmarks.md)")
    targets = bench.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, module_name in TARGETS.items():
        parser = targets.add_parser(name, help=f"benchmark the {name}")
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON document")
        parser.add_argument("--cpu", type=int, default=None,
                            help="pin to this CPU core (default: the first core this process may use)")
        parser.set_defaults(func=run_bench, bench_module=module_name)
        # Arguments are added lazily by name so that `companion --help` stays fast.
        importlib.import_module(module_name).add_arguments(parser)


def pin_to_one_core(cpu: int | None) -> int | None:
    """Benchmarks are quoted per core: run on exactly one."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {core})
    return core


def run_bench(args: argparse.Namespace) -> int:
    module = importlib.import_module(args.bench_module)
    if hasattr(module, "check"):
        module.check(args)  # its inputs, before anything is said or measured
    core = pin_to_one_core(args.cpu)
    print(f"bench {args.target}: running on core {core}", file=sys.stderr)
    figures = module.run(args)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
