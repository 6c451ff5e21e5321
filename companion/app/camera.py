"""Camera sources: where frames come from.

One small interface, :class:`Camera` (``open``, ``read``, ``close``, a
context manager, ``recover`` after a loss), and four sources:

- :class:`FileSource`: a folder of frames in file-name order, or a video
  file; what tests, ``replay`` and ``run --camera PATH`` read. A frame that
  cannot be read (an empty or cut-short file, a damaged video frame, an
  image too large to decode) is skipped, logged and counted
  (:attr:`FileSource.skipped`), as a camera drops a frame: one bad file
  never ends a run.
- :class:`V4L2Source`: a USB webcam through OpenCV's V4L2 backend.
- :class:`Picamera2Source`: the Camera Module 3 through the apt picamera2
  (OpenCV cannot open the CSI camera); imported only when opened.
- :class:`FlakySource`: wraps another and drops frames or vanishes for a
  while, to test what the app does when a cable is pulled.

``read`` returns a :class:`Frame`, or None at the end of the input (files
only); a live camera that stops delivering raises
:class:`~companion.errors.CameraLost`, after which the app shows "camera
lost", calls :meth:`Camera.recover` now and then, and goes on reading.
OpenCV and numpy are imported inside the sources, so reading the
configuration never pays for them.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from companion.errors import CameraLost, DeviceError, FrameError, LimitError

if TYPE_CHECKING:
    import numpy as np

    from companion.app.config import CameraSettings

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
BAD_VIDEO_RUN = 30
"""Failed video reads in a row taken as the end of the video (one damaged frame fails one read)."""

log = logging.getLogger("companion.camera")


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: its 0-based index in input order, BGR pixels, and when it was taken (monotonic s)."""

    index: int
    image: np.ndarray = field(repr=False)
    at: float

    def __str__(self) -> str:
        height, width = self.image.shape[:2]
        return f"frame {self.index} {width}x{height} at {self.at:.3f}"


class Camera(ABC):
    """A source of frames. ``open`` is idempotent, ``close`` too; ``with`` opens and closes."""

    name = "camera"

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def read(self) -> Frame | None:
        """The next frame; None at the end of the input; CameraLost when a live camera stops."""

    @abstractmethod
    def close(self) -> None: ...

    def recover(self) -> bool:
        """After CameraLost: try to reach the camera again; True when reading may go on."""
        self.close()
        try:
            self.open()
        except DeviceError:
            return False
        return True

    def __enter__(self) -> Camera:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __str__(self) -> str:
        return self.name


def _cv2() -> ModuleType:
    import cv2

    return cv2


# -- files --------------------------------------------------------------------------------


