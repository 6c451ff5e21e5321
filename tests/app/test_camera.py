"""Camera sources without a camera: small PNGs and videos written here, fakes for V4L2 and picamera2."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from companion.app.camera import (
    Camera,
    FileSource,
    FlakySource,
    Frame,
    Pacer,
    Picamera2Source,
    V4L2Source,
    make_camera,
    v4l2_device,
)
from companion.app.config import CameraSettings
from companion.errors import CameraLost, DeviceError


def shade(index: int) -> np.ndarray:
    """A tiny frame whose pixel value tells its index."""
    return np.full((24, 32, 3), 10 * index, dtype=np.uint8)


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in (2, 0, 1, 3, 4):  # written out of order: reading must follow the names
        assert cv2.imwrite(str(folder / f"frame-{index:04d}.png"), shade(index))
    (folder / "notes.txt").write_text("not a frame")
    return folder


def values(camera: Camera) -> list[int]:
    """Read to the end; each frame's pixel value / 10, which is its index in the input."""
    seen = []
    while (frame := camera.read()) is not None:
        assert int(frame.image[0, 0, 0]) // 10 == frame.index
        seen.append(frame.index)
    return seen


def test_folder_in_file_name_order_then_end(frames: Path) -> None:
    with FileSource(frames) as camera:
        assert values(camera) == [0, 1, 2, 3, 4]
        assert camera.read() is None  # stays at the end


def test_start_frame_skips_and_keeps_input_indices(frames: Path) -> None:
    with FileSource(frames, start_frame=3) as camera:
        assert values(camera) == [3, 4]


