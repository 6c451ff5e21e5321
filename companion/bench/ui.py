"""How long one redraw takes: render a screen and hand it to a device.

For every sample state (companion/ui/samples.py) the benchmark times
:func:`~companion.ui.screens.render` plus ``display()`` of the luma driver
(default the SSD1306 one, which packs the frame into the panel's page bytes)
on luma's ``noop`` serial interface, in CPU time of this process, and reports
the median per screen in milliseconds. The I2C transfer itself is not
included: it runs on the bus (about 23 ms a frame at 400 kHz). Issue 5's
budget is 5 ms a redraw.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from companion.ui.samples import SAMPLES
from companion.ui.screens import render

BUDGET_MS = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=200,
                        help="redraws per screen; the median is reported (default %(default)s)")
    parser.add_argument("--device", choices=("ssd1306", "sh1106", "ssd1309", "dummy"),
                        default="ssd1306", help="luma driver to hand frames to (default %(default)s)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    device = _device(args.device)
    medians: dict[str, float] = {}
    for sample in SAMPLES:
        times = []
        for _ in range(max(1, args.repeat)):
            start = time.process_time()
            device.display(render(sample.model, sample.ui))
            times.append(time.process_time() - start)
        medians[sample.name] = round(statistics.median(times) * 1000, 3)
    slowest = max(medians.values())
    return {
        "median_ms": medians,
        "slowest_median_ms": slowest,
        "budget_ms": BUDGET_MS,
        "within_budget": slowest <= BUDGET_MS,
        "repeat": args.repeat,
        "device": args.device,
    }


def _device(name: str) -> Any:
    # The real driver code on a serial interface that sends nowhere.
    if name == "dummy":
        from luma.core.device import dummy  # type: ignore[import-untyped]

        return dummy(width=128, height=64, mode="1")
    import luma.oled.device  # type: ignore[import-untyped]
    from luma.core.interface.serial import noop  # type: ignore[import-untyped]

    return getattr(luma.oled.device, name)(noop())
