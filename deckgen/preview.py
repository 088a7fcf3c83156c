"""`deckgen preview`: build, serve the output folder on this machine, build again on every
change, and let the browser reload itself.

The standard library's HTTP server answers on 127.0.0.1 only (a free port unless one is
asked for). `/` is an index page: the live page in a frame, every file of the last good build
with its size, when it was built and how long it took, and the error lines of a build that
failed. `/events` is a stream of server-sent events: one `build` event after every build,
good or failed; the index page (its own few lines of script, nothing fetched from elsewhere)
reloads itself on it and keeps the page's scroll position. Every other path is a file inside
the output folder: a name with `..`, a hidden name, or a link that leads out of the folder
gets 404, as does anything that is not a regular file.

The changes are found by deckgen.watch (the same polling as `build --watch`), and every
build writes its files whole or not at all, so a failed build leaves the last good files
served. Ctrl-C stops the server and the watch; the folder keeps the last good build.
"""

from __future__ import annotations

import errno
import html
import http.server
import json
import mimetypes
import os
import stat
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen import watch as watching
from deckgen.errors import DeckgenError, InputError, Problem

HOST = "127.0.0.1"
KEEP_ALIVE = 10.0  # seconds between the event stream's keep-alive comments


@dataclass
class State:
    """What the last build did, shared by the watch and the server's threads."""

    content: str
    generation: int = 0  # builds finished, good or failed
    files: list[tuple[str, int]] = field(default_factory=list)  # the last good build's
    built_at: str = ""
    took: float = 0.0
    errors: list[str] = field(default_factory=list)  # the last build's, when it failed
    closing: bool = False
    changed: threading.Condition = field(default_factory=threading.Condition)

    def succeeded(self, written: Sequence[Path], took: float) -> None:
        files = []
        for path in written:
            try:
                files.append((path.name, path.stat().st_size))
            except OSError:
                continue
        with self.changed:
            self.files, self.errors, self.took = files, [], took
            self.built_at = time.strftime("%H:%M:%S")
            self.generation += 1
            self.changed.notify_all()

    def failed(self, lines: list[str]) -> None:
        with self.changed:
            self.errors = lines
            self.generation += 1
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()

    def summary(self) -> dict[str, Any]:
        with self.changed:
            return {"generation": self.generation, "files": [list(f) for f in self.files],
                    "built_at": self.built_at, "took": round(self.took, 2),
                    "errors": list(self.errors)}


def run(content: Path, options: Any, template: Path | None, port: int,
        rebuild: Callable[[], list[Path]]) -> None:
    """Serve `options.out` and rebuild `content` on every change until Ctrl-C (which is
    raised again once the server is down, for the exit status 130)."""
    folder = Path(options.out)
    state = State(str(content))
    server = _server(port, folder, state)
    thread = threading.Thread(target=server.serve_forever, name="preview", daemon=True)
    thread.start()
    print(f"preview: http://{HOST}:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)

    def once() -> list[Path]:
        started = time.perf_counter()
        try:
            written = rebuild()
        except DeckgenError as err:
            state.failed(err.lines() + ["build failed; the last good files stay in place"])
            raise
        except Exception as err:
            state.failed([f"build failed: {type(err).__name__}: {err}"])
            raise
        state.succeeded(written, time.perf_counter() - started)
        return written

    try:
        watching.watch([content] + ([template] if template else []), once)
    finally:
        state.close()
        server.shutdown()
        server.server_close()
    raise KeyboardInterrupt  # the watch ends only on Ctrl-C


def _server(port: int, folder: Path, state: State) -> http.server.ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"folder": folder, "state": state})
    try:
        server = http.server.ThreadingHTTPServer((HOST, port), handler)
    except OSError as err:
        why = ("is in use; choose another, or leave --port out for a free one"
               if err.errno == errno.EADDRINUSE else f"cannot be used: {err.strerror}")
        raise InputError(Problem(f"port {port} {why}", path="--port")) from None
    server.daemon_threads = True
    return server


