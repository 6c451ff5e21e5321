"""The phone view's HTTP server: Starlette routes on uvicorn, in a thread beside the run loop.

Routes (docs/web.md and interfaces.md section 11):

- ``GET /`` the page, ``GET /static/...`` its script, style and icon:
  everything from the package, nothing from outside (the page weighs under
  200 kB and works without internet).
- ``GET /api/view`` the live view (:mod:`companion.web.view`);
  ``GET /api/events`` the same as Server-Sent Events, one per change.
- ``GET /api/game``: exactly what ``companion games show --json`` prints
  for the latest game (one function serves both: :mod:`companion.app.games`).
- ``GET /api/games`` (``games list --json``), ``GET /api/games/N``
  (``games show N --json``), ``GET /api/games/N/record`` (the
  ``mandala-record/1`` file to download).
- ``GET /api/strings[?language=LANG]`` the page's texts in the players'
  language (default ``[display] language``), from the same gettext catalogs
  as the OLED's.
- ``POST /api/pair`` shows a code on the OLED; ``POST /api/pair/confirm``
  with ``{"code": "123456"}`` answers a token; ``POST /api/control/ACTION``
  (``undo``, ``accept``, ``confirm``, ``new-game``) with ``Authorization:
  Bearer TOKEN`` sends the command to the run loop. Without a valid token:
  403, nothing changes.

The journal is read the way ``companion games`` reads it: opened read-only
for each request (SQLite's WAL lets a reader beside the writer), in
Starlette's thread pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import TYPE_CHECKING, Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from companion.errors import CompanionError, DeviceError, JournalError
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import TableWarning
from companion.ui import i18n

if TYPE_CHECKING:
    from companion.web.live import PhoneView

log = logging.getLogger("companion.web")

KEEP_ALIVE_S = 15.0
"""A comment line this often keeps idle streams open through phones' and proxies' timeouts."""
MAX_STREAMS = 32
"""Live streams at once: a household's phones, with room; more are refused (503) to bound memory."""
MAX_BODY = 1024
"""The largest request body read (a pairing code, a discard count)."""
STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
SECURITY_HEADERS = {
    # Only our own files: no script, style, font or image from anywhere else, no framing.
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
CONTROLS = ("undo", "accept", "confirm", "new-game")


def _asset(name: str) -> bytes:
    return (resources.files("companion.web") / "static" / name).read_bytes()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def build_app(view: PhoneView) -> Starlette:
    """The Starlette application serving ``view``."""
    streams = {"open": 0}

    async def page(request: Request) -> Response:
        return Response(_asset("index.html"), media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _error(404, f"no file {name}")
        return Response(_asset(name), media_type=STATIC[name], headers=SECURITY_HEADERS)

    async def current_view(request: Request) -> Response:
        seq, text = view.hub.current()
        return Response(text, media_type="application/json", headers={**SECURITY_HEADERS, "X-View-Seq": str(seq)})

    async def events(request: Request) -> Response:
        if streams["open"] >= MAX_STREAMS:
            return _error(503, f"already {MAX_STREAMS} live views open")
        return StreamingResponse(_stream(view, streams), media_type="text/event-stream",
                                 headers={**SECURITY_HEADERS, "X-Accel-Buffering": "no"})

    async def game(request: Request) -> Response:
        return await run_in_threadpool(_journal_response, view, _show, None)

    async def games(request: Request) -> Response:
        return await run_in_threadpool(_journal_response, view, _list, None)

    async def one_game(request: Request) -> Response:
        return await run_in_threadpool(_journal_response, view, _show, request.path_params["id"])

    async def record(request: Request) -> Response:
        return await run_in_threadpool(_journal_response, view, _record, request.path_params["id"])

    async def strings(request: Request) -> Response:
        language = request.query_params.get("language") or view.language
        if language not in i18n.LANGUAGES:
            return _error(404, f"no language {language!r} (known: {', '.join(i18n.LANGUAGES)})")
        catalog = {} if language == "en" else i18n.parse_po(i18n.catalog_text(language))
        catalog.pop("", None)
        return JSONResponse({"language": language, "rtl": i18n.is_rtl(language), "strings": catalog},
                            headers=SECURITY_HEADERS)

    async def pair(request: Request) -> Response:
        seconds = view.pairing.ask()
        if not seconds:
            return _error(403, "controls are off in this companion's configuration (web.controls)")
        return JSONResponse({"seconds": round(seconds)}, headers=SECURITY_HEADERS)

    async def confirm_pairing(request: Request) -> Response:
        body = await _json_body(request)
        code = body.get("code") if isinstance(body, dict) else None
        token = view.pairing.confirm(code) if isinstance(code, str) else None
        if token is None:
            return _error(403, "wrong or expired code: ask for a new one")
        return JSONResponse({"token": token}, headers=SECURITY_HEADERS)

    async def paired(request: Request) -> Response:
        return JSONResponse({"paired": view.pairing.allows(_token(request)), "controls": view.pairing.enabled},
                            headers=SECURITY_HEADERS)

    async def control(request: Request) -> Response:
        action = request.path_params["action"]
        if not view.pairing.allows(_token(request)):
            return _error(403, "pair this phone first: controls need the code shown on the companion")
        if action not in CONTROLS:
            return _error(404, f"no control {action!r} (known: {', '.join(CONTROLS)})")
        body = await _json_body(request)
        try:
            command = _command(view, action, body if isinstance(body, dict) else {})
        except ValueError as error:
            return _error(409, str(error))
        view.command(command)
        return JSONResponse({"sent": str(command)}, status_code=202, headers=SECURITY_HEADERS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        view.hub.bind(asyncio.get_running_loop())
        yield

    return Starlette(routes=[
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/view", current_view),
        Route("/api/events", events),
        Route("/api/game", game),
        Route("/api/games", games),
        Route("/api/games/{id:int}", one_game),
        Route("/api/games/{id:int}/record", record),
        Route("/api/strings", strings),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/pair/confirm", confirm_pairing, methods=["POST"]),
        Route("/api/pair/status", paired),
        Route("/api/control/{action}", control, methods=["POST"]),
    ], lifespan=lifespan)


async def _stream(view: PhoneView, streams: dict[str, int]) -> AsyncIterator[str]:
    streams["open"] += 1
    try:
        seq = -1
        yield "retry: 2000\n\n"  # the browser reconnects by itself after 2 s (a restart, a Wi-Fi drop)
        while not view.hub.closed:
            news = await view.hub.next(seq, KEEP_ALIVE_S)
            if news is None:
                yield ": keep-alive\n\n"
                continue
            seq, text = news
            yield f"id: {seq}\nevent: view\ndata: {text}\n\n"
    finally:
        streams["open"] -= 1


def _token(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def _json_body(request: Request) -> Any:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    try:
        return json.loads(body) if body else {}
    except ValueError:
        return None


def _command(view: PhoneView, action: str, body: dict[str, Any]) -> AppCommand:
    """The button command a control stands for; ValueError when the table has nothing for it now."""
    model = view.model
    if action == "undo":
        return AppCommand(AppAction.UNDO)
    if action == "new-game":
        return AppCommand(AppAction.NEW_GAME)
    if action == "accept":
        warnings = model.warnings if model is not None else ()
        index = body.get("warning", 0)
        if not warnings:
            raise ValueError("no warning to accept")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(warnings):
            raise ValueError(f"warning must be 0..{len(warnings) - 1}")
        shown: TableWarning = warnings[index]
        return AppCommand(AppAction.OVERRIDE, warning_id=shown.id)
    # confirm: the discard count the camera asks about
    if model is None or model.discard is None:
        raise ValueError("no discard to confirm")
    count = body.get("count", model.discard.asked)
    if not isinstance(count, int) or isinstance(count, bool) or not max(1, model.discard.seen) <= count <= 8:
        raise ValueError(f"count must be {max(1, model.discard.seen)}..8")
    return AppCommand(AppAction.CONFIRM_DISCARD, count=count)


# -- the journal, read as `companion games` reads it -----------------------------------------


def _journal_response(view: PhoneView, what: Callable[[Any, int | None], Response], game_id: int | None) -> Response:
    from companion.app.journal import Journal

    try:
        with Journal.read(view.state_dir) as journal:
            return what(journal, game_id)
    except JournalError as error:
        missing = "no game" in str(error) or "no journal here" in str(error)
        return _error(404 if missing else 503, str(error))
    except CompanionError as error:
        return _error(503, str(error))


def _show(journal: Any, game_id: int | None) -> Response:
    from companion.app.games import chosen, show_document

    # Byte for byte what `games show --json` prints (print adds the newline).
    text = json.dumps(show_document(chosen(journal, game_id))) + "\n"
    return Response(text, media_type="application/json", headers=SECURITY_HEADERS)


def _list(journal: Any, game_id: int | None) -> Response:
    from companion.app.games import list_document

    return Response(json.dumps(list_document(journal)) + "\n", media_type="application/json",
                    headers=SECURITY_HEADERS)


def _record(journal: Any, game_id: int | None) -> Response:
    from companion.app.games import chosen, record_text

    game = chosen(journal, game_id)
    headers = {**SECURITY_HEADERS,
               "Content-Disposition": f'attachment; filename="mandala-game-{game.info.id}.jsonl"'}
    return PlainTextResponse(record_text(game), headers=headers)


# -- the server thread --------------------------------------------------------------------------


class WebServer:
    """uvicorn in a daemon thread on a socket bound here, so a taken port is an error at start."""

    def __init__(self, view: PhoneView) -> None:
        self.view = view
        self.address: tuple[str, int] | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 10.0) -> None:
        host, port = self.view.settings.address
        sock = _listen(host, port)
        self.address = (host, sock.getsockname()[1])
        config = uvicorn.Config(build_app(self.view), log_config=None, log_level="warning", access_log=False,
                                http="h11", ws="none", lifespan="on", timeout_graceful_shutdown=1,
                                limit_concurrency=MAX_STREAMS + 16, server_header=False)
        self._server = server = uvicorn.Server(config)
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="web", daemon=True)
        self._thread.start()
        waited = 0.0
        while not server.started and self._thread.is_alive() and waited < timeout:
            self._thread.join(0.02)
            waited += 0.02
        if not server.started:
            self.stop()
            raise DeviceError(f"phone view on {host}:{port}: the server did not start")
        log.info("phone view on http://%s:%d/", *self.address)

    def stop(self, timeout: float = 3.0) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self._server = self._thread = None


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        infos = socket.getaddrinfo(host, port, family if ":" in host else socket.AF_UNSPEC, socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
    except OSError as error:
        raise DeviceError(f"phone view on {host}:{port}: cannot resolve the address ({error})") from None
    try:
        sock = socket.socket(family, kind, proto)
    except OSError as error:
        # The service's sandbox refuses IP sockets unless the installer granted them (docs/web.md).
        raise DeviceError(f"phone view on {host}:{port}: no IP socket allowed ({error.strerror}); under "
                          "systemd, run `sudo hardware/install.sh` after setting [web] listen") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as error:
        sock.close()
        raise DeviceError(f"phone view on {host}:{port}: cannot listen there ({error.strerror})") from None
    sock.setblocking(False)
    return sock
