"""The vision pipeline: frame in, :class:`FrameObservation` out, state kept between frames.

``scan`` looks at the whole frame (cold start, or after the camera or light
changed). ``process`` is the steady state: it finds what changed since it was
last decoded on a small thumbnail, looks for fiducials only where their area
changed, decodes only the changed areas, and keeps every read whose sticker
pixels did not change. Reads are kept in frame pixels and mapped to the mat
anew each frame, so a refined mapping moves them with it.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.errors import FrameError
from companion.vision.candidates import MARGIN_STICKERS, StickerScale, find_candidates, merge_boxes, tiles
from companion.vision.changes import ChangeDetector, ChangeMap
from companion.vision.decoders import (
    DEFAULT_DECODER,
    Corners,
    DecodedSymbol,
    Decoder,
    DecodeResult,
    make_decoder,
)
from companion.vision.dictionary import card_dictionary, read_by_dictionary, search_regions, symbol_of
from companion.vision.fiducials import FiducialDetector, FiducialSighting
from companion.vision.frames import Thumbnails, check_frame, grey_crop, to_grey
from companion.vision.lens import LensError, LensModel, lens_for_frames
from companion.vision.mapping import FiducialPlace, MappingError, MatMapping
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation, Region
from companion.vision.payload import card_id_from_payload
from companion.vision.sharpness import SMEAR_MODULES, SmearMeter, interpolate
from companion.vision.stickers import QR_MODULES, STICKER_MODULES, card_centers_mm, card_offset_mm

if TYPE_CHECKING:
    from companion.vision.layout import Layout

Point = tuple[float, float]

# Side of a fiducial in the thumbnail it is searched in: 3.3 px per cell
# still finds every marker ArUco found at 5 px (rendered tables, tilt up to
# 10 degrees, blur 1.5 px) in half the time; corners are refined at full
# resolution anyway, and a frame with fewer than 3 markers is searched again
# at twice the resolution.
FIDUCIAL_THUMB_PX = 20
# Thumbnail width for change detection: a card spans ~40 px at 4608 px.
CHANGE_THUMB_WIDTH = 600
# Fraction of the frame the mat fills (its tighter dimension), assumed until found.
MAT_FILL_GUESS = 0.8
# Unchanged candidate crops that read nothing, decoded again per steady frame.
RETRIES_PER_FRAME = 2
# Below this module size (frame pixels) crops are enlarged before decoding,
# and a crop where nothing was even located is still tried again.
SMALL_MODULE_PX = 3.0
# Unsharp-mask radius in frame pixels: about a third of a module, the scale of
# the defocus blur (sigma up to 1.5 px) that washes out single modules.
SHARPEN_SIGMA_PX = 1.0
# The blur's kernel cut at two sigmas: 2.5 times faster than OpenCV's own choice
# (three sigmas) on 8-bit crops, the sharpened crop within a grey level of it.
SHARPEN_KERNEL = (2 * math.ceil(2 * SHARPEN_SIGMA_PX) + 1,) * 2
# A crop narrower than this (in stickers, margins included) where nothing was
# located holds at most part of a sticker: not worth a second pass. A crop is
# its textured core plus MARGIN_STICKERS each side, and blur thins a whole
# code's core (the texture reaches the density threshold only in its middle):
# a blurred whole sticker at 1080p (2.6 px per module, blur 1.1 px) left a core
# of 0.54-0.59 sticker, under the 0.6 that 1.5 stickers asked for, and was never
# given the pass that reads it (docs/benchmarks.md, "6-table run on main").
# From a core of half a sticker: on the benchmark's tables 0.8 more crops per
# 1080p table and 2.3 per 12 MP table get their further passes.
BLIND_RETRY_STICKERS = 2 * MARGIN_STICKERS + 0.5
# A candidate whose textured middle (the box less its margins) is thinner than this, in stickers, holds
# no whole code: a code's middle is 0.72 sticker across (21 of 29 modules), 0.54 or more when blurred
# (above). Such slivers (an edge of a covered sticker, a card's printed line) were decoded once and read
# nothing: 267 of 2,400 first passes on the 36 benchmark tables of 1080p, with and without a lens model
# (the first reads came at 0.35; docs/benchmarks.md, "fifth pass"). They are not decoded; they join the
# retries last, as a crop that read nothing did.
SLIVER_STICKERS = 0.25
# In a sharp frame the first pass reads the whole stickers of a large crop (a fanned row, a heap): a
# large crop that read and located nothing there is covered stickers, and its further passes (the 2x
# pass: a third of a 1080p cold scan's decoding) read nothing on the 36 benchmark tables, with and
# without a lens model. A cold scan leaves such crops to the steady state's retries, which give them
# every pass. A crop whose textured middle could be one lone code still gets its passes now: a sharp
# whole sticker or foreign code was read by the 2x pass alone twice there (middles of 0.6 and 0.88
# sticker; a code turned 45 degrees spans 1.02), and a card's second sticker may be covered.
# Sharp: the softest marker measured blurs by under 0.4 module (sigma); the 2x pass read stickers in
# large crops from 1.3 px (0.48 module) up (docs/benchmarks.md, "fifth pass").
SHARP_FRAME_BLUR_MODULES = 0.4
LONE_CODE_STICKERS = 1.2
# Side of the window decoded again around a symbol located but not read, in
# stickers: a sticker at any rotation with a little margin.
RETRY_WINDOW_STICKERS = 2.0
# Sides of a located but unread symbol, in symbols of our stickers, that can
# be one of ours (perspective and blur within the bounds stay inside).
LOCATED_SIDE = (0.75, 1.3)
# A zone border closer than this (mm) to a card's centre lowers its confidence.
ZONE_MARGIN_MM = 5.0
# Reads of one card id whose card centres lie this close (mm) are the two
# stickers of one card. Each estimate is off by up to a couple of millimetres
# (a sticker stuck a little off or askew: 3 degrees move the centre 1.7 mm;
# the cloth between two fiducials); two cards fanned as tightly as players do
# lie 12 mm or more apart.
SAME_CARD_MM = 8.0
# How far a fiducial may move (mm on the mat) and still count as unmoved.
STILL_MM = 0.5
# Fiducials that must show the smear for the whole frame to count as smeared.
SMEAR_FIDUCIALS = 3


@dataclass(frozen=True)
class DecodePass:
    """One way of handing a crop to the decoder: sharpened, then enlarged.

    Sharpening before enlarging filters the small crop (a quarter of the
    pixels at 2x) and reads as well as the other way round.
    """

    enlarge: float
    amount: float  # unsharp-mask amount; 0: the crop as it is
    cubic: bool = False

    def prepare(self, crop: np.ndarray, sharpened: dict[float, np.ndarray] | None = None) -> np.ndarray:
        """The crop as the decoder gets it. ``sharpened``: the crop's sharpened versions by amount, kept
        for the next pass over the same whole crop (the same pixels: only the enlargement differs)."""
        image = crop if not self.amount else sharpened.get(self.amount) if sharpened is not None else None
        if image is None:
            soft = cv2.GaussianBlur(crop, SHARPEN_KERNEL, SHARPEN_SIGMA_PX)
            image = cv2.addWeighted(crop, 1.0 + self.amount, soft, -self.amount, 0)
            if sharpened is not None:
                sharpened[self.amount] = image
        if self.enlarge != 1.0:
            interpolation = cv2.INTER_CUBIC if self.cubic else cv2.INTER_LINEAR
            image = cv2.resize(image, None, fx=self.enlarge, fy=self.enlarge, interpolation=interpolation)
        return image


# Passes tried in turn on a crop while something in it stays unread (measured
# on the benchmark's tables, blur up to 1.5 px, JPEG q75; docs/benchmarks.md).
# Modules of 3 px or more (12 MP, 16 mm stickers): the sharpened crop alone
# reads 100% of the visible stickers where the plain crop reads 96%; the
# plain crop reads a few the sharpened one misses (dim light, 45 degrees,
# glare clipped by the sharpening).
SHARP_MODULE_PASSES = (DecodePass(1.0, 3.0), DecodePass(1.0, 0.0), DecodePass(2.0, 3.0))
# Smaller modules (1080p, 32 mm stickers: 2.7 px): the plain crop reads only
# half of them, sharpened and enlarged 2x 98.6%; the last few read after a
# slightly different resampling.
SMALL_MODULE_PASSES = (DecodePass(1.5, 3.0), DecodePass(2.0, 3.0, cubic=True))
PLAIN_PASSES = (DecodePass(1.0, 0.0),)
# Modules below the least calibrate accepts at the mat's edges (2.4 px; the
# 1080p design point is 2.7): what a wide lens's barrel leaves there (1.9-2.4
# px at 1080p, k1 = -0.3). There each pass reads stickers the others miss (a
# tight crop of a sticker missed at k1 = -0.3 read under one or two of 32
# passes tried, not always the same), so more passes run; and a crop several
# stickers across is decoded in sticker-sized tiles, since a sticker beside a
# read one in a large crop was often neither read nor even located
# (docs/benchmarks.md). From 2.5 px a tilted camera's far side took these
# passes on ordinary 1080p tables too: 29% more pixels decoded, nothing more read.
TINY_MODULE_PX = 2.4
TINY_MODULE_PASSES = (*SMALL_MODULE_PASSES, DecodePass(3.0, 6.0, cubic=True), DecodePass(1.0, 3.0))
TINY_CROWD_STICKERS = 2.5
# The most a sticker's scale falls from a box's middle to its corners: a wide
# lens's barrel takes a third off from the frame's middle to its corners, over
# half the frame, not over one box.
CROWD_SCALE_DROP = 0.25
# Every card carries its code twice, in opposite corners (companion/vision/stickers.py), so a cold
# scan needs one read per card: a crop whose textured middle lies wholly where a card read already
# has its other sticker is left to the steady state's retries, which read it a few frames later
# (the second read only refines the card's position). The other sticker's place, carried from one
# read across the card in the read symbol's own axes, was off by up to 6 px (2 modules) at 1080p
# on the benchmark's tables; this much slack around it still leaves out any texture beyond it.
OTHER_STICKER_SLACK_MODULES = 6.0
# Only where that pays and was measured safe: modules under 3 px (1080p, 32 mm stickers: 549 cards of
# 36 tables all read). At 12 MP (16 mm stickers, 3.2 px) a card laid over the place of a read card's
# covered sticker was left for later (3 of 106 cards on 4 tables); the 12 MP scan meets its time anyway.
ONE_READ_BELOW_MODULE_PX = SMALL_MODULE_PX


@dataclass(frozen=True)
class UnreadCrop:
    """A candidate crop where a sticker may be but nothing (or not all) was read.

    ``spots`` are where in the frame unread stickers seem to lie: the corners
    (in the symbol's own order) of symbols of a sticker's size, with their
    white margin in view, that the decoder located but could not decode. A
    crop that read nothing and located nothing has no spot (often the visible
    corner of a covered sticker) but is still retried.
    """

    box: Region
    spots: tuple[Corners, ...]
    since: int
    """The frame (:attr:`VisionPipeline.frames` count) in which the crop's pixels last changed."""
    scale: StickerScale
    """The stickers' expected size where the crop lies."""
    other_sticker: bool = False
    """Left by a cold scan as the other sticker of a card read (OTHER_STICKER_SLACK_MODULES), not as a failure."""


@dataclass(frozen=True)
class _CropReading:
    """A crop after its first decoding pass: what it read and located, and what further passes would do."""

    found: list[DecodedSymbol]
    missed: list[DecodedSymbol]
    """Symbols of a sticker's size located but not read."""
    whole: bool
    """Further passes decode the whole crop (nothing located to aim at, or a tiny crowd's middle unread)."""
    rest: tuple[DecodePass, ...]
    sharpened: dict[float, np.ndarray]
    """The whole crop sharpened, by amount (:meth:`DecodePass.prepare`)."""

    @property
    def blind(self) -> bool:
        """Nothing read, nothing located."""
        return not self.found and not self.missed


@dataclass(frozen=True)
class StickerRead:
    """A decoded symbol remembered in frame pixels; ``card_id`` None for a foreign code."""

    card_id: str | None
    payload: bytes
    corners: tuple[Point, Point, Point, Point]
    since: int = 0
    """The frame in which the sticker's pixels last changed: earlier than the read for a retry."""

    @property
    def center(self) -> Point:
        return DecodedSymbol(self.payload, self.corners).center

    def box(self, margin: float = 0.0) -> Region:
        pts = np.array(self.corners)
        x0, y0 = pts.min(axis=0) - margin
        x1, y1 = pts.max(axis=0) + margin
        return Region(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1)


@dataclass(frozen=True)
class _SharpFrame:
    """What the last sharp frame (board found, nothing smeared) knew, kept through smeared and board-lost frames.

    The first sharp frame after them is compared with it, not with the
    smeared pixels (:meth:`VisionPipeline._resume`).
    """

    reads: tuple[StickerRead, ...]
    unread: tuple[UnreadCrop, ...]
    reference: np.ndarray | None
    """The change detector's reference then (:attr:`ChangeDetector.reference`)."""


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
        lens: LensModel | None = None,
        dictionary_reads: bool = True,
    ) -> None:
        """``decoder``: a name from :data:`~companion.vision.decoders.DECODERS` or an instance.

        ``lens``: the camera's lens model (:func:`companion.vision.lens.load_lens`
        reads the one ``companion calibrate`` stored); points are mapped
        through it. None takes frame pixels as a pinhole camera's.

        ``whole_frame_decode`` also hands the whole frame to the decoder on a
        cold scan (slower; for comparisons); ``sharpen_retry`` decodes crops
        sharpened (and enlarged when modules are small) and again while
        something in them stays unread; without it, each crop once as it is. ``clock`` times the stages
        (benchmarks pass ``time.thread_time`` to be immune to other load).
        """
        self.layout = layout
        self.lens = lens
        self._frame_lens: LensModel | None = None  # the lens scaled to the frames seen
        self._clock = clock
        self.decoder: Decoder = make_decoder(decoder) if isinstance(decoder, str) else decoder
        self.whole_frame_decode = whole_frame_decode
        self.sharpen_retry = sharpen_retry
        self.dictionary_reads = dictionary_reads
        if dictionary_reads:
            # Built once per process (30-40 ms): at start-up, not inside the first cold scan that needs it.
            card_dictionary()
        self._places = {
            f.id: FiducialPlace(f.id, (float(f.center_mm[0]), float(f.center_mm[1])), float(f.size_mm))
            for f in layout.fiducials
        }
        self._fiducials = FiducialDetector(self._places)
        self._fiducial_step = 1
        # The other sticker's centre from one's, in symbol sides along the read code's own axes.
        module_mm = layout.sticker_mm / STICKER_MODULES
        offset = card_offset_mm(layout.card_mm, layout.sticker_mm)
        self._other_offset = (2.0 * offset[0] / module_mm / QR_MODULES, 2.0 * offset[1] / module_mm / QR_MODULES)
        self._zones = {  # in the order zone_at tries them
            name: np.array(layout.zones[name], dtype=np.float32).reshape(-1, 1, 2) for name in layout.zone_order()
        }
        # Each zone's bounding box grown by ZONE_MARGIN_MM: a card centre outside it is outside the zone and
        # more than the margin from its border (a polygon's border lies inside its bounding box).
        self._zone_reach = {name: (float(p[:, 0, 0].min()) - ZONE_MARGIN_MM, float(p[:, 0, 1].min()) - ZONE_MARGIN_MM,
                                   float(p[:, 0, 0].max()) + ZONE_MARGIN_MM, float(p[:, 0, 1].max()) + ZONE_MARGIN_MM)
                            for name, p in self._zones.items()}
        self._shape: tuple[int, ...] | None = None
        self._changes: ChangeDetector | None = None
        self._known: dict[int, FiducialSighting] = {}  # in use: seen or remembered
        self._visible: set[int] = set()  # seen in the last frame
        self._mapping: MatMapping | None = None
        self._scale: StickerScale | None = None
        self._reads: list[StickerRead] = []
        self._unread: list[UnreadCrop] = []  # crops with something unread, retried in turn
        self._age = 0
        self._smear = SmearMeter()
        self._smeared_fids: set[int] = set()
        """Fiducials the last measure found smeared: measured again each frame until sharp (see :meth:`_smeared`)."""
        self._smeared_before = False
        """Whether the last frame looked at was smeared (whole or in zones) or lost the board: the first sharp
        one is compared with the last sharp one (:meth:`_resume`)."""
        self._sharp: _SharpFrame | None = None
        """The last sharp frame's reads, unread crops and change reference (see :class:`_SharpFrame`)."""
        self._shaken = False
        """Whether a frame since the last sharp one was smeared (not only the board lost): see :meth:`_held`."""
        self.frames = 0
        """Frames looked at so far (scan or process)."""

    # ------------------------------------------------------------------ public

    def use_lens(self, lens: LensModel | None) -> None:
        """Map through another lens model from the next frame on (everything known is forgotten)."""
        self.lens = lens
        self._shape = None
        self._smear.forget()

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

    def scan(self, frame: np.ndarray, *, thorough: bool = False, every_sticker: bool = False) -> FrameObservation:
        """Look at the whole frame, as if nothing were known about the table.

        ``thorough`` searches again for any fiducial missing, finer and with
        every threshold (slower; for calibration, where a marker reported
        hidden must really be hidden, not just blurred or small).

        With small modules (ONE_READ_BELOW_MODULE_PX) a card is read from one
        of its two stickers; crops holding nothing but the other sticker of a
        card read are left to the next frames' retries (:meth:`process`),
        which add it to the card within a second. ``every_sticker`` decodes
        them now (one image and no next frame: ``companion vision detect``).
        """
        if (refused := _refuse(frame)) is not None:
            return refused
        watch = _Stopwatch(self._clock)
        try:
            self._adapt_to(frame)
        except LensError as error:  # a calibration of another camera: an answer, as for a corrupt frame
            return FrameObservation(BoardStatus(False, (), 0, f"unusable frame: {error}"))
        self.frames += 1
        assert self._changes is not None
        thumbs = Thumbnails(frame)  # the fiducials, the change reference and the candidates sample it alike
        with watch.stage("fiducials"):
            seen = self._fiducials.detect(frame, self._fiducial_step, thumbs=thumbs)
            if len(seen) < 3 or (thorough and len(seen) < len(self._places)):
                # Odd light, blur or scale: one slower, finer sweep before giving up.
                step = max(1, self._fiducial_step // 2)
                seen = {**self._fiducials.detect(frame, step, thorough=True, thumbs=thumbs), **seen}
        with watch.stage("mapping"):
            board = self._locate(seen, confirmed=self._confirmed_by(seen))
        with watch.stage("changes"):
            thumb = self._changes.thumbnail(frame, thumbs)
            self._changes.reset(thumb)
        whole = Region(0, 0, frame.shape[1], frame.shape[0])
        if not board.found:
            self._reads, self._smeared_before = [], True
            return FrameObservation(board, timings_ms=watch.done())
        with watch.stage("sharpness"):
            # Every other marker is enough to notice a smear; all are measured once one shows it.
            sample = set(sorted(seen)[::2])
            board, smeared = self._smeared(frame, board, seen, sample)
        resumed = self._smeared_before and not smeared
        self._smeared_before = bool(smeared)
        self._shaken = self._shaken or bool(smeared)
        self._unread = []
        assert self._scale is not None
        once = not every_sticker and self._scale.module_px < ONE_READ_BELOW_MODULE_PX
        softest = self._smear.softest_blur_px(sample)
        sharp = once and softest is not None and softest < SHARP_FRAME_BLUR_MODULES * self._scale.module_px
        self._reads = self._unsmeared(self._decode(frame, [whole], watch, whole_frame=self.whole_frame_decode,
                                                   one_read_per_card=once, sharp_frame=sharp, thumbs=thumbs),
                                      board, smeared)
        if resumed:
            # Back after a smear or the board lost (a camera bumped hard, a hand over the markers): what did
            # not change since the last sharp frame keeps its reads, as in the steady state.
            since = self._since_sharp(thumb)
            if since is not None:
                assert self._sharp is not None
                untouched = [read for read in self._sharp.reads if not since.touches(read.box(margin=2))]
                self._reads = self._held(_merge_reads(untouched, self._reads, self._same_place_px()), since,
                                         self._unread)
        if not smeared:
            self._keep_sharp()
        return self._observe(board, (whole,), watch, smeared)

    def process(self, frame: np.ndarray) -> FrameObservation:
        """Steady state: re-read only what changed since it was last read."""
        if (refused := _refuse(frame)) is not None:
            return refused
        if self._shape != frame.shape or self._mapping is None or self._changes is None:
            return self.scan(frame)
        watch = _Stopwatch(self._clock)
        thumbs = Thumbnails(frame)
        with watch.stage("changes"):
            thumb = self._changes.thumbnail(frame, thumbs)
            changes = self._changes.compare(thumb)
        if changes is None or changes.is_global:
            return self.scan(frame)
        self.frames += 1
        with watch.stage("fiducials"):
            seen = self._track_fiducials(frame, changes)
        with watch.stage("mapping"):
            board = self._locate(seen, confirmed=self._confirmed_by(seen))
        if not board.found:
            self._reads, self._smeared_before = [], True
            return FrameObservation(board, timings_ms=watch.done())
        kept = [read for read in self._reads if not changes.touches(read.box(margin=2))]
        # Changed areas are decoded afresh below; their old failures are void.
        self._unread = [crop for crop in self._unread if not changes.touches(crop.box)]
        retried = self._retry_unread(frame, watch)
        waiting = len(self._unread)
        fresh = self._decode(frame, list(changes.regions), watch, whole_frame=False, thumbs=thumbs)
        # What just changed and did not read (a sticker a hand has only now uncovered) is retried
        # first, next frame: behind dozens of long-unread corners it would wait many frames.
        self._unread = self._unread[waiting:] + self._unread[:waiting]
        with watch.stage("sharpness"):
            look = {i for i, s in seen.items() if changes.touches(s.bounds(2))}
            # The scan measured every other marker: the rest learn their sharp edges two a frame.
            look |= set([i for i in sorted(seen) if not self._smear.knows(i)][:2])
            if self._lost_reads(kept + retried + fresh):
                # A smear can slip under the change detector at the markers: a few spread over the mat tell.
                look |= set(sorted(seen)[:: max(1, len(seen) // 3)])
            board, smeared = self._smeared(frame, board, seen, look)
        resumed = self._smeared_before and not smeared
        self._smeared_before = bool(smeared)
        self._shaken = self._shaken or bool(smeared)
        if resumed:
            self._resume(frame, thumb, kept, retried + fresh, watch, thumbs)
        else:
            self._reads = _merge_reads(kept, self._unsmeared(retried + fresh, board, smeared), self._same_place_px())
            self._changes.accept(thumb, changes)
        if not smeared:
            self._keep_sharp()
        return self._observe(board, changes.regions, watch, smeared)

    # ------------------------------------------------------------------ after a smear

    def _keep_sharp(self) -> None:
        assert self._changes is not None
        self._sharp = _SharpFrame(tuple(self._reads), tuple(self._unread), self._changes.reference)
        self._shaken = False

    def _since_sharp(self, thumb: np.ndarray) -> ChangeMap | None:
        """What changed since the last sharp frame; None if nothing is known of one, or everything changed."""
        assert self._changes is not None
        if self._sharp is None:
            return None
        since = self._changes.compare_with(thumb, self._sharp.reference)
        return None if since is None or since.is_global else since

    def _resume(self, frame: np.ndarray, thumb: np.ndarray, kept: list[StickerRead], fresh: list[StickerRead],
                watch: _Stopwatch, thumbs: Thumbnails) -> None:
        """The first sharp frame after smeared ones: compared with the last sharp frame, not the smeared pixels.

        The smeared frames dropped their reads, and their pixels went into
        the change detector's reference; a sharp frame may differ from a
        small smear too little to count as changed there, and those cards
        would stay unread. So what changed since the last sharp frame is
        decoded afresh, and what did not keeps that frame's reads and unread
        crops (a cold scan would lose the reads it cannot make again). A read
        of what changed but was not read again is held while an unread
        candidate lies where it was (:meth:`_held`). ``kept`` and ``fresh``:
        this frame's reads so far (the smeared frames' reads not since
        changed, and what was decoded of the changes since the last smeared frame).
        """
        assert self._changes is not None and self._sharp is not None
        same_px = self._same_place_px()
        since = self._since_sharp(thumb)
        if since is None:  # the camera moved, or no sharp frame to go back to: read the whole frame
            self._unread = []
            fresh = fresh + self._decode(frame, [Region(0, 0, frame.shape[1], frame.shape[0])], watch,
                                         whole_frame=False, thumbs=thumbs)
            self._reads = _merge_reads(kept, fresh, same_px)
            self._changes.reset(thumb)
            return
        before = self._sharp
        self._unread = [crop for crop in before.unread if not since.touches(crop.box)]
        waiting = len(self._unread)
        fresh = fresh + self._decode(frame, list(since.regions), watch, whole_frame=False, thumbs=thumbs)
        new = self._unread[waiting:]
        self._unread = new + self._unread[:waiting]  # what changed and did not read is retried first
        untouched = [read for read in before.reads if not since.touches(read.box(margin=2))]
        self._reads = self._held(_merge_reads(untouched, fresh, same_px), since, new)
        self._changes.restore(before.reference)
        self._changes.accept(thumb, since)

    def _held(self, reads: list[StickerRead], since: ChangeMap, unread: list[UnreadCrop]) -> list[StickerRead]:
        """``reads`` plus the last sharp frame's reads of cards a bump shook but no read finds again, where an
        unread candidate crop (``unread``) still lies: a card is not taken as gone from the first frame after
        a smear alone.

        A bump shakes the cards a millimetre or two: a sticker read before
        may not read at once where it now lies (the edge of a fan), while
        the decoder still finds its texture there. The old read stays until
        a read says otherwise (the same card read, or another sticker read
        in its place) or its pixels change again in a later frame that does
        not read it. Only after a smear: after the board was lost alone
        (a hand over the markers), a card taken from a heap leaves the card
        under it at its place.
        """
        assert self._sharp is not None
        if not self._shaken:
            return reads
        same_px = self._same_place_px()
        payloads = {read.payload for read in reads}
        held = [
            old for old in self._sharp.reads
            if old.card_id is not None and old.payload not in payloads and since.touches(old.box(margin=2))
            and not any(math.dist(read.center, old.center) <= same_px for read in reads)
            and any(_covers(crop, old.center, same_px) for crop in unread)
        ]
        return reads + held

    # ------------------------------------------------------------------ geometry

    def _adapt_to(self, frame: np.ndarray) -> None:
        if self._shape == frame.shape and self._changes is not None:
            return
        self._frame_lens = lens_for_frames(self.lens, frame.shape)
        self._shape = frame.shape
        self._known, self._mapping, self._reads, self._age = {}, None, [], 0
        self._sharp, self._shaken = None, False
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
            mapping = MatMapping(use, self._places, self._frame_lens)
        except MappingError as error:
            self._mapping, self._known, self._visible = None, dict(seen), set(seen)
            seen_text = f"saw {len(seen)} of {len(self._places)} fiducials {list(ids)}"
            return BoardStatus(False, ids, self._age, f"board not found ({seen_text}): {error}")
        self._mapping, self._known, self._visible = mapping, use, set(seen)
        center = (self.layout.size_mm[0] / 2.0, self.layout.size_mm[1] / 2.0)
        sticker_px = float(self.layout.sticker_mm) * mapping.px_per_mm(center)
        # companion markers prints a 4-module quiet zone: 21 + 8 modules across.
        self._scale = StickerScale(sticker_px, sticker_px / STICKER_MODULES)
        return BoardStatus(True, ids, self._age, None)

    def _smeared(self, frame: np.ndarray, board: BoardStatus, seen: Mapping[int, FiducialSighting],
                 changed: set[int]) -> tuple[BoardStatus, tuple[str, ...]]:
        """The board status with the motion smear measured on the fiducials found again, and the smeared zones.

        Fiducials whose area did not change are as sharp as before (0),
        except those last measured smeared: they are measured again every
        frame until they measure sharp. A camera still swaying, or a smeared
        frame repeated, changes the pixels too little to count as changed:
        taken as sharp, such a frame would report the cards it cannot read as
        gone. Zones get the smear interpolated from the fiducials in view. A
        marker measured for the first time tells nothing either way.
        """
        looked = {i for i in changed | self._smeared_fids if i in seen}
        measured = self._smear.measure(frame, [seen[i] for i in sorted(looked)])
        assert self._scale is not None
        limit = SMEAR_MODULES * self._scale.module_px
        self._smeared_fids = {i for i, value in measured.items() if value >= limit}
        if not measured:
            return board, ()
        if max(measured.values()) >= limit:
            # A smear small enough to slip under the change detector at some markers: measure them all.
            measured |= self._smear.measure(frame, [s for i, s in seen.items() if i not in looked])
            looked = set(seen)
            self._smeared_fids = {i for i, value in measured.items() if value >= limit}
        values = sorted(measured.values())
        smear = values[len(values) // 2]
        whole = len(values) >= SMEAR_FIDUCIALS and smear >= limit
        board = replace(board, smear_px=round(smear, 2), smeared=whole)
        if whole:
            return board, tuple(self._zones)
        if values[-1] < limit:
            return board, ()
        in_view = {i: measured.get(i, 0.0) for i in seen if i in measured or i not in looked}
        places = {i: self._places[i].center_mm for i in in_view}
        names = list(self._zones)
        centres = np.array([self.layout.zone_center(name) for name in names], np.float64)
        at_zones = interpolate(in_view, places, centres)
        return board, tuple(name for name, value in zip(names, at_zones, strict=True) if value >= limit)

    def _lost_reads(self, now: list[StickerRead]) -> bool:
        """Whether a card read before is missing from ``now`` (a card taken, covered, or smeared away)."""
        same_px = self._same_place_px()
        return any(read.card_id is not None and not any(
            other.payload == read.payload and math.dist(other.center, read.center) <= same_px for other in now)
            for read in self._reads)

    def _unsmeared(self, reads: list[StickerRead], board: BoardStatus, zones: tuple[str, ...]) -> list[StickerRead]:
        """Reads decoded in this frame less those of smeared zones: a smeared symbol reads, but off its place.

        Their crops were decoded in this frame, so they are read again, from
        sharp pixels, as soon as those come (the change detector's reference
        now holds the smeared ones).
        """
        if board.smeared:
            return [read for read in reads if read.card_id is None]
        if not zones:
            return reads
        ours = [read for read in reads if read.card_id is not None]
        placed = self._place_on_mat([read.corners for read in ours])
        bad = {id(read) for read, (_, card) in zip(ours, placed, strict=True) if self.layout.zone_at(card) in zones}
        return [read for read in reads if id(read) not in bad]

    def _still_px(self) -> float:
        return max(1.0, STILL_MM * (self._scale.sticker_px / self.layout.sticker_mm if self._scale else 1.0))

    def _same_place_px(self) -> float:
        return self._scale.sticker_px / 2.0 if self._scale else 10.0

    # ------------------------------------------------------------------ decoding

    def _decode(
        self, frame: np.ndarray, regions: list[Region], watch: _Stopwatch, *, whole_frame: bool,
        one_read_per_card: bool = False, sharp_frame: bool = False, thumbs: Thumbnails | None = None,
    ) -> list[StickerRead]:
        """Reads in ``regions``; crops with something unread join ``self._unread`` (see :meth:`_decode_boxes`).

        ``thumbs``: the frame's thumbnails, shared with the stages before (the candidates sample the frame too).
        """
        assert self._scale is not None
        symbols: list[DecodedSymbol] = []
        if whole_frame:
            with watch.stage("decode_frame"):
                symbols += self._safe_decode(to_grey(frame)).symbols
        with watch.stage("candidates"):
            fiducials = [s.bounds(0) for s in self._known.values()]
            tile = not getattr(self.decoder, "reads_crowds", False)
            boxes = merge_boxes(
                box
                for region in regions
                for box in find_candidates(frame, region, self._scale, tile=tile, thumbs=thumbs)
                if not _centre_in_any(box, fiducials)  # markers are textured too
            )
            if whole_frame:
                boxes = [b for b in boxes if not _holds_any(b, symbols)]
        with watch.stage("decode_crops"):
            first_new = len(self._unread)
            symbols += self._decode_boxes(frame, boxes, one_read_per_card=one_read_per_card, sharp_frame=sharp_frame)
        if self.dictionary_reads:
            with watch.stage("dictionary"):
                symbols += self._read_by_dictionary(frame, symbols, first_new)
        return _merge_reads([], [_sticker_read(s, self.frames) for s in symbols], self._same_place_px())

    def _decode_boxes(self, frame: np.ndarray, boxes: list[Region], since: int | None = None, *,
                      one_read_per_card: bool = False, sharp_frame: bool = False) -> list[DecodedSymbol]:
        """Decode each box; boxes with something unread wait in ``self._unread`` for later.

        ``since`` is the frame in which the boxes' pixels last changed (default: this one).
        ``one_read_per_card`` leaves boxes holding only the other sticker of a card read (see
        OTHER_STICKER_SLACK_MODULES) to the retries, behind those with something located unread: the
        largest boxes are decoded first (they hold the most stickers, and the small ones are most
        often explained by them), and every box's further passes wait until all first passes are
        done, so a box that read nothing at first is let go if a card read elsewhere explains it.
        ``sharp_frame`` (a cold scan's frame whose markers measured sharp, SHARP_FRAME_BLUR_MODULES)
        leaves boxes larger than a lone sticker that read and located nothing to the retries too.
        """
        symbols: list[DecodedSymbol] = []
        changed = self.frames if since is None else since
        assert self._scale is not None
        margin = int(self._scale.sticker_px * MARGIN_STICKERS)
        others: list[_Box] = []  # where the other stickers of the cards read lie
        later: list[UnreadCrop] = []
        failed: list[UnreadCrop] = []
        boxes, scales = self._tiled_with_scales(boxes)
        order = list(range(len(boxes)))
        if one_read_per_card:
            order.sort(key=lambda i: -boxes[i].width * boxes[i].height)
        begun: list[tuple[Region, StickerScale, np.ndarray, _CropReading]] = []
        slivers: list[UnreadCrop] = []
        for i in order:
            box, scale = boxes[i], scales[i]
            if others and _explained(box, margin, others):
                later.append(UnreadCrop(box, (), changed, scale, other_sticker=True))
                continue
            if _sliver(box, margin, scale):
                slivers.append(UnreadCrop(box, (), changed, scale))
                continue
            crop = grey_crop(frame, box.x, box.y, box.x + box.width, box.y + box.height)
            reading = self._first_pass(crop, scale)
            begun.append((box, scale, crop, reading))
            if one_read_per_card:
                dx, dy = max(0, box.x), max(0, box.y)
                others += [self._other_sticker(s.shifted(dx, dy)) for s in reading.found
                           if card_id_from_payload(s.payload) is not None]
        for box, scale, crop, reading in begun:
            if reading.blind and others and _explained(box, margin, others):
                # The other sticker of a card read, unread at first.
                later.append(UnreadCrop(box, (), changed, scale, other_sticker=True))
                continue
            if reading.blind and sharp_frame and not _lone_sticker_sized(box, margin, scale):
                failed.append(UnreadCrop(box, (), changed, scale))  # retried with every pass on the next frames
                continue
            found, missed = self._further_passes(crop, scale, reading)
            dx, dy = max(0, box.x), max(0, box.y)
            if one_read_per_card and found is not reading.found:
                others += [self._other_sticker(s.shifted(dx, dy)) for s in found
                           if card_id_from_payload(s.payload) is not None and s not in reading.found]
            symbols += [s.shifted(dx, dy) for s in found]
            if missed or not found:  # a crop that read nothing is retried later even if it is no sticker
                spots = tuple(s.shifted(dx, dy).corners for s in missed)
                failed.append(UnreadCrop(box, spots, changed, scale))
        # Retried in this order: stickers seen but unread, then the other stickers of cards read (each
        # reads, and places its card better), then crops that showed nothing (mostly covered corners).
        self._unread += [c for c in failed if c.spots] + later + [c for c in failed if not c.spots] + slivers
        return symbols

    def _read_by_dictionary(self, frame: np.ndarray, found: list[DecodedSymbol], first: int) -> list[DecodedSymbol]:
        """Stickers of tiny modules the decoder left unread, classified against the codes that exist.

        Where modules are too small and soft for the decoder's finder search
        (:data:`TINY_MODULE_PX`), a sticker still correlates with one card's
        code once its pose is known (:mod:`companion.vision.dictionary`). Only
        this frame's unread crops (``self._unread[first:]``) of tiny modules
        that may hold a sticker are searched, their overlapping tiles joined
        into regions searched once; what is read leaves the unread list.
        """
        assert self._mapping is not None
        fresh = self._unread[first:]
        # Crops with a located symbol, or large enough to hide a whole sticker (not a covered one's corner);
        # not the other sticker of a card read, which the cold scan left for later to save time.
        tiny = [crop for crop in fresh if not crop.other_sticker and crop.scale.module_px < TINY_MODULE_PX and (
            crop.spots or min(crop.box.width, crop.box.height) >= BLIND_RETRY_STICKERS * crop.scale.sticker_px)]
        if not tiny:
            return []
        sticker_px = min(crop.scale.sticker_px for crop in tiny)
        classified: list[DecodedSymbol] = []
        for region in search_regions([crop.box for crop in tiny], sticker_px):
            skip = [s.center for s in found + classified]
            classified += [symbol_of(c) for c in
                           read_by_dictionary(frame, region, self._mapping, self.layout.sticker_mm, skip)]
        if classified:
            same_px = self._same_place_px()
            self._unread[first:] = [
                replace(crop, spots=tuple(spot for spot in crop.spots
                                          if not _near_any(DecodedSymbol(b"", spot).center, classified, same_px)))
                for crop in fresh if crop.spots or not _holds_any(crop.box, classified)]
        return classified

    def _other_sticker(self, symbol: DecodedSymbol) -> _Box:
        """Where the card's other code lies (frame pixels, with slack), from one of its codes read.

        The card's centre lies midway between its two stickers, so the other
        one is twice the card offset away, in the read code's own axes (its
        edges give the modules' size and direction there, perspective included).
        """
        tl, tr, br, bl = symbol.corners
        right = ((tr[0] - tl[0] + br[0] - bl[0]) / 2.0, (tr[1] - tl[1] + br[1] - bl[1]) / 2.0)
        down = ((bl[0] - tl[0] + br[0] - tr[0]) / 2.0, (bl[1] - tl[1] + br[1] - tr[1]) / 2.0)
        ox, oy = self._other_offset
        cx, cy = symbol.center
        x, y = cx + ox * right[0] + oy * down[0], cy + ox * right[1] + oy * down[1]
        slack = OTHER_STICKER_SLACK_MODULES / QR_MODULES
        half_x = (abs(right[0]) + abs(down[0])) / 2.0 + slack * math.hypot(*right)
        half_y = (abs(right[1]) + abs(down[1])) / 2.0 + slack * math.hypot(*down)
        return (x - half_x, y - half_y, x + half_x, y + half_y)

    def _tiled_with_scales(self, boxes: list[Region]) -> tuple[list[Region], list[StickerScale]]:
        """The boxes, those reaching tiny modules and TINY_CROWD_STICKERS across both ways there cut
        into tiles, each with the stickers' scale at its middle.

        A box's smallest scale (over its middle and corners) is asked only of
        boxes that could be such a crowd (CROWD_SCALE_DROP): each ask costs
        the mapping's round trip at five points.
        """
        middles = self._scales_at(boxes)
        wide = [i for i, (box, scale) in enumerate(zip(boxes, middles, strict=True))
                if min(box.width, box.height) >= TINY_CROWD_STICKERS * scale.sticker_px * (1.0 - CROWD_SCALE_DROP)]
        lows = dict(zip(wide, self._scales_at([boxes[i] for i in wide], smallest=True), strict=True))
        tiled = _tiny_crowds_tiled(boxes, [lows.get(i, middle) for i, middle in enumerate(middles)])
        # Tiles of a crowd take the scale at their own middle (a large box spans a range of them).
        return (boxes, middles) if tiled == boxes else (tiled, self._scales_at(tiled))

    def _scales_at(self, boxes: list[Region], *, smallest: bool = False) -> list[StickerScale]:
        """The stickers' expected size in each box, from the image scale where the box lies.

        A wide lens's barrel (and a tilted camera) makes stickers at the
        frame's edges a third smaller than in the middle: the decoding passes
        and the size checks follow the sticker in hand, not the mat's middle.
        The scale is held within a factor of two of the middle's, where the
        mapping extrapolates off the mat. ``smallest``: the smallest scale
        over the box's middle and corners (a large box spans a range).
        """
        assert self._scale is not None
        if self._mapping is None or not boxes:
            return [self._scale] * len(boxes)
        spots = [(0.5, 0.5), (0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] if smallest else [(0.5, 0.5)]
        points = np.array([(b.x + fx * b.width, b.y + fy * b.height) for b in boxes for fx, fy in spots], np.float64)
        middle = self._scale.sticker_px
        per_point = self.layout.sticker_mm * self._mapping.px_per_mm_at_pixels(points)
        stickers_px = np.clip(per_point.reshape(len(boxes), len(spots)).min(axis=1), middle / 2.0, middle * 2.0)
        return [StickerScale(float(px), float(px) / STICKER_MODULES) for px in stickers_px]

    def _passes(self, scale: StickerScale) -> tuple[DecodePass, ...]:
        if not self.sharpen_retry:
            return PLAIN_PASSES
        if scale.module_px < TINY_MODULE_PX:
            return TINY_MODULE_PASSES
        return SMALL_MODULE_PASSES if scale.module_px < SMALL_MODULE_PX else SHARP_MODULE_PASSES

    def _read_crop(self, crop: np.ndarray, scale: StickerScale) -> tuple[list[DecodedSymbol], list[DecodedSymbol]]:
        """Symbols read in a crop, and those located there but left unread (crop pixels).

        The first pass decodes the whole crop. Further passes run while the
        decoder located a symbol it could not decode, and only on a window
        around each such symbol (a crop can be a whole fanned row or heap);
        or, when nothing at all was read or located, on the whole crop if it
        is large enough to hide a blurred sticker (with tiny modules, also
        when nothing was read in its middle). A crop that read
        everything it located stops after one pass. ``scale``: the stickers' size where the crop lies.
        """
        return self._further_passes(crop, scale, self._first_pass(crop, scale))

    def _first_pass(self, crop: np.ndarray, scale: StickerScale) -> _CropReading:
        """The first pass of :meth:`_read_crop`, and what it leaves for the others."""
        same_px = self._same_place_px()
        first, *rest = self._passes(scale)
        sharpened: dict[float, np.ndarray] = {}
        found, located = self._decode_window(crop, None, first, scale, sharpened)
        missed = [spot for spot in located if not _near_any(spot.center, found, same_px)]
        blind = not found and not missed
        if blind and not _may_hide_a_sticker(crop, scale):
            # Only part of a sticker, or one under glare the sharpening clipped:
            # with modules of 3 px or more the plain crop is worth its cheap pass.
            rest = rest[:1] if scale.module_px >= SMALL_MODULE_PX else []
        return _CropReading(found, missed, blind or _middle_unread(crop, found, scale), tuple(rest), sharpened)

    def _further_passes(self, crop: np.ndarray, scale: StickerScale,
                        reading: _CropReading) -> tuple[list[DecodedSymbol], list[DecodedSymbol]]:
        """The passes of :meth:`_read_crop` after the first: symbols read in all, and those left unread."""
        same_px = self._same_place_px()
        found, missed, whole = reading.found, reading.missed, reading.whole
        for step in reading.rest if (missed or whole) else ():
            windows = [None] if whole else _windows(crop, [spot.center for spot in missed], scale)
            located = []
            for window in windows:
                more, spots = self._decode_window(crop, window, step, scale, reading.sharpened)
                found = _merge_symbols(found, more, same_px)
                located += spots
            candidates = located if whole else missed
            missed = [spot for spot in candidates if not _near_any(spot.center, found, same_px)]
            blind = not found and not missed
            whole = blind or _middle_unread(crop, found, scale)
            if not missed and not whole:
                break
        return found, missed

    def _decode_window(
        self, crop: np.ndarray, window: tuple[int, int, int, int] | None, step: DecodePass, scale: StickerScale,
        sharpened: dict[float, np.ndarray] | None = None,
    ) -> tuple[list[DecodedSymbol], list[DecodedSymbol]]:
        """Symbols read and symbols located but unread in ``crop[window]``, in crop pixels.

        ``sharpened``: the whole crop's sharpened versions (:meth:`DecodePass.prepare`), used and filled
        when ``window`` is None (a window's sharpening differs at its edges).
        """
        x0, y0, x1, y1 = window or (0, 0, crop.shape[1], crop.shape[0])
        result = self._safe_decode(step.prepare(crop[y0:y1, x0:x1], sharpened if window is None else None))
        shrink = 1.0 / step.enlarge
        symbols = [s.scaled(shrink).shifted(x0, y0) for s in result.symbols]
        located = [DecodedSymbol(b"", corners).scaled(shrink).shifted(x0, y0) for corners in result.located]
        return symbols, [s for s in located if _sticker_sized(s, scale) and _quiet_zone_clear(crop, s)]

    def _retry_unread(self, frame: np.ndarray, watch: _Stopwatch) -> list[StickerRead]:
        """Decode a few unchanged crops that kept something unread, in turn.

        Each frame brings fresh sensor noise, so a sticker missed once (blur,
        glare) often reads later; a couple of crops per frame cost about a
        millisecond and recover it without waiting for a change there.
        """
        now, self._unread = self._unread[:RETRIES_PER_FRAME], self._unread[RETRIES_PER_FRAME:]
        reads: list[StickerRead] = []
        with watch.stage("retry_unread"):
            for crop in now:  # failures go to the back
                reads += [_sticker_read(s, crop.since) for s in self._decode_boxes(frame, [crop.box], crop.since)]
        return reads

    def _safe_decode(self, grey: np.ndarray) -> DecodeResult:
        if grey.size == 0 or min(grey.shape[:2]) < 8:
            return DecodeResult((), 0)
        try:
            return self.decoder.decode_detailed(grey)
        except (ValueError, RuntimeError, cv2.error):
            return DecodeResult((), 0)  # a decoder choking on one crop must not lose the frame

    # ------------------------------------------------------------------ output

    def _observe(self, board: BoardStatus, regions: tuple[Region, ...], watch: _Stopwatch,
                 smeared: tuple[str, ...] = ()) -> FrameObservation:
        assert self._mapping is not None
        if board.smeared:
            # Not empty, smeared: what the frame shows of the cards cannot be trusted, nor their absence.
            return FrameObservation(board, (), (), 0, regions, watch.done(), {}, smeared)
        with watch.stage("assemble"):
            ours = [read for read in self._reads if read.card_id is not None]
            placed = self._place_on_mat([read.corners for read in ours])
            cards = tuple(self._card(group) for group in _group_by_card(
                [(read, sticker, card) for read, (sticker, card) in zip(ours, placed, strict=True)]))
            counts: dict[str, int] = {}
            for card in cards:
                counts[card.card_id] = counts.get(card.card_id, 0) + 1
            duplicates = tuple(sorted(card_id for card_id, n in counts.items() if n > 1))
            foreign = sum(1 for read in self._reads if read.card_id is None)
            unread = self._unread_per_zone(cards)
        return FrameObservation(board, cards, duplicates, foreign, regions, watch.done(), unread, smeared)

    def _place_on_mat(self, corners: list[Corners]) -> list[tuple[Point, Point]]:
        """Each sticker's centre on the mat and the centre of the card it says it is on."""
        assert self._mapping is not None
        if not corners:
            return []
        on_mat = self._mapping.image_to_mat(np.asarray(corners, np.float64).reshape(-1, 2)).reshape(-1, 4, 2)
        cards = card_centers_mm(on_mat, self.layout.card_mm, self.layout.sticker_mm)
        stickers = on_mat.mean(axis=1)
        return [((float(sx), float(sy)), (float(cx), float(cy)))
                for (sx, sy), (cx, cy) in zip(stickers, cards, strict=True)]

    def _unread_per_zone(self, cards: tuple[CardObservation, ...]) -> dict[str, int]:
        """Zone -> cards with a sticker seen but not read (and no other sticker read), after this frame's retries.

        A spot near a sticker read since (a retry, or an overlapping crop) is
        no unread sticker; nor is one whose card was read from its other
        sticker; two spots that place their cards together are one card.
        """
        assert self._mapping is not None
        same_px = self._same_place_px()
        read_at = [read.center for read in self._reads]
        spots: list[Corners] = []
        for crop in self._unread:
            for spot in crop.spots:
                at = DecodedSymbol(b"", spot).center
                if not any(math.dist(at, other) <= same_px for other in read_at):
                    spots.append(spot)
                    read_at.append(at)  # a second spot at the same place is the same sticker
        counts: dict[str, int] = {}
        unread_cards: list[Point] = []
        known = [card.center_mm for card in cards]
        for _, centre in self._place_on_mat(spots):
            if any(math.dist(centre, other) <= SAME_CARD_MM for other in known + unread_cards):
                continue
            unread_cards.append(centre)
            zone = self.layout.zone_at(centre)
            if zone is not None:
                counts[zone] = counts.get(zone, 0) + 1
        return counts

    def _card(self, group: list[tuple[StickerRead, Point, Point]]) -> CardObservation:
        """One card from the reads of its stickers: centre, zone, confidence, stickers, stillness."""
        card_id = group[0][0].card_id
        assert card_id is not None
        centre = (sum(c[0] for _, _, c in group) / len(group), sum(c[1] for _, _, c in group) / len(group))
        # One signed distance per zone gives both: the first zone (in layout order) the centre is in, and
        # how far the nearest border is (Layout.zone_at's answer, at half the cost). Only zones within the
        # margin can hold the centre or change its confidence: the others are not measured (the shipped
        # layout has 24 zones; each of the 563 cards of the 36 benchmark tables lay within one box).
        x, y = centre
        distances = [(name, cv2.pointPolygonTest(polygon, centre, True)) for name, polygon in self._zones.items()
                     if (reach := self._zone_reach[name])[0] <= x <= reach[2] and reach[1] <= y <= reach[3]]
        zone = next((name for name, distance in distances if distance >= 0), None)
        border = min((abs(distance) for _, distance in distances), default=ZONE_MARGIN_MM)
        confidence = 0.5 + 0.5 * min(1.0, border / ZONE_MARGIN_MM)
        rounded = (round(centre[0], 1), round(centre[1], 1))
        stickers = tuple((round(x, 1), round(y, 1)) for _, (x, y), _ in group)
        still = max(self.frames - read.since for read, _, _ in group)
        return CardObservation(card_id, rounded, zone, round(confidence, 3), still, stickers)


def _group_by_card(reads: list[tuple[StickerRead, Point, Point]]) -> list[list[tuple[StickerRead, Point, Point]]]:
    """Reads of one id whose card centres agree are one card (its two stickers); others are other cards."""
    by_id: dict[str | None, list[list[tuple[StickerRead, Point, Point]]]] = {}
    for read in reads:
        groups = by_id.setdefault(read[0].card_id, [])
        home = next((g for g in groups if math.dist(g[0][2], read[2]) <= SAME_CARD_MM), None)
        if home is None:
            groups.append([read])
        else:
            home.append(read)
    return [group for groups in by_id.values() for group in groups]


def _sticker_read(symbol: DecodedSymbol, since: int) -> StickerRead:
    return StickerRead(card_id_from_payload(symbol.payload), symbol.payload, symbol.corners, since)


def _refuse(frame: object) -> FrameObservation | None:
    """A not-found observation for a frame that is no image; the state is left alone.

    A camera loop must survive one corrupt frame, so this is an answer, not an error.
    """
    try:
        check_frame(frame)
    except FrameError as error:
        return FrameObservation(BoardStatus(False, (), 0, f"unusable frame: {error}"))
    return None


def _middle_unread(crop: np.ndarray, found: list[DecodedSymbol], scale: StickerScale) -> bool:
    """Whether a crop of tiny modules read nothing in its middle: a tile of a crowd, centred on a sticker
    its neighbours' reads leave unexplained (neither read nor even located there)."""
    if scale.module_px >= TINY_MODULE_PX or not found:
        return False
    middle = (crop.shape[1] / 2.0, crop.shape[0] / 2.0)
    return not _near_any(middle, found, scale.sticker_px / 2.0)


_Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _explained(box: Region, margin: int, others: list[_Box]) -> bool:
    """Whether a candidate's textured middle (the box less the margin candidates add) lies wholly in ``others``."""
    x0, y0 = box.x + margin, box.y + margin
    x1, y1 = box.x + box.width - margin, box.y + box.height - margin
    near = [o for o in others if o[0] < x1 and x0 < o[2] and o[1] < y1 and y0 < o[3]]
    if not near:
        return False
    xs = [x0 + (x1 - x0) * i / 3.0 for i in range(4)]
    ys = [y0 + (y1 - y0) * i / 3.0 for i in range(4)]
    return all(any(o[0] <= x <= o[2] and o[1] <= y <= o[3] for o in near) for x in xs for y in ys)


def _sliver(box: Region, margin: int, scale: StickerScale) -> bool:
    """Whether a candidate's textured middle (the box less the margin candidates add) is too thin to hold a code."""
    return min(box.width, box.height) - 2 * margin < SLIVER_STICKERS * scale.sticker_px


def _lone_sticker_sized(box: Region, margin: int, scale: StickerScale) -> bool:
    """Whether a candidate's textured middle is no larger than one sticker's code at any turn (LONE_CODE_STICKERS)."""
    return max(box.width, box.height) - 2 * margin <= LONE_CODE_STICKERS * scale.sticker_px


def _tiny_crowds_tiled(boxes: list[Region], smallest: list[StickerScale]) -> list[Region]:
    """The boxes, those reaching tiny modules (``smallest``: their smallest scale) and TINY_CROWD_STICKERS
    across both ways at it cut into tiles."""
    out: list[Region] = []
    for box, scale in zip(boxes, smallest, strict=True):
        crowd = min(box.width, box.height) >= TINY_CROWD_STICKERS * scale.sticker_px
        out += tiles(box, scale.sticker_px) if scale.module_px < TINY_MODULE_PX and crowd else [box]
    return out


def _covers(crop: UnreadCrop, point: Point, distance: float) -> bool:
    """Whether an unread crop may hold a sticker centred at ``point``: a symbol located there unread, or a
    crop holding nothing located (blur, a shaken sticker) whose textured middle reaches the point."""
    if crop.spots:
        return any(math.dist(DecodedSymbol(b"", spot).center, point) <= distance for spot in crop.spots)
    x, y = point
    box = crop.box
    margin = crop.scale.sticker_px * MARGIN_STICKERS
    return bool(box.x + margin <= x <= box.x + box.width - margin
                and box.y + margin <= y <= box.y + box.height - margin)


def _centre_in_any(box: Region, areas: list[Region]) -> bool:
    x, y = box.x + box.width / 2, box.y + box.height / 2
    return any(a.x <= x <= a.x + a.width and a.y <= y <= a.y + a.height for a in areas)


def _quiet_zone_grid() -> tuple[np.ndarray, np.ndarray]:
    """Sample points in symbol modules: a ring in the quiet zone, and the finder patterns' dark cores."""
    along = np.arange(-2.5, 24.0, 1.0)
    ring = []
    for offset in (-2.5, -1.5, 22.5, 23.5):
        ring += [(t, offset) for t in along] + [(offset, t) for t in along]
    centres = ((3.5, 3.5), (17.5, 3.5), (3.5, 17.5))
    cores = [(cx + dx, cy + dy) for cx, cy in centres for dx in (-0.5, 0.5) for dy in (-0.5, 0.5)]
    return np.array(ring, np.float32), np.array(cores, np.float32)


_RING, _CORES = _quiet_zone_grid()
# Share of quiet-zone samples allowed to be darker than paper (blur bleeds
# the symbol's edge modules a little into the ring).
QUIET_ZONE_DARK = 0.08


def _sticker_sized(symbol: DecodedSymbol, scale: StickerScale) -> bool:
    """Whether a located symbol has the size and shape of one of our stickers' codes (``scale``: where it lies).

    On a heap of covered stickers the decoder pairs finder patterns of
    different stickers into "symbols" of any size and shape; those are
    not stickers that failed to read, and retrying them is wasted time.
    """
    corners = symbol.corners
    low, high = LOCATED_SIDE[0] * scale.symbol_px, LOCATED_SIDE[1] * scale.symbol_px
    # Plain arithmetic on four corners: numpy's per-call overhead was most of this check's time.
    return all(low <= math.dist(corners[i - 1], corners[i]) <= high for i in range(4))


def _windows(crop: np.ndarray, spots: list[Point], scale: StickerScale) -> list[tuple[int, int, int, int] | None]:
    """Sticker-sized windows around unread symbols; the whole crop if that is less work."""
    half = RETRY_WINDOW_STICKERS * scale.sticker_px / 2.0
    height, width = crop.shape[:2]
    windows = [
        (max(0, int(x - half)), max(0, int(y - half)), min(width, int(x + half)), min(height, int(y + half)))
        for x, y in spots
    ]
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in windows)
    return [None] if area >= width * height else list(windows)


def _may_hide_a_sticker(crop: np.ndarray, scale: StickerScale) -> bool:
    """Whether a crop where nothing was read or located deserves another pass.

    Blur or dim light can hide even the finder patterns; but a crop much
    smaller than a whole sticker with its margin is the visible corner of
    a covered one, which no pass will read (nearly all blind crops of a
    busy table are such).
    """
    return bool(min(crop.shape[:2]) >= BLIND_RETRY_STICKERS * scale.sticker_px)


def _quiet_zone_clear(grey: np.ndarray, symbol: DecodedSymbol) -> bool:
    """Whether the white margin printed around a located symbol is all in view.

    A sticker that was located but not read is worth reporting only if it
    lies whole in view: a defaced or blurred code. One partly under another
    card (a fanned row, a heap) also shows its finder patterns, but some of
    its quiet zone is card, not paper.
    """
    square = np.array([(0, 0), (21, 0), (21, 21), (0, 21)], np.float32)
    to_image = cv2.getPerspectiveTransform(square, np.array(symbol.corners, np.float32))
    ring = cv2.perspectiveTransform(_RING.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    cores = cv2.perspectiveTransform(_CORES.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    height, width = grey.shape[:2]
    inside = (ring[:, 0] >= 0) & (ring[:, 0] < width - 1) & (ring[:, 1] >= 0) & (ring[:, 1] < height - 1)
    if not inside.all():
        return False  # the margin runs out of the crop: cannot tell, do not claim a sticker
    ring_values = grey[ring[:, 1].astype(int), ring[:, 0].astype(int)].astype(np.float32)
    core_x = np.clip(cores[:, 0].astype(int), 0, width - 1)
    core_y = np.clip(cores[:, 1].astype(int), 0, height - 1)
    # Sorted by hand: np.median and np.percentile cost more than the rest of this check on a hundred values.
    black = statistics.median(grey[core_y, core_x].tolist())
    ring_sorted = np.sort(ring_values)
    at = 0.9 * (len(ring_sorted) - 1)  # the 90th percentile, interpolated as np.percentile does
    low = int(at)
    white = float(ring_sorted[low] + (ring_sorted[min(low + 1, len(ring_sorted) - 1)] - ring_sorted[low]) * (at - low))
    if white - black < 20:
        return False  # no contrast: not a printed symbol in view
    paper = white - 0.3 * (white - black)
    return float(np.mean(ring_values < paper)) <= QUIET_ZONE_DARK


def _near_any(point: Point, symbols: list[DecodedSymbol], distance: float) -> bool:
    return any(math.dist(point, symbol.center) <= distance for symbol in symbols)


def _merge_symbols(found: list[DecodedSymbol], more: list[DecodedSymbol], same_px: float) -> list[DecodedSymbol]:
    """``found`` plus the symbols of ``more`` that are not already in it (same payload, same place)."""
    merged = list(found)
    for symbol in more:
        if not any(s.payload == symbol.payload and math.dist(s.center, symbol.center) <= same_px for s in merged):
            merged.append(symbol)
    return merged


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
