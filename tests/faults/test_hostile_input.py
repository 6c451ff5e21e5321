"""Input made to hurt: JSON nested thousands deep, numbers of thousands of digits, huge lines and files,
FIFOs, images whose header claims 100000x100000 pixels, empty and cut-short frames.

Every case ends with one line naming the file (and the line where there is
one) and exit status 2, never a traceback; a bad frame among good ones is
skipped and counted, and the run goes on.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import struct
import zlib
from contextlib import closing
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.journal import JOURNAL_FILE, Journal
from companion.cli import main
from tests.app.test_journal import a_table_game
from tests.faults.conftest import companion

DEEP = "[" * 5000 + "]" * 5000
LONG_NUMBER = "7" * 5000


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err.strip()


# -- records, layouts, the journal ----------------------------------------------------------------


@pytest.mark.parametrize(("second_line", "said"), [
    (DEEP, r"line 2: nested more than 32 levels deep \(at column 33\)"),
    ('{"player": "p1", "action": "discard", "cards": [], "unseen": ' + LONG_NUMBER + "}",
     r"line 2: a number of 5000 characters \(at most 40\)"),
    ('{"player": "p1", "unseen": NaN}', r"line 2: NaN is not a number JSON allows"),
    ('{"player": "' + "p" * 70_000 + '"}', r"line 2: 70014 characters, more than the 65536"),
])
def test_a_hostile_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], second_line: str, said: str) -> None:
    header, _ = a_table_game()
    record = tmp_path / "game.jsonl"
    record.write_text(f"{header}\n{second_line}\n")
    assert main(["engine", "replay", str(record), "--json"]) == 2
    assert re.fullmatch(rf"companion: {re.escape(str(record))}: {said}.*", one_line(capsys))


def test_a_record_too_large_and_a_record_from_a_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as stream:
        stream.truncate(17 * 2**20)  # sparse: costs no disk
    assert main(["engine", "replay", str(huge)]) == 2
    assert "is larger than 16 MB" in one_line(capsys)
    header, lines = a_table_game()
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    writer = os.fork()
    if writer == 0:  # a shell's <(...) hands a pipe: it is read as it comes
        with open(fifo, "w") as stream:
            stream.write("\n".join([header, *lines]) + "\n")
        os._exit(0)
    try:
        assert main(["engine", "replay", str(fifo), "--json"]) == 0
    finally:
        os.waitpid(writer, 0)
    assert json.loads(capsys.readouterr().out)["final"]["phase"] == "over"


@pytest.mark.parametrize(("content", "said"), [
    ('{"name": "deep", "size_mm": ' + DEEP + "}", r"nested more than 32 levels deep \(at column 60\)"),
    ('{"name": "big", "size_mm": [' + LONG_NUMBER + ", 1]}", r"a number of 5000 characters"),
    ('{"name": "x", "size_mm": [Infinity, 1]}', r"Infinity is not a number JSON allows"),
    (" " * (2**20 + 1), r"is larger than 1 MB"),
    ('{"name": "far", "size_mm": [1e300, 1e300]}', r"size_mm must be within 10000 mm, got 1e\+300"),
])
def test_a_hostile_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, said: str) -> None:
    layout = tmp_path / "mat.json"
    layout.write_text(content)
    assert main(["layout", "check", str(layout)]) == 2
    assert re.fullmatch(rf"companion: {re.escape(str(layout))}: {said}.*", one_line(capsys))


def test_a_layout_that_is_a_fifo_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "mat.json"
    os.mkfifo(fifo)  # opened plainly, this would wait for a writer forever
    assert main(["layout", "check", str(fifo)]) == 2
    assert one_line(capsys).endswith("mat.json: is not a regular file (a FIFO)")


def test_a_hostile_journal_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header, lines = a_table_game()
    with Journal.open(tmp_path) as journal:
        game = journal.start_game_from_header(json.loads(header))
        for line in lines[:3]:
            journal.append(game, "event", line)
    with closing(sqlite3.connect(tmp_path / JOURNAL_FILE, isolation_level=None)) as db:
        db.execute("UPDATE entries SET line = ? WHERE seq = 2", (DEEP,))
    assert main(["games", "show", "--state-dir", str(tmp_path), "--json"]) == 2
    assert re.search(r"journal entry 2: unreadable event line \(nested more than 32 levels deep", one_line(capsys))


# -- images ----------------------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height``: a few dozen bytes, no real pixels."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + _chunk(b"IEND", b""))


def write_grey_png(path: Path, width: int, height: int) -> None:
    """A complete, decodable grey PNG of any size, written row by row in little memory and time."""
    packer = zlib.compressobj(1)
    row = b"\0" + bytes([128]) * width  # filter byte "none", then the row's pixels
    with open(path, "wb") as stream:
        stream.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)))
        for _ in range(height // 100):
            stream.write(_chunk(b"IDAT", packer.compress(row * 100)))
        stream.write(_chunk(b"IDAT", packer.flush()) + _chunk(b"IEND", b""))


@pytest.mark.parametrize(("content", "said"), [
    (png_claiming(100_000, 100_000), "its header claims 10000 MP, more than the 50 MP"),
    (png_claiming(9000, 9000), r"9000x9000 pixels \(81 MP\), more than the 50 MP"),
    (png_claiming(640, 480), "cannot decode it|not an image OpenCV can read"),
    (b"", "not an image"),
    (b"\xff\xd8\xff\xe0" + bytes(40), "not an image|unreadable image header|not an image OpenCV can read"),
])
def test_a_hostile_image(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, said: str) -> None:
    image = tmp_path / "table.png"
    image.write_bytes(content)
    assert main(["vision", "detect", str(image), "--json"]) == 2
    assert re.search(rf"^companion: {re.escape(str(image))}: ({said})", one_line(capsys))


def test_a_20000_pixel_square_image_is_refused_within_300_mb(tmp_path: Path) -> None:
    image = tmp_path / "huge.png"
    write_grey_png(image, 20000, 20000)  # a real one: 400 MP, 1.2 GB once decoded
    refused = companion("vision", "detect", image, "--json", measure=True)
    assert refused.status == 2 and "claims 400 MP" in refused.one_line()
    assert refused.peak_mb < 300, f"peak {refused.peak_mb:.0f} MB"


def test_bad_frames_among_good_ones_are_skipped_and_counted(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(6):
        cv2.imwrite(str(frames / f"{index:04d}.png"), np.full((48, 64, 3), 90, np.uint8))
    (frames / "0001.png").write_bytes(b"")                           # a camera that wrote nothing
    (frames / "0003.png").write_bytes(png_claiming(100_000, 100_000))
    (frames / "0004.png").write_bytes((frames / "0005.png").read_bytes()[:60])  # cut short
    assert main(["replay", str(frames), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["events"] == []
    assert captured.err.strip().endswith(f"{frames}: 3 unreadable frame(s) skipped")
    state = tmp_path / "state"
    assert main(["run", "--camera", str(frames), "--fps", "0", "--display", "none", "--state-dir", str(state)]) == 0
    log = capsys.readouterr().err
    assert "Traceback" not in log and "stopped after 3 frames (0 dropped, 3 unreadable skipped)" in log
    assert "frame 3 skipped (2 so far)" in log
