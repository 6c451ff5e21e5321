"""Benchmarks behind ``companion bench TARGET``.

Each target is a module here exposing ``add_arguments(parser)`` and
``run(args) -> dict``; :data:`TARGETS` names them. Figures are printed as one
JSON document (``--json``) and recorded by hand in ``docs/benchmarks.md``.
"""

TARGETS: dict[str, str] = {
    "engine": "companion.bench.engine",
    "vision": "companion.bench.vision",
    "ui": "companion.bench.ui",
    "table": "companion.bench.table",
    "run": "companion.bench.run",
    "restart": "companion.bench.restart",
    "start": "companion.bench.start",
    "teach": "companion.bench.teach",
    "markers": "companion.bench.markers",
}