class Pacer:
    """Spaces reads 1/fps apart on a monotonic clock (no drift: targets are start + n/fps)."""

    def __init__(self, fps: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.fps, self._clock, self._sleep = fps, clock, sleep
        self._start: float | None = None
        self._count = 0

    def wait(self) -> float:
        """Sleep until the next frame is due; returns the time it is taken at."""
        now = self._clock()
        if self.fps <= 0:
            return now
        if self._start is None:
            self._start = now
        due = self._start + self._count / self.fps
        self._count += 1
        if due > now:
            self._sleep(due - now)
            return due
        return now


class FileSource(Camera):
    """Frames from a folder (file-name order), a video file or one photo, as a camera would deliver them."""

    def __init__(self, path: Path, start_frame: int = 0, fps: float = 0.0,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        if start_frame < 0:
            raise DeviceError(f"--start-frame {start_frame}: must be 0 or more")
        self.path, self.start_frame = path, start_frame
        self.name = f"file source {path}"
        self._pacer = Pacer(fps, clock, sleep)
        self._files: Sequence[Path] | None = None
        self._video: Any = None
        self._next = start_frame
        self._opened = False
        self.skipped = 0
        """Frames that could not be read and were passed over."""

    def count(self) -> int | None:
        """Frames in the input (for progress); None when the video does not say."""
        if self._files is not None:
            return len(self._files)
        if self._video is not None:
            frames = int(self._video.get(_cv2().CAP_PROP_FRAME_COUNT))
            return frames if frames > 0 else None
        return None

    def recorded_fps(self) -> float | None:
        """The frame rate the video says it was recorded at (None for frames in a folder, or when it does not say)."""
        if self._video is None:
            return None
        fps = float(self._video.get(_cv2().CAP_PROP_FPS))
        return fps if 0.0 < fps < 1000.0 else None

    def open(self) -> None:
        if self._opened:
            return
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise DeviceError(f"{self.path}: no frames here (expected {', '.join(sorted(IMAGE_SUFFIXES))} files)")
        elif self.path.is_file() and self.path.suffix.lower() in IMAGE_SUFFIXES:
            self._files = [self.path]  # one photo: a source of one frame
        elif self.path.is_file():
            self._video = self._open_video()
        else:
            raise DeviceError(f"{self.path}: no such folder of frames or video file")
        self._next = self.start_frame
        self._opened = True

    def _open_video(self) -> Any:
        cv2 = _cv2()
        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            raise DeviceError(f"{self.path}: not a video OpenCV can read")
        for _ in range(self.start_frame):  # grab, not seek: seeking is inexact for many codecs
            if not video.grab():
                break
        return video

    def read(self) -> Frame | None:
        if not self._opened:
            raise DeviceError(f"{self.path}: read before open")
        while True:
            try:
                image = self._read_image() if self._files is not None else self._read_video()
                break
            except (FrameError, LimitError, OSError) as error:  # OSError: a file that vanished or is locked away
                self.skipped += 1
                log.warning("frame %d skipped (%d so far): %s", self._next, self.skipped, error)
                self._next += 1
        if image is None:
            return None
        at = self._pacer.wait()
        frame = Frame(self._next, image, at)
        self._next += 1
        return frame

    def _read_image(self) -> np.ndarray | None:
        assert self._files is not None
        if self._next >= len(self._files):
            return None
        from companion.vision.frames import read_image

        return read_image(self._files[self._next])

    def _read_video(self) -> np.ndarray | None:
        for failed in range(BAD_VIDEO_RUN):
            ok, image = self._video.read()
            if ok and image is not None:
                if failed:
                    self.skipped += failed
                    log.warning("%s: %d damaged frame(s) before frame %d skipped (%d so far)", self.path, failed,
                                self._next + failed, self.skipped)
                    self._next += failed
                return image  # type: ignore[no-any-return]
        return None  # the end of the video (or nothing readable for BAD_VIDEO_RUN frames)

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
        self._video, self._files, self._opened = None, None, False

    def recover(self) -> bool:
        return True  # files do not vanish; nothing to reach again


# -- USB webcams ---------------------------------------------------------------------------


def v4l2_device(device: str) -> str | int:
    """"" -> 0, "2" -> 2, "/dev/video2" stays a path (OpenCV opens both)."""
    if not device:
        return 0
    return int(device) if device.isdigit() else device


class V4L2Source(Camera):
    """A UVC webcam through cv2.VideoCapture(CAP_V4L2); one-frame buffer so frames are never stale."""

    def __init__(self, device: str = "", resolution: tuple[int, int] = (1920, 1080), fps: float = 10.0,
                 capture: Callable[..., Any] | None = None) -> None:
        self.device = v4l2_device(device)
        self.resolution, self.fps = resolution, fps
        self.name = f"V4L2 camera {self.device}"
        self._capture_factory = capture
        self._capture: Any = None
        self._count = 0

    def open(self) -> None:
        if self._capture is not None:
            return
        cv2 = _cv2()
        factory = self._capture_factory or cv2.VideoCapture
        capture = factory(self.device, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise DeviceError(f"{self.name}: cannot open it (plugged in? in the video group? "
                              "v4l2-ctl --list-devices lists cameras)")
        # MJPG first: most webcams give their full size only compressed over USB 2.
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.resolution[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.resolution[1])
        if self.fps > 0:
            capture.set(cv2.CAP_PROP_FPS, self.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the V4L backend honours it: no queue of old frames
        self._capture = capture

    def read(self) -> Frame | None:
        if self._capture is None:
            raise CameraLost(f"{self.name}: not open")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraLost(f"{self.name}: no frame (unplugged?)")
        frame = Frame(self._count, image, time.monotonic())
        self._count += 1
        return frame

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


# -- Camera Module 3 ----------------------------------------------------------------------

AUTOFOCUS_TIMEOUT_S = 5.0
"""One autofocus sweep takes about a second; a camera that does not finish in this time is stopped."""
PICAMERA2_MIN_VERSION = (0, 3, 17)
"""The first picamera2 whose ``wait(job, timeout=...)`` takes a timeout, which every read needs."""
LENS_SETTLE_FRAMES = 6
"""Frames waited at most for the lens to reach a position it was sent to (it takes one or two)."""
LENS_TOLERANCE_DPT = 0.02
EXPOSURE_ENUM = {"short": "Short", "normal": "Normal", "long": "Long"}
"""Our exposure setting -> libcamera's AeExposureModeEnum member."""
PICAMERA2_MISSING = ("picamera2 is not installed or not visible: sudo apt install -y --no-install-recommends "
                     "python3-picamera2, and make the venv with --system-site-packages")


def import_picamera2() -> ModuleType:
    try:
        module = importlib.import_module("picamera2")
    except ImportError as error:
        raise DeviceError(f"{PICAMERA2_MISSING} ({error})") from None
    version = picamera2_version()
    if version is not None and version < PICAMERA2_MIN_VERSION:
        raise DeviceError(picamera2_too_old(version))
    return module


def picamera2_version() -> tuple[int, ...] | None:
    """The installed picamera2's version (from its package metadata); None when it cannot be told."""
    from importlib import metadata

    try:
        text = metadata.version("picamera2")
    except metadata.PackageNotFoundError:
        return None
    numbers = []
    for part in text.split("."):
        digits = "".join(itertools.takewhile(str.isdigit, part))
        if not digits:
            break
        numbers.append(int(digits))
    return tuple(numbers) or None


def picamera2_too_old(version: tuple[int, ...]) -> str:
    have = ".".join(map(str, version))
    need = ".".join(map(str, PICAMERA2_MIN_VERSION))
    return (f"picamera2 {have} is too old: {need} or later is needed (reads with a time limit); "
            "sudo apt update && sudo apt install --only-upgrade python3-picamera2")


class Picamera2Source(Camera):
    """The CSI camera through picamera2: full-size RGB888 (BGR in numpy order), manual or one-shot focus.

    ``focus = "auto"``: the ``lens_position`` given (the last calibration's)
    is set; without one, one autofocus sweep runs, bounded by
    ``autofocus_timeout_s``, and the lens is held where it ended.
    :attr:`lens_position` is then where the lens is (None: fixed focus or unknown).

    ``exposure``: libcamera's automatic exposure profile. ``short`` (the
    default) keeps the shutter at 5 ms while the gain climbs to 2x, at 10 ms
    up to 4x, 20 ms up to 6x (the Camera Module 3 tuning): under room light
    the exposure stays about 10 ms, where ``normal`` lets it reach 30-60 ms,
    so a bumped table smears a frame three to six times less.
    """

    def __init__(self, camera_number: int = 0, resolution: tuple[int, int] = (4608, 2592), fps: float = 10.0,
                 focus: float | str = "auto", timeout_s: float = 5.0,
                 loader: Callable[[], ModuleType] = import_picamera2, *, lens_position: float | None = None,
                 autofocus_timeout_s: float = AUTOFOCUS_TIMEOUT_S, exposure: str = "short") -> None:
        self.camera_number, self.resolution, self.fps, self.focus = camera_number, resolution, fps, focus
        self.exposure = exposure
        self.timeout_s, self.autofocus_timeout_s = timeout_s, autofocus_timeout_s
        self.saved_lens_position = lens_position
        self.lens_position: float | None = None
        self.focused: bool | None = None
        """The last sweep's verdict: True focused, False failed or timed out, None no sweep."""
        self.name = f"picamera2 camera {camera_number}"
        self._loader = loader
        self._camera: Any = None
        self._count = 0

    def open(self) -> None:
        if self._camera is not None:
            return
        module = self._loader()
        try:
            camera = module.Picamera2(self.camera_number)
        except (IndexError, RuntimeError, OSError) as error:
            raise DeviceError(f"{self.name}: not found or busy ({error}); rpicam-hello --list-cameras "
                              "lists cameras, and only one program may use a camera") from None
        try:
            camera.configure(self._configuration(camera))
            camera.start()
            self._focus(camera)
        except Exception as error:  # libcamera raises plain RuntimeErrors of many kinds
            camera.close()
            raise DeviceError(f"{self.name}: cannot start it ({error})") from None
        self._camera = camera

    def _configuration(self, camera: Any) -> Any:
        controls: dict[str, Any] = {}
        if self.fps > 0:
            frame_us = int(1_000_000 / self.fps)
            controls["FrameDurationLimits"] = (frame_us, frame_us)
        if "AeExposureMode" in camera.camera_controls and self.exposure in EXPOSURE_ENUM:
            modes = importlib.import_module("libcamera").controls.AeExposureModeEnum
            controls["AeExposureMode"] = getattr(modes, EXPOSURE_ENUM[self.exposure])
        # Two buffers of 36 MB at full size keep memory in bounds; queue=False so
        # every read waits for a frame taken after it was asked for (never stale).
        return camera.create_video_configuration(
            main={"size": self.resolution, "format": "RGB888"}, buffer_count=2, queue=False, controls=controls)

    def _focus(self, camera: Any) -> None:
        if "AfMode" not in camera.camera_controls:
            return  # fixed-focus camera
        controls = importlib.import_module("libcamera").controls  # apt, beside picamera2

        position = self.saved_lens_position if self.focus == "auto" else float(self.focus)
        if position is None:
            position = self._sweep(camera, controls)
        if position is None:
            camera.set_controls({"AfMode": controls.AfModeEnum.Manual})  # hold wherever the lens is
        else:
            # Manual from now on: hands moving over the mat never make the lens hunt.
            camera.set_controls({"AfMode": controls.AfModeEnum.Manual, "LensPosition": position})
        self.lens_position = position

    def _sweep(self, camera: Any, controls: Any) -> float | None:
        """One autofocus sweep within autofocus_timeout_s; the lens position it ended at, or None."""
        log.info("%s: autofocus sweep (at most %g s)", self.name, self.autofocus_timeout_s)
        try:
            job = camera.autofocus_cycle(wait=False)
            self.focused = bool(camera.wait(job, timeout=self.autofocus_timeout_s))
        except TimeoutError:
            self.focused = False
            log.warning("%s: autofocus did not finish in %g s; holding the lens where it is (set [camera] focus "
                        "or run companion calibrate)", self.name, self.autofocus_timeout_s)
            _cancel_jobs(camera)  # else the unfinished sweep would hold up every capture queued behind it
            camera.set_controls({"AfMode": controls.AfModeEnum.Manual})  # ends the sweep
        if self.focused is False:
            log.warning("%s: autofocus failed (too dark? nothing in view?); companion calibrate measures focus",
                        self.name)
        position = camera.capture_metadata().get("LensPosition")
        return None if position is None else float(position)

    def lens_range(self) -> tuple[float, float] | None:
        """Where the lens can go (dioptres), or None for a fixed-focus camera or one not open."""
        if self._camera is None or "LensPosition" not in self._camera.camera_controls:
            return None
        low, high = self._camera.camera_controls["LensPosition"][:2]
        return float(low), float(high)

    def move_lens(self, position: float) -> None:
        """Send the lens to ``position`` (dioptres) and wait, a few frames at most, until it is there."""
        if self._camera is None:
            raise CameraLost(f"{self.name}: not open")
        controls = importlib.import_module("libcamera").controls
        self._camera.set_controls({"AfMode": controls.AfModeEnum.Manual, "LensPosition": position})
        for _ in range(LENS_SETTLE_FRAMES):
            reached = self._camera.capture_metadata().get("LensPosition")
            if reached is not None and abs(float(reached) - position) <= LENS_TOLERANCE_DPT:
                break
        self.lens_position = position

    def read(self) -> Frame | None:
        if self._camera is None:
            raise CameraLost(f"{self.name}: not open")
        try:
            # Dispatch, then wait with a timeout: a plain capture blocks forever
            # when the ribbon cable comes out.
            job = self._camera.capture_array("main", wait=False)
            image = self._camera.wait(job, timeout=self.timeout_s)
        except Exception as error:  # a timeout or a dead pipeline: the cable may be out
            _cancel_jobs(self._camera)
            raise CameraLost(f"{self.name}: no frame within {self.timeout_s:g} s ({error})") from None
        frame = Frame(self._count, image, time.monotonic())
        self._count += 1
        return frame

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            with contextlib.suppress(Exception):  # closing a camera that died: nothing more to do
                camera.close()


def _cancel_jobs(camera: Any) -> None:
    """Drop picamera2's queued jobs after a timeout (its own advice), so the camera can go on or close."""
    cancel = getattr(camera, "cancel_all_and_flush", None)
    if cancel is not None:
        with contextlib.suppress(Exception):
            cancel()


# -- tests ---------------------------------------------------------------------------------


class FlakySource(Camera):
    """Wraps a source: frames in ``drop`` never arrive, frames in a ``lost`` range raise CameraLost.

    Indices are those of the wrapped source. While lost, each read still
    uses up one wrapped frame, as time goes on at the table while the camera
    is away; after the range, frames arrive again ("the camera came back").
    """

    def __init__(self, inner: Camera, drop: Collection[int] = (), lost: Sequence[range] = ()) -> None:
        self.inner, self.drop, self.lost = inner, frozenset(drop), tuple(lost)
        self.name = f"flaky {inner}"
        self.recoveries = 0

    def open(self) -> None:
        self.inner.open()

    def read(self) -> Frame | None:
        while True:
            frame = self.inner.read()
            if frame is None:
                return None
            if any(frame.index in window for window in self.lost):
                raise CameraLost(f"{self.name}: camera lost at frame {frame.index}")
            if frame.index not in self.drop:
                return frame

    def close(self) -> None:
        self.inner.close()

    def recover(self) -> bool:
        self.recoveries += 1
        return True


class FocusingCamera(Camera):
    """A camera with a movable lens over a rendered table: the stand-in for a Camera Module 3's focus.

    Frames come from :mod:`companion.sim.scene`; the lens moves as
    :class:`Picamera2Source`'s does (``lens_range``, ``move_lens``,
    ``lens_position``), so tests and benchmarks run calibrate's focus sweep
    (:func:`companion.app.focus.sweep_focus`) on it. The lens has field
    curvature: at ``centre_dpt`` the middle of the frame is sharp and the
    corners blurred by ``corner_blur`` px; the corners come into focus
    ``curvature_dpt`` further (:func:`companion.sim.optics.field_sigma`).
    """

    name = "simulated focusing camera"
    LENS_RANGE_DPT = (0.0, 15.0)  # the Camera Module 3's LensPosition limits

    def __init__(self, layout: Any, cards: Sequence[Any], options: Any, *, corner_blur: float,
                 centre_dpt: float = 1.69, curvature_dpt: float = 0.3, lens_position: float | None = None) -> None:
        import dataclasses

        import numpy as np

        from companion.sim.scene import render_table

        self.options = options
        self.corner_blur, self.centre_dpt, self.curvature_dpt = corner_blur, centre_dpt, curvature_dpt
        # The lens changes the blur only: render the table sharp once, blur each frame as the lens is.
        sharp = dataclasses.replace(options, blur_sigma=0.0, corner_blur=0.0, noise_sigma=0.0, jpeg_quality=None)
        self._sharp = render_table(layout, cards, sharp).image
        self.lens_position: float | None = centre_dpt if lens_position is None else lens_position
        self.moves: list[float] = []
        self._count = 0
        self._rng = np.random.default_rng(options.seed)

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass

    def lens_range(self) -> tuple[float, float] | None:
        return self.LENS_RANGE_DPT

    def move_lens(self, position: float) -> None:
        self.moves.append(position)
        self.lens_position = position

    @property
    def focus(self) -> float:
        """Where the best focus lies: 0 the middle, 1 the frame's corners (SceneOptions.focus)."""
        assert self.lens_position is not None
        return (self.lens_position - self.centre_dpt) / self.curvature_dpt

    def read(self) -> Frame | None:
        import numpy as np

        from companion.sim.optics import field_blur, field_sigma

        sigma = field_sigma(self.options.resolution, self.options.blur_sigma, self.corner_blur, self.focus)
        image = field_blur(self._sharp, sigma)
        if self.options.noise_sigma > 0:
            noise = self._rng.normal(0.0, self.options.noise_sigma, image.shape)
            image = np.clip(image + noise, 0, 255).astype(np.uint8)
        frame = Frame(self._count, image, time.monotonic())
        self._count += 1
        return frame


# -- choosing -------------------------------------------------------------------------------


def make_camera(settings: CameraSettings, *, lens_position: float | None = None) -> Camera:
    """The source the configuration names (not yet opened); ``lens_position``: a saved focus (picamera2)."""
    if settings.source == "path":
        return FileSource(Path(settings.device), settings.start_frame, settings.fps)
    if settings.source == "v4l2":
        return V4L2Source(settings.device, settings.resolution, settings.fps)
    return Picamera2Source(int(settings.device or "0"), settings.resolution, settings.fps, settings.focus,
                           lens_position=lens_position, exposure=settings.exposure)
