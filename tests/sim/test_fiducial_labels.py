"""The simulated mat carries the fiducials' printed label strips, so vision is tested with them in view."""

from __future__ import annotations

import numpy as np

from companion.markers.codes import FIDUCIAL_CELLS, FIDUCIAL_LABEL_CELLS, FIDUCIAL_QUIET_CELLS
from companion.sim.scene import SceneOptions, _mat_texture, render_table
from companion.vision.layout import load_layout
from companion.vision.pipeline import VisionPipeline

SCALE = 8.0


def test_each_fiducial_has_its_label_strip_below_it_with_the_player_1_edge_underlined() -> None:
    layout = load_layout()
    texture = _mat_texture(layout, SCALE).mean(axis=2)
    for fiducial in layout.fiducials:
        cell = fiducial.size_mm / FIDUCIAL_CELLS
        side = fiducial.size_mm + 2 * FIDUCIAL_QUIET_CELLS * cell
        strip = FIDUCIAL_LABEL_CELLS * cell
        x0 = fiducial.center_mm[0] - side / 2
        y0 = fiducial.center_mm[1] + side / 2
        box = texture[round(y0 * SCALE) : round(min(y0 + strip, layout.size_mm[1]) * SCALE),
                      round(x0 * SCALE) : round((x0 + side) * SCALE)]
        if y0 + strip > layout.size_mm[1]:
            continue  # a strip hanging over the mat's edge is not on the cloth
        assert (box < 100).mean() > 0.05, fiducial.id  # "id N" and "this edge toward player 1"
        underline = box[-round(1.1 * SCALE) : -round(0.5 * SCALE)]
        assert (underline < 100).any(axis=0).mean() > 0.8, fiducial.id


def test_every_fiducial_is_still_found_beside_its_label() -> None:
    layout = load_layout()
    frame = render_table(layout, [], SceneOptions(noise_sigma=2.0, seed=3)).image
    pipeline = VisionPipeline(layout)
    pipeline.scan(frame, thorough=True)
    assert sorted(pipeline.fiducial_sightings) == sorted(f.id for f in layout.fiducials)
    assert np.isfinite([c for s in pipeline.fiducial_sightings.values() for c in np.ravel(s.corners)]).all()