class _Handler(http.server.BaseHTTPRequestHandler):
    folder: Path
    state: State
    server_version = "deckgen-preview"
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the library's name
        """Quiet: the terminal shows the builds, not every request."""

    def do_GET(self) -> None:  # noqa: N802 - the library's name
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802 - the library's name
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        path = urllib.parse.urlsplit(self.path).path
        try:
            if path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8",
                           _index(self.state).encode("utf-8"), body)
            elif path == "/status.json":
                self._send(200, "application/json",
                           json.dumps(self.state.summary()).encode("utf-8"), body)
            elif path == "/events" and body:
                self._events()
            else:
                found = inside(self.folder, path)
                if found is None:
                    self._send(404, "text/plain; charset=utf-8", b"not found\n", body)
                else:
                    kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
                    if kind.startswith("text/"):
                        kind += "; charset=utf-8"
                    self._send(200, kind, found.read_bytes(), body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away

    def _send(self, code: int, kind: str, data: bytes, body: bool) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _events(self) -> None:
        """The event stream: `hello` with the current build's number, then `build` after
        every build, and a comment now and then to keep the connection open."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        state = self.state
        with state.changed:
            seen = state.generation
        self._event("hello", seen)
        while True:
            with state.changed:
                state.changed.wait_for(
                    lambda last=seen: state.closing or state.generation != last,  # type: ignore[misc]
                    timeout=KEEP_ALIVE)
                if state.closing:
                    return
                now = state.generation
            if now != seen:
                seen = now
                self._event("build", now)
            else:
                self.wfile.write(b": still here\n\n")
                self.wfile.flush()

    def _event(self, name: str, generation: int) -> None:
        data = json.dumps(self.state.summary() | {"generation": generation})
        self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())
        self.wfile.flush()


def inside(folder: Path, url_path: str) -> Path | None:
    """The regular file inside `folder` that `url_path` names, or None: no '..', no hidden
    name (deckgen's own files start with '.'), no link leading out of the folder."""
    try:
        raw = urllib.parse.unquote(url_path, errors="strict")
    except UnicodeDecodeError:
        return None
    if not raw.startswith("/"):
        return None
    parts = raw[1:].split("/")
    if any(p in ("", ".", "..") or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
        return None
    try:
        root = os.path.realpath(folder)
        target = os.path.realpath(os.path.join(root, *parts))
        if os.path.commonpath([root, target]) != root or target == root:
            return None
        if not stat.S_ISREG(os.stat(target).st_mode):
            return None
    except (OSError, ValueError):
        return None
    return Path(target)


_SCRIPT = """
const shown = %d;
const frame = document.getElementById("page");
const key = "deckgen-preview-scroll";
if (frame) {
  frame.addEventListener("load", () => {
    const y = Number(sessionStorage.getItem(key) || 0);
    frame.contentWindow.scrollTo(0, y);
  });
}
function reloadIfNew(event) {
  if (JSON.parse(event.data).generation === shown) return;
  if (frame && frame.contentWindow) sessionStorage.setItem(key, frame.contentWindow.scrollY);
  location.reload();
}
const events = new EventSource("/events");
events.addEventListener("hello", reloadIfNew);
events.addEventListener("build", reloadIfNew);
"""

_STYLE = """
body { margin: 0; font: 15px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #f4f4f6;
       height: 100vh; display: flex; flex-direction: column; }
header { padding: 10px 16px; background: #1d1d1f; color: #fff; display: flex; gap: 16px;
         align-items: baseline; flex-wrap: wrap; }
header .content { opacity: .75; }
main { display: grid; grid-template-columns: 1fr 300px; flex: 1; min-height: 0; }
iframe { width: 100%; height: 100%; border: 0; background: #fff; }
aside { padding: 12px 16px; overflow: auto; border-left: 1px solid #ddd; }
aside h2 { font-size: 15px; margin: 4px 0 8px; }
ul { list-style: none; padding: 0; margin: 0; }
li { padding: 6px 0; border-bottom: 1px solid #e4e4e8; }
li a { overflow-wrap: anywhere; }
li span { display: block; color: #666; font-size: 13px; }
aside p { color: #666; font-size: 13px; }
.error { background: #fdecea; color: #8a1c12; padding: 10px 16px; border-bottom: 2px solid #d33; }
.error pre { margin: 6px 0 0; white-space: pre-wrap; font: 13px/1.4 ui-monospace, monospace; }
.empty { padding: 24px; color: #666; }
"""


_KINDS = {".pptx": "the deck", ".pdf": "the handout", ".html": "the live page"}


def _size(size: int) -> str:
    return f"{size} bytes" if size < 1024 else f"{size / 1024:.1f} KB" if size < 1024**2 \
        else f"{size / 1024**2:.1f} MB"


def _index(state: State) -> str:
    summary = state.summary()
    files: list[list[Any]] = summary["files"]
    page = next((name for name, _ in files if name.endswith(".html")), None)
    status = (f"built {summary['built_at']} in {summary['took']:.2f} s" if summary["built_at"]
              else "building...")
    error = ""
    if summary["errors"]:
        lines = "\n".join(html.escape(line) for line in summary["errors"])
        error = ("<section class=\"error\"><strong>The last build failed; the files below are "
                 f"from the last good one.</strong><pre>{lines}</pre></section>")
    shown = (f"<iframe id=\"page\" title=\"the live page\" src=\"/{_url(page)}\"></iframe>"
             if page else "<div class=\"empty\">No page yet.</div>")
    items = "".join(
        f"<li><a href=\"/{_url(name)}\">{html.escape(name)}</a>"
        f"<span>{_KINDS.get(Path(name).suffix, 'file')}, {_size(size)}</span></li>"
        for name, size in files)
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>deckgen preview: {html.escape(Path(state.content).name)}</title>"
        f"<style>{_STYLE}</style></head><body>"
        f"<header><strong>deckgen preview</strong>"
        f"<span class=\"content\">{html.escape(state.content)}</span>"
        f"<span id=\"status\">{html.escape(status)}</span></header>{error}"
        f"<main>{shown}<aside><h2>Files</h2><ul>{items}</ul><p>Saving the content file or the "
        "template builds again; this page reloads itself.</p></aside></main>"
        f"<script>{_SCRIPT % summary['generation']}</script></body></html>\n")


def _url(name: str) -> str:
    return urllib.parse.quote(name)

