"""The redraw benchmark reports one median per screen (no timing asserted here)."""

from __future__ import annotations

import argparse

from companion.bench import TARGETS, ui
from companion.ui.samples import SAMPLES


def test_bench_reports_a_median_for_every_screen() -> None:
    parser = argparse.ArgumentParser()
    ui.add_arguments(parser)
    figures = ui.run(parser.parse_args(["--repeat", "2"]))
    assert set(figures["median_ms"]) == {s.name for s in SAMPLES}
    assert figures["budget_ms"] == 5.0
    assert TARGETS["ui"] == "companion.bench.ui"