def a_video(path: Path, frames: int) -> Path:
    """An MJPG video of ``frames`` shaded frames (each frame's pixel value tells its index)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for index in range(frames):
        writer.write(shade(index))
    writer.release()
    return path


def test_video_file(tmp_path: Path) -> None:
    path = a_video(tmp_path / "game.avi", 6)
    with FileSource(path, start_frame=2) as camera:
        frame = camera.read()
        assert frame is not None and frame.index == 2 and frame.image.shape == (24, 32, 3)
        assert abs(int(frame.image[12, 16, 0]) - 20) <= 3  # lossy codec: close to the written value
        rest = [f.index for f in iter(camera.read, None)]
        assert rest == [3, 4, 5]


def test_close_is_idempotent_and_open_restarts(frames: Path) -> None:
    camera = FileSource(frames, start_frame=1)
    camera.open()
    camera.open()  # idempotent: does not rewind
    assert camera.read() is not None and camera.read().index == 2  # type: ignore[union-attr]
    camera.close()
    camera.close()
    with pytest.raises(DeviceError, match="read before open"):
        camera.read()
    with camera:
        assert camera.read().index == 1  # type: ignore[union-attr]


def test_missing_empty_and_unreadable_inputs(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="nowhere: no such folder of frames or video file"):
        FileSource(tmp_path / "nowhere").open()
    (tmp_path / "empty").mkdir()
    with pytest.raises(DeviceError, match="empty: no frames here"):
        FileSource(tmp_path / "empty").open()
    (tmp_path / "movie.avi").write_bytes(b"not a video")
    with pytest.raises(DeviceError, match="not a video"):
        FileSource(tmp_path / "movie.avi").open()


def test_unreadable_frames_are_skipped_and_counted(frames: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A camera drops a frame now and then; a bad file in a folder of frames is such a frame, not the end.
    (frames / "frame-0001.png").write_bytes(b"")                   # empty
    (frames / "frame-0003.png").write_bytes(b"\x89PNG\r\n\x1a\n")   # cut short after the signature
    import os

    os.mkfifo(frames / "frame-0005.png")                         # a FIFO would block a reader forever
    with FileSource(frames) as camera:
        assert values(camera) == [0, 2, 4]
        assert camera.skipped == 3
    assert "frame 1 skipped (1 so far)" in caplog.text and "frame-0005.png: not a regular file" in caplog.text


def test_a_damaged_video_frame_is_skipped_not_the_end(tmp_path: Path) -> None:
    path = a_video(tmp_path / "game.avi", 12)
    data = bytearray(path.read_bytes())
    start = -1
    for _ in range(6):                                           # the JPEG of frame 5
        start = data.find(b"\xff\xd8\xff", start + 1)
    data[start:start + 200] = bytes(200)
    path.write_bytes(bytes(data))
    with FileSource(path) as camera:
        seen = [frame.index for frame in iter(camera.read, None)]
    assert seen[:5] == [0, 1, 2, 3, 4] and seen[-1] == 11 and 5 not in seen
    assert camera.skipped == 12 - len(seen)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_pacing_spaces_frames_without_drift(frames: Path) -> None:
    clock = FakeClock()
    with FileSource(frames, fps=4, clock=clock, sleep=clock.sleep) as camera:
        first = camera.read()
        clock.now += 0.1  # processing took 0.1 s: the next sleep is shorter, not later
        second = camera.read()
        clock.now += 0.5  # processing took longer than a frame: no sleep, no catching-up burst
        third = camera.read()
    assert first and second and third
    assert (first.at, second.at) == (100.0, 100.25)
    assert clock.slept == [0.15]
    assert third.at == clock.now


def test_fps_zero_never_sleeps(frames: Path) -> None:
    clock = FakeClock()
    with FileSource(frames, fps=0, clock=clock, sleep=clock.sleep) as camera:
        values(camera)
    assert clock.slept == []
    assert Pacer(0, clock, clock.sleep).wait() == clock.now


def test_frame_prints_in_one_line(frames: Path) -> None:
    with FileSource(frames) as camera:
        frame = camera.read()
    assert str(frame) == "frame 0 32x24 at " + f"{frame.at:.3f}"  # type: ignore[union-attr]
    assert "array" not in repr(frame)  # logs never dump pixels


# -- a camera that comes and goes -----------------------------------------------------------


def test_flaky_source_drops_vanishes_and_comes_back(frames: Path) -> None:
    camera = FlakySource(FileSource(frames), drop={1}, lost=[range(2, 4)])
    seen: list[int | str] = []
    with camera:
        while True:
            try:
                frame = camera.read()
            except CameraLost as lost:
                assert isinstance(lost, DeviceError) and "camera lost at frame" in str(lost)
                seen.append("lost")
                assert camera.recover()
                continue
            if frame is None:
                break
            seen.append(frame.index)
    assert seen == [0, "lost", "lost", 4]
    assert camera.recoveries == 2


# -- USB webcams ------------------------------------------------------------------------------


class FakeCapture:
    def __init__(self, device: object, backend: int, frames: int = 2, opens: bool = True) -> None:
        self.device, self.backend, self.left, self.opens = device, backend, frames, opens
        self.props: dict[int, float] = {}
        self.released = 0

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opens

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, shade(1)

    def release(self) -> None:
        self.released += 1


def test_v4l2_asks_for_a_one_frame_buffer_and_reports_a_lost_camera() -> None:
    made: list[FakeCapture] = []

    def factory(device: object, backend: int) -> FakeCapture:
        made.append(FakeCapture(device, backend))
        return made[-1]

    camera = V4L2Source("/dev/video2", (1280, 720), 5, capture=factory)
    with camera:
        capture = made[0]
        assert (capture.device, capture.backend) == ("/dev/video2", cv2.CAP_V4L2)
        assert capture.props[cv2.CAP_PROP_BUFFERSIZE] == 1
        assert (capture.props[cv2.CAP_PROP_FRAME_WIDTH], capture.props[cv2.CAP_PROP_FRAME_HEIGHT]) == (1280, 720)
        assert [camera.read().index, camera.read().index] == [0, 1]  # type: ignore[union-attr]
        with pytest.raises(CameraLost, match="no frame"):
            camera.read()
        assert camera.recover()  # a new capture: the camera is back
        assert len(made) == 2 and capture.released == 1
    assert made[1].released == 1


def test_v4l2_that_does_not_open() -> None:
    camera = V4L2Source("7", capture=lambda device, backend: FakeCapture(device, backend, opens=False))
    with pytest.raises(DeviceError, match="V4L2 camera 7: cannot open it"):
        camera.open()
    assert not camera.recover()
    assert v4l2_device("") == 0 and v4l2_device("3") == 3


def test_a_real_missing_device_is_a_device_error() -> None:
    with pytest.raises(DeviceError, match="cannot open"):
        V4L2Source("/dev/video-that-does-not-exist").open()


# -- Camera Module 3 through a stand-in picamera2 ---------------------------------------------


class FakePicamera2:
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self, number: int) -> None:
        self.number = number
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 32.0, 1.0)}
        self.calls: list[tuple[str, Any]] = []
        self.frames = 1
        self.autofocus: bool | None = True
        """What the sweep ends with: True focused, False failed, None never finishes."""
        self.lens = 1.7
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("controls", controls))

    def autofocus_cycle(self, wait: bool | None = None) -> str:
        assert wait is False  # dispatched, then waited for with a time limit
        self.calls.append(("autofocus", None))
        return "autofocus-job"

    def capture_metadata(self) -> dict[str, Any]:
        self.calls.append(("metadata", None))
        return {"LensPosition": self.lens, "AfState": 2}

    def capture_array(self, name: str, wait: bool) -> str:
        assert (name, wait) == ("main", False)
        return "job"

    def wait(self, job: str, timeout: float) -> Any:
        if job == "autofocus-job":
            self.calls.append(("wait-autofocus", timeout))
            if self.autofocus is None:
                raise TimeoutError("Timed out waiting for result")
            return self.autofocus
        if self.frames <= 0:
            raise TimeoutError("no frame")
        self.frames -= 1
        return np.zeros((2592, 4608, 3), dtype=np.uint8)

    def cancel_all_and_flush(self) -> None:
        self.calls.append(("cancel", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    FakePicamera2.instances = []
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(  # type: ignore[attr-defined]
        AfModeEnum=types.SimpleNamespace(Manual="Manual", Auto="Auto", Continuous="Continuous"))
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    return module


def test_picamera2_full_resolution_one_autofocus_then_held(fake_picamera2: types.ModuleType) -> None:
    with Picamera2Source(0, (4608, 2592), fps=10, focus="auto") as camera:
        frame = camera.read()
        assert isinstance(frame, Frame) and frame.image.shape == (2592, 4608, 3)
        with pytest.raises(CameraLost, match="no frame within 5 s"):
            camera.read()
    fake = FakePicamera2.instances[0]
    config = fake.calls[0][1]
    assert config["main"] == {"size": (4608, 2592), "format": "RGB888"}
    assert config["queue"] is False and config["controls"]["FrameDurationLimits"] == (100000, 100000)
    assert [name for name, _ in fake.calls] == ["configure", "start", "autofocus", "wait-autofocus", "metadata",
                                                "controls", "cancel", "close"]  # cancel: the read that timed out
    assert fake.calls[3][1] == 5.0  # the sweep has a time limit
    assert fake.calls[5][1] == {"AfMode": "Manual", "LensPosition": 1.7}  # held where the sweep ended
    assert (camera.lens_position, camera.focused) == (1.7, True)


def test_an_autofocus_that_never_ends_is_stopped_and_the_lens_held(fake_picamera2: types.ModuleType,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    original = FakePicamera2.__init__

    def hanging(self: FakePicamera2, number: int) -> None:
        original(self, number)
        self.autofocus = None

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FakePicamera2, "__init__", hanging)
        with Picamera2Source(focus="auto", autofocus_timeout_s=0.5) as camera:
            pass
    fake = FakePicamera2.instances[0]
    assert ("wait-autofocus", 0.5) in fake.calls
    assert ("cancel", None) in fake.calls and ("controls", {"AfMode": "Manual"}) in fake.calls  # ends the sweep
    assert camera.focused is False and camera.lens_position == 1.7
    assert "autofocus did not finish in 0.5 s" in caplog.text


def test_a_saved_lens_position_is_set_without_a_sweep(fake_picamera2: types.ModuleType) -> None:
    with Picamera2Source(focus="auto", lens_position=1.62) as camera:
        pass
    calls = FakePicamera2.instances[0].calls
    assert ("controls", {"AfMode": "Manual", "LensPosition": 1.62}) in calls
    assert not any(name == "autofocus" for name, _ in calls) and camera.lens_position == 1.62


def test_a_picamera2_too_old_for_timed_reads_is_refused_naming_the_version(
        fake_picamera2: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    monkeypatch.setattr(metadata, "version", lambda name: "0.3.12")
    with pytest.raises(DeviceError, match=r"picamera2 0\.3\.12 is too old: 0\.3\.17 or later .*only-upgrade"):
        Picamera2Source().open()


def test_picamera2_manual_lens_position(fake_picamera2: types.ModuleType) -> None:
    with Picamera2Source(focus=1.6):
        pass
    assert ("controls", {"AfMode": "Manual", "LensPosition": 1.6}) in FakePicamera2.instances[0].calls


def test_picamera2_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(DeviceError, match=r"apt install .*python3-picamera2.*--system-site-packages"):
        Picamera2Source().open()


def test_factory_follows_the_configuration(frames: Path) -> None:
    assert isinstance(make_camera(CameraSettings(source="path", device=str(frames))), FileSource)
    assert isinstance(make_camera(CameraSettings(source="v4l2", device="0")), V4L2Source)
    camera = make_camera(CameraSettings(source="picamera2", device="1", focus=2.0))
    assert isinstance(camera, Picamera2Source) and (camera.camera_number, camera.focus) == (1, 2.0)


def test_exposure_kept_short_where_the_camera_allows(fake_picamera2: types.ModuleType,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    libcamera = sys.modules["libcamera"]
    monkeypatch.setattr(libcamera.controls, "AeExposureModeEnum",  # type: ignore[attr-defined]
                        types.SimpleNamespace(Short="Short", Normal="Normal", Long="Long"), raising=False)
    original = FakePicamera2.__init__

    def with_exposure(self: FakePicamera2, number: int) -> None:
        original(self, number)
        self.camera_controls["AeExposureMode"] = (0, 3, 0)

    monkeypatch.setattr(FakePicamera2, "__init__", with_exposure)
    with Picamera2Source(focus=1.6):
        pass
    with Picamera2Source(focus=1.6, exposure="normal"):
        pass
    first, second = (camera.calls[0][1]["controls"] for camera in FakePicamera2.instances)
    assert first["AeExposureMode"] == "Short" and second["AeExposureMode"] == "Normal"
    assert make_camera(CameraSettings(exposure="long")).exposure == "long"  # type: ignore[attr-defined]


def test_the_lens_can_be_moved_for_the_focus_sweep(fake_picamera2: types.ModuleType) -> None:
    with Picamera2Source(focus=1.6) as camera:
        assert camera.lens_range() == (0.0, 32.0)
        camera.move_lens(1.7)  # the fake reports 1.7 at once
        assert camera.lens_position == 1.7
    calls = FakePicamera2.instances[0].calls
    assert ("controls", {"AfMode": "Manual", "LensPosition": 1.7}) in calls
    assert calls.count(("metadata", None)) == 1  # it is there: no more waiting
    assert Picamera2Source().lens_range() is None  # not open
