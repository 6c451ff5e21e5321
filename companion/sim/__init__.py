"""Synthetic tables for tests, benchmarks and the demo.

:mod:`.scene` renders one camera frame of a table (the mat from a layout,
cards with their QR stickers, camera pose, light, blur, noise, JPEG, glare, a
hand, a creased cloth) together with the ground truth; :mod:`.tables` makes
plausible random tables. The sim may use the engine; nothing uses the sim
outside tests, benchmarks and the demo.
"""
