"""Printable markers: the QR stickers on the cards and the playmat fiducials.

:mod:`.codes` is the single source of what a sticker and a fiducial look like
(module matrices, where a sticker sits on a card); the scene renderer
(:mod:`companion.sim`) draws from the same matrices, so a simulated table
shows exactly what ``companion markers`` prints. :mod:`.sheets` lays them out
on A4 pages.
"""
