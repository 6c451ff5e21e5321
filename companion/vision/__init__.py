"""Vision: from a camera frame to what lies where on the playmat.

frame -> fiducials (:mod:`.fiducials`) -> image-to-mat mapping (:mod:`.mapping`)
-> changed areas (:mod:`.changes`) -> sticker candidates (:mod:`.candidates`)
-> QR decoding (:mod:`.decoders`; stickers too small to decode classified
against the card codes, :mod:`.dictionary`) -> observations (:mod:`.observation`).
:class:`companion.vision.pipeline.VisionPipeline` ties them together and keeps
the state between frames. Vision knows nothing of the rules.
"""
