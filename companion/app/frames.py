"""A folder of frames that does not decode the same file twice in a row.

Recorded and simulated games repeat a still table for many frames, and
``companion sim game`` writes each repeat as a hard link to one JPEG.
Decoding a 12 MP JPEG costs about 60 ms here, twenty times what the vision
pipeline spends on an unchanged frame, so a replay at ``--fps 0`` would
mostly decode the same picture again. :class:`ReusingFileSource` hands out
the previous array when the next file is the same file (device, inode,
size and modification time); the pipeline never writes into a frame, so
sharing it is safe. Live cameras deliver new pixels every frame and do not
use this.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.app.camera import FileSource

if TYPE_CHECKING:
    import numpy as np

FileKey = tuple[int, int, int, int]


class ReusingFileSource(FileSource):
    """:class:`FileSource` that reuses the last decoded image for another name of the same file."""

    def __init__(self, path: Path, start_frame: int = 0, fps: float = 0.0) -> None:
        super().__init__(path, start_frame, fps)
        self.decoded = 0
        self._last: tuple[FileKey, np.ndarray] | None = None

    def _read_image(self) -> np.ndarray | None:
        files = self._files
        if files is None or self._next >= len(files):
            return None
        stat = files[self._next].stat()
        key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        self._last = None  # let the old pixels go before the new ones are decoded
        image = super()._read_image()
        if image is not None:
            self.decoded += 1
            self._last = (key, image)
        return image

    def close(self) -> None:
        super().close()
        self._last = None
