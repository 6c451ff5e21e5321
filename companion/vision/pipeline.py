"""The vision pipeline: frame in, :class:`FrameObservation` out, state kept between frames.

``scan`` looks at the whole frame (cold start, or after the camera or light
changed). ``process`` is the steady state: it finds what changed since it was
last decoded on a small thumbnail, looks for fiducials only where their area
changed, decodes only the changed areas, and keeps every read whose sticker
pixels did not change. Reads are kept in frame pixels and mapped to the mat
anew each frame, so a refined mapping moves them with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.errors import FrameError
from companion.vision.candidates import StickerScale, find_candidates, merge_boxes
from companion.vision.changes import ChangeDetector, ChangeMap
from companion.vision.decoders import (
    DEFAULT_DECODER,
    DecodedSymbol,
    Decoder,
    DecodeResult,
    make_decoder,
)
from companion.vision.fiducials import FiducialDetector, FiducialSighting
from companion.vision.frames import check_frame, grey_crop, to_grey
from companion.vision.mapping import FiducialPlace, MappingError, MatMapping
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation, Region
from companion.vision.payload import card_id_from_payload

if TYPE_CHECKING:
    from companion.vision.layout import Layout

Point = tuple[float, float]

# Side of a fiducial in the thumbnail it is searched in: 5 px per cell is
# plenty for ArUco 4x4 and keeps the search to a few milliseconds.
FIDUCIAL_THUMB_PX = 30
# Thumbnail width for change detection: a card spans ~40 px at 4608 px.
CHANGE_THUMB_WIDTH = 600
# Fraction of the frame the mat fills (its tighter dimension), assumed until found.
MAT_FILL_GUESS = 0.8
# Retry passes for crops that read nothing: (enlargement, unsharp-mask sigma
# in frame pixels, unsharp amount). Tuned on blurred (sigma 1.5 px) 1080p
# frames with 2.7 px modules, where a single pass misses a few percent.
RETRY_PASSES = ((2.0, 1.0, 2.0), (3.0, 1.0, 3.0))
# Unchanged candidate crops that read nothing, decoded again per steady frame.
RETRIES_PER_FRAME = 2
# Below this module size (frame pixels) every retry pass runs on a failing crop.
SMALL_MODULE_PX = 3.0
# A zone border closer than this (mm) lowers a read's confidence.
ZONE_MARGIN_MM = 5.0
# How far a fiducial may move (mm on the mat) and still count as unmoved.
STILL_MM = 0.5


@dataclass(frozen=True)
class StickerRead:
    """A decoded symbol remembered in frame pixels; ``card_id`` None for a foreign code."""

    card_id: str | None
    payload: bytes
    corners: tuple[Point, Point, Point, Point]

    @property
    def center(self) -> Point:
        return DecodedSymbol(self.payload, self.corners).center

    def box(self, margin: float = 0.0) -> Region:
        pts = np.array(self.corners)
        x0, y0 = pts.min(axis=0) - margin
        x1, y1 = pts.max(axis=0) + margin
        return Region(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1)


class _Stopwatch:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.times: dict[str, float] = {}
        self._clock = clock
        self._start = clock()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = self._clock()
        try:
            yield
        finally:
            self.times[name] = self.times.get(name, 0.0) + (self._clock() - start) * 1000.0

    def done(self) -> dict[str, float]:
        self.times["total"] = (self._clock() - self._start) * 1000.0
        return {name: round(ms, 3) for name, ms in self.times.items()}


class VisionPipeline:
    """Turns frames of the table into observations; one instance per camera."""

    def __init__(
        self,
        layout: Layout,
        decoder: str | Decoder = DEFAULT_DECODER,
        *,
        whole_frame_decode: bool = False,
        sharpen_retry: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``decoder``: a name from :data:`~companion.vision.decoders.DECODERS` or an instance.

        ``whole_frame_decode`` also hands the whole frame to the decoder on a
        cold scan (slower; for comparisons); ``sharpen_retry`` decodes crops that
        read nothing again, enlarged and sharpened. ``clock`` times the stages
        (benchmarks pass ``time.thread_time`` to be immune to other load).
        """
        self.layout = layout
        self._clock = clock
        self.decoder: Decoder = make_decoder(decoder) if isinstance(decoder, str) else decoder
        self.whole_frame_decode = whole_frame_decode
        self.sharpen_retry = sharpen_retry
        self._places = {
            f.id: FiducialPlace(f.id, (float(f.center_mm[0]), float(f.center_mm[1])), float(f.size_mm))
            for f in layout.fiducials
        }
        self._fiducials = FiducialDetector(self._places)
        self._fiducial_step = 1
        self._zones = {
            name: np.array(polygon, dtype=np.float32).reshape(-1, 1, 2)
            for name, polygon in layout.zones.items()
        }
        self._shape: tuple[int, ...] | None = None
        self._changes: ChangeDetector | None = None
        self._known: dict[int, FiducialSighting] = {}  # in use: seen or remembered
        self._visible: set[int] = set()  # seen in the last frame
        self._mapping: MatMapping | None = None
        self._scale: StickerScale | None = None
        self._reads: list[StickerRead] = []
        self._unread: list[Region] = []  # candidate crops that read nothing, retried in turn
        self._age = 0

    # ------------------------------------------------------------------ public

    @property
    def mapping(self) -> MatMapping | None:
        """The current frame-to-mat mapping (None while the board is not found)."""
        return self._mapping

    @property
    def fiducial_sightings(self) -> Mapping[int, FiducialSighting]:
        """Fiducials in use: seen this frame, or remembered while hidden."""
        return dict(self._known)

    @property
    def reads(self) -> tuple[StickerRead, ...]:
        """Every symbol currently believed on the table, ours and foreign, in frame pixels."""
        return tuple(self._reads)

    def scan(self, frame: np.ndarray) -> FrameObservation:
        """Look at the whole frame, as if nothing were known about the table."""
        if (refused := _refuse(frame)) is not None:
            return refused
        watch = _Stopwatch(self._clock)
        self._adapt_to(frame)
        assert self._changes is not None
        with watch.stage("fiducials"):
            seen = self._fiducials.detect(frame, self._fiducial_step)
            if len(seen) < 3:  # odd light or scale: one slower, finer sweep before giving up
                step = max(1, self._fiducial_step // 2)
                seen = self._fiducials.detect(frame, step, thorough=True)
        with watch.stage("mapping"):
            board = self._locate(seen, confirmed=self._confirmed_by(seen))
        with watch.stage("changes"):
            thumb = self._changes.thumbnail(frame)
            self._changes.reset(thumb)
        whole = Region(0, 0, frame.shape[1], frame.shape[0])
        if not board.found:
            self._reads = []
            return FrameObservation(board, timings_ms=watch.done())
        self._unread = []
        self._reads = self._decode(frame, [whole], watch, whole_frame=self.whole_frame_decode)
        return self._observe(board, (whole,), watch)

    def process(self, frame: np.ndarray) -> FrameObservation:
        """Steady state: re-read only what changed since it was last read."""
        if (refused := _refuse(frame)) is not None:
            return refused
        if self._shape != frame.shape or self._mapping is None or self._changes is None:
            return self.scan(frame)
        watch = _Stopwatch(self._clock)
        with watch.stage("changes"):
            thumb = self._changes.thumbnail(frame)
            changes = self._changes.compare(thumb)
        if changes is None or changes.is_global:
            return self.scan(frame)
        with watch.stage("fiducials"):
            seen = self._track_fiducials(frame, changes)
        with watch.stage("mapping"):
            board = self._locate(seen, confirmed=self._confirmed_by(seen))
        if not board.found:
            self._reads = []
            return FrameObservation(board, timings_ms=watch.done())
        kept = [read for read in self._reads if not changes.touches(read.box(margin=2))]
        retried = self._retry_unread(frame, changes, watch)
        unread_elsewhere = self._unread
        self._unread = []
        fresh = self._decode(frame, list(changes.regions), watch, whole_frame=False)
        self._unread = unread_elsewhere + self._unread
        self._reads = _merge_reads(kept, retried + fresh, self._same_place_px())
        self._changes.accept(thumb, changes)
        return self._observe(board, changes.regions, watch)

    # ------------------------------------------------------------------ geometry

    def _adapt_to(self, frame: np.ndarray) -> None:
        if self._shape == frame.shape and self._changes is not None:
            return
        self._shape = frame.shape
        self._known, self._mapping, self._reads, self._age = {}, None, [], 0
        width = frame.shape[1]
        step = max(1, round(width / CHANGE_THUMB_WIDTH))
        # Before the mat is found, guess its scale: it fills most of the frame.
        mat_w, mat_h = self.layout.size_mm
        px_per_mm = MAT_FILL_GUESS * min(width / mat_w, frame.shape[0] / mat_h)
        self._changes = ChangeDetector(step, grow_px=int(self.layout.sticker_mm * px_per_mm))
        marker_px = min((f.size_mm for f in self.layout.fiducials), default=24.0) * px_per_mm
        self._fiducial_step = max(1, round(marker_px / FIDUCIAL_THUMB_PX))
        self._fiducials = FiducialDetector(self._places, cell_px=marker_px / self._fiducial_step / 6)

    def _confirmed_by(self, seen: Mapping[int, FiducialSighting]) -> set[int]:
        """Remembered fiducials stay trusted while hidden only if two seen ones did not move.

        A hand over a marker hides it but does not move the mat; if the seen
        markers moved, the mat or camera did, and memory is worthless.
        """
        still = [i for i in seen if i in self._known and seen[i].moved_from(self._known[i]) <= self._still_px()]
        moved = [i for i in seen if i in self._known and i not in still]
        return set(self._known) if len(still) >= 2 and not moved else set()

    def _track_fiducials(self, frame: np.ndarray, changes: ChangeMap) -> dict[int, FiducialSighting]:
        """Fiducials seen in this frame: unchanged areas keep theirs, changed ones are searched."""
        seen: dict[int, FiducialSighting] = {}
        step = self._fiducial_step
        for fid, known in self._known.items():
            if not changes.touches(known.bounds(2)):
                if fid in self._visible:  # else it is still under whatever hid it
                    seen[fid] = known
                continue
            roi = known.bounds(margin=known.side_px)
            found = self._fiducials.detect(frame, step, roi).get(fid)
            if found is not None:
                seen[fid] = found
        for fid, expected in self._expected_unknown_fiducials().items():
            # Never seen since the last scan (a card lay on it): look again
            # where the mapping puts it once that area changes.
            if changes.touches(expected.bounds(2)):
                found = self._fiducials.detect(frame, step, expected.bounds(expected.side_px)).get(fid)
                if found is not None:
                    seen[fid] = found
        return seen

    def _expected_unknown_fiducials(self) -> dict[int, FiducialSighting]:
        if self._mapping is None:
            return {}
        expected = {}
        for fid, place in self._places.items():
            if fid not in self._known:
                corners = self._mapping.mat_to_image(place.corners_mm())
                expected[fid] = FiducialSighting(fid, tuple(map(tuple, corners)))  # type: ignore[arg-type]
        return expected

    def _locate(self, seen: Mapping[int, FiducialSighting], confirmed: set[int]) -> BoardStatus:
        """Fit the mapping from what is seen plus remembered, still-trusted fiducials."""
        remembered = {i: s for i, s in self._known.items() if i in confirmed and i not in seen}
        use = {**remembered, **seen}
        all_seen = set(self._places) <= set(seen)
        self._age = 0 if all_seen else self._age + 1
        ids = tuple(sorted(seen))
        try:
            mapping = MatMapping(use, self._places)
        except MappingError as error:
            self._mapping, self._known, self._visible = None, dict(seen), set(seen)
            seen_text = f"saw {len(seen)} of {len(self._places)} fiducials {list(ids)}"
            return BoardStatus(False, ids, self._age, f"board not found ({seen_text}): {error}")
        self._mapping, self._known, self._visible = mapping, use, set(seen)
        center = (self.layout.size_mm[0] / 2.0, self.layout.size_mm[1] / 2.0)
        sticker_px = float(self.layout.sticker_mm) * mapping.px_per_mm(center)
        # companion markers prints a 4-module quiet zone: 21 + 8 modules across.
        self._scale = StickerScale(sticker_px, sticker_px / 29.0)
        return BoardStatus(True, ids, self._age, None)

    def _still_px(self) -> float:
        return max(1.0, STILL_MM * (self._scale.sticker_px / self.layout.sticker_mm if self._scale else 1.0))

    def _same_place_px(self) -> float:
        return self._scale.sticker_px / 2.0 if self._scale else 10.0

    # ------------------------------------------------------------------ decoding

    def _decode(
        self, frame: np.ndarray, regions: list[Region], watch: _Stopwatch, *, whole_frame: bool
    ) -> list[StickerRead]:
        assert self._scale is not None
        symbols: list[DecodedSymbol] = []
        if whole_frame:
            with watch.stage("decode_frame"):
                symbols += self._safe_decode(to_grey(frame)).symbols
        with watch.stage("candidates"):
            fiducials = [s.bounds(0) for s in self._known.values()]
            boxes = merge_boxes(
                box
                for region in regions
                for box in find_candidates(frame, region, self._scale)
                if not _centre_in_any(box, fiducials)  # markers are textured too
            )
            if whole_frame:
                boxes = [b for b in boxes if not _holds_any(b, symbols)]
        with watch.stage("decode_crops"):
            symbols += self._decode_boxes(frame, boxes)
        reads = [StickerRead(card_id_from_payload(s.payload), s.payload, s.corners) for s in symbols]
        return _merge_reads([], reads, self._same_place_px())

    def _decode_boxes(self, frame: np.ndarray, boxes: list[Region]) -> list[DecodedSymbol]:
        """Decode each box, retrying the doubtful ones; boxes that read nothing wait for later."""
        symbols: list[DecodedSymbol] = []
        doubtful: list[tuple[Region, np.ndarray, int]] = []
        for box in boxes:
            crop = grey_crop(frame, box.x, box.y, box.x + box.width, box.y + box.height)
            first = self._safe_decode(crop)
            symbols += [s.shifted(max(0, box.x), max(0, box.y)) for s in first.symbols]
            if self._worth_retry(crop, first):
                doubtful.append((box, crop, len(first.symbols)))
        for box, crop, read in doubtful:
            more = self._retry(crop)
            if not (read or more):
                self._unread.append(box)
            symbols += [s.shifted(max(0, box.x), max(0, box.y)) for s in more]
        return symbols

    def _retry_unread(self, frame: np.ndarray, changes: ChangeMap, watch: _Stopwatch) -> list[StickerRead]:
        """Decode a few unchanged candidates that read nothing before, in turn.

        Each frame brings fresh sensor noise, so a sticker missed once (blur,
        glare) often reads later; a couple of crops per frame cost about a
        millisecond and recover it without waiting for a change there.
        """
        waiting = [box for box in self._unread if not changes.touches(box)]
        now, later = waiting[:RETRIES_PER_FRAME], waiting[RETRIES_PER_FRAME:]
        self._unread = later
        with watch.stage("retry_unread"):
            symbols = self._decode_boxes(frame, now)  # failures go to the back of the queue
        return [StickerRead(card_id_from_payload(s.payload), s.payload, s.corners) for s in symbols]

    def _worth_retry(self, crop: np.ndarray, first: DecodeResult) -> bool:
        """Whether a crop may hold a sticker the plain pass did not read."""
        assert self._scale is not None
        room_for_more = max(crop.shape[:2]) > 2.5 * self._scale.sticker_px
        return self.sharpen_retry and (not first.symbols or room_for_more or bool(first.unread))

    def _retry(self, crop: np.ndarray) -> list[DecodedSymbol]:
        """Decode a crop again, enlarged and sharpened.

        Defocus blur of 1.5 px on modules of 2.7..3.3 px, worse with clipped
        highlights, washes out the single-module details the binarizer needs
        (often the decoder does not even locate the symbol). Enlarging the
        crop (cubic) and an unsharp mask restore enough of them. The stronger
        second pass runs only where the first one located a symbol, or where
        modules are so small that blur can hide even that.
        """
        assert self._scale is not None
        for factor, sigma_px, amount in RETRY_PASSES:
            large = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
            soft = cv2.GaussianBlur(large, (0, 0), factor * sigma_px)
            sharp = cv2.addWeighted(large, 1.0 + amount, soft, -amount, 0)
            more = self._safe_decode(sharp)
            if more.symbols:
                return [s.scaled(1.0 / factor) for s in more.symbols]
            if not more.unread and self._scale.module_px >= SMALL_MODULE_PX:
                break
        return []

    def _safe_decode(self, grey: np.ndarray) -> DecodeResult:
        if grey.size == 0 or min(grey.shape[:2]) < 8:
            return DecodeResult((), 0)
        try:
            return self.decoder.decode_detailed(grey)
        except (ValueError, RuntimeError, cv2.error):
            return DecodeResult((), 0)  # a decoder choking on one crop must not lose the frame

    # ------------------------------------------------------------------ output

    def _observe(self, board: BoardStatus, regions: tuple[Region, ...], watch: _Stopwatch) -> FrameObservation:
        assert self._mapping is not None
        with watch.stage("assemble"):
            ours = [read for read in self._reads if read.card_id is not None]
            centers = self._mapping.image_to_mat([read.center for read in ours]) if ours else np.empty((0, 2))
            cards = tuple(
                self._card(read.card_id, (float(x), float(y)))
                for read, (x, y) in zip(ours, centers, strict=True)
                if read.card_id is not None
            )
            counts: dict[str, int] = {}
            for card in cards:
                counts[card.card_id] = counts.get(card.card_id, 0) + 1
            duplicates = tuple(sorted(card_id for card_id, n in counts.items() if n > 1))
            foreign = sum(1 for read in self._reads if read.card_id is None)
        return FrameObservation(board, cards, duplicates, foreign, regions, watch.done())

    def _card(self, card_id: str, center_mm: Point) -> CardObservation:
        zone = self.layout.zone_at(center_mm)
        border = min(
            abs(cv2.pointPolygonTest(polygon, center_mm, True)) for polygon in self._zones.values()
        ) if self._zones else ZONE_MARGIN_MM
        confidence = 0.5 + 0.5 * min(1.0, border / ZONE_MARGIN_MM)
        rounded = (round(center_mm[0], 1), round(center_mm[1], 1))
        return CardObservation(card_id, rounded, zone, round(confidence, 3))


def _refuse(frame: object) -> FrameObservation | None:
    """A not-found observation for a frame that is no image; the state is left alone.

    A camera loop must survive one corrupt frame, so this is an answer, not an error.
    """
    try:
        check_frame(frame)
    except FrameError as error:
        return FrameObservation(BoardStatus(False, (), 0, f"unusable frame: {error}"))
    return None


def _centre_in_any(box: Region, areas: list[Region]) -> bool:
    x, y = box.x + box.width / 2, box.y + box.height / 2
    return any(a.x <= x <= a.x + a.width and a.y <= y <= a.y + a.height for a in areas)


def _holds_any(box: Region, symbols: list[DecodedSymbol]) -> bool:
    for symbol in symbols:
        x, y = symbol.center
        if box.x <= x <= box.x + box.width and box.y <= y <= box.y + box.height:
            return True
    return False


def _merge_reads(kept: list[StickerRead], fresh: list[StickerRead], same_px: float) -> list[StickerRead]:
    """Kept reads plus fresh ones; the same payload within ``same_px`` is one sticker."""
    merged = list(kept)
    for read in fresh:
        x, y = read.center
        twin = next(
            (
                i
                for i, other in enumerate(merged)
                if other.payload == read.payload
                and (other.center[0] - x) ** 2 + (other.center[1] - y) ** 2 <= same_px**2
            ),
            None,
        )
        if twin is None:
            merged.append(read)
        else:
            merged[twin] = read  # the newer read of the same sticker
    return merged
