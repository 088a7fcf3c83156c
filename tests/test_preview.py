"""`deckgen preview` as a presenter uses it: a real process serving a real talk on a free port
of 127.0.0.1; the index and the page are fetched, the title is edited and served anew with an
event sent, a broken edit shows its error while the last good page stays, paths out of the
output folder get 404, and Ctrl-C ends it with 130."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow  # it builds a deck, a handout and a page, three times

WAIT = 120.0  # seconds to wait for a build on a loaded machine: a deadline, never a measure


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, str, str]:
    """Status, content type and text of GET `path`, sent exactly as written (no cleaning)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=False, skip_accept_encoding=True)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.getheader("Content-Type") or "", \
            answer.read().decode("utf-8", "replace")
    finally:
        connection.close()


def _title(html: str) -> str:
    found = re.search(r"<title>([^<]*)</title>", html)
    assert found, html[:200]
    return found.group(1)


class Events:
    """The server-sent events of /events, read in a thread: (name, data) pairs."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        self.connection.request("GET", "/events")
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200
        assert self.answer.getheader("Content-Type") == "text/event-stream"
        self.events: queue.Queue[tuple[str, dict[str, object]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = ""
        try:
            for raw in self.answer:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    name = line[len("event: "):]
                elif line.startswith("data: "):
                    self.events.put((name, json.loads(line[len("data: "):])))
        except (OSError, ValueError):
            return

    def next(self) -> tuple[str, dict[str, object]]:
        return self.events.get(timeout=WAIT)

    def close(self) -> None:
        self.connection.close()


@pytest.fixture
def talk(default_text: str, tmp_path: Path) -> Path:
    folder = tmp_path / "talk"
    folder.mkdir()
    (folder / "content.yaml").write_text(
        default_text.replace("Your name here", "Ada Lovelace"), encoding="utf-8")
    return folder


@pytest.fixture
def preview(talk: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "deckgen", "preview", "--port", str(port),
                                "-o", "site"], cwd=talk, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _wait_for_a_build(port: int) -> dict[str, object]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            status, _, text = _get(port, "/status.json")
        except OSError:  # not listening yet
            time.sleep(0.1)
            continue
        summary: dict[str, object] = json.loads(text)
        if summary["generation"]:
            return summary
        time.sleep(0.1)
    raise AssertionError("the first build never finished")


def test_edit_save_see(preview: tuple[subprocess.Popen[str], int], talk: Path) -> None:
    process, port = preview
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == f"preview: http://127.0.0.1:{port}/ (Ctrl-C to stop)\n"
    first = _wait_for_a_build(port)
    page = "million-tokens-1M.html"
    assert [name for name, _ in first["files"]] == [  # type: ignore[attr-defined]
        "million-tokens-1M.pptx", "million-tokens-1M.pdf", page,
        "million-tokens-1M-slides.pdf", "million-tokens-1M-notes.pdf"]

    status, kind, index = _get(port, "/")
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert f'<iframe id="page" title="the live page" src="/{page}">' in index
    for name in ("million-tokens-1M.pptx", "million-tokens-1M.pdf", page):
        size = (talk / "site" / name).stat().st_size
        kind = {".pptx": "the deck", ".pdf": "the handout", ".html": "the live page"}[
            Path(name).suffix]
        assert re.search(rf'<a href="/{re.escape(name)}">{re.escape(name)}</a><span>{kind}, '
                         rf'{size / 1024:.1f} KB</span>', index), name
    assert re.search(r"built \d\d:\d\d:\d\d in \d+\.\d\d s", index)
    assert "<script src" not in index and "http" not in index.split("<script>", 1)[1]
    status, kind, served = _get(port, f"/{page}")
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert _title(served) == "A million tokens a second"
    assert served == (talk / "site" / page).read_text(encoding="utf-8")

    events = Events(port)
    try:
        name, data = events.next()
        assert (name, data["generation"]) == ("hello", 1)

        content = talk / "content.yaml"
        text = content.read_text(encoding="utf-8")
        content.write_text(text.replace("title: A million tokens a second",
                                        "title: A billion tokens a second"), encoding="utf-8")
        name, data = events.next()
        assert (name, data["generation"], data["errors"]) == ("build", 2, [])
        assert _title(_get(port, f"/{page}")[2]) == "A billion tokens a second"

        broken = text.replace("title: A million tokens a second",
                              "title: A billion tokens a second").replace(
            "\n  speed: 1M\n", "\n  speed: fast\n")
        content.write_text(broken, encoding="utf-8")
        name, data = events.next()
        assert name == "build" and data["generation"] == 3
        line = broken[:broken.index("\n  speed: fast\n")].count("\n") + 2
        errors = data["errors"]
        assert isinstance(errors, list)
        assert errors[0].startswith(f"content.yaml:{line}:10: dial.speed: must be a positive "
                                    "number of tokens per second")
        assert errors[-1] == "build failed; the last good files stay in place"
        index = _get(port, "/")[2]
        assert "The last build failed; the files below are from the last good one." in index
        assert f"content.yaml:{line}:10: dial.speed: must be a positive" in index
        assert "got &#x27;fast&#x27;" in index  # escaped, as text
        assert _title(_get(port, f"/{page}")[2]) == "A billion tokens a second"  # the last good
    finally:
        events.close()

    # Only files inside the output folder: no '..', no hidden files, no link out.
    (talk / "site" / "out.html").symlink_to(talk / "content.yaml")
    (talk / "site" / "in.html").symlink_to(talk / "site" / page)
    for path in ("/../content.yaml", "/%2e%2e/content.yaml", "/site/../../content.yaml",
                 "/..%2fcontent.yaml", "/out.html", "/.deckgen/manifest.json", "/nothing.pdf",
                 "/.deckgen-cache/", "//etc/passwd", "/%ff"):
        assert _get(port, path)[0] == 404, path
    assert _get(port, "/in.html")[0] == 200  # a link that stays inside is the file it names

    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=WAIT) == 130
    err, said = process.stderr.read(), process.stdout.read()
    assert "stopped watching" in said + err  # and the folder keeps the last good build
    assert "Traceback" not in err
    left = sorted(p.name for p in (talk / "site").iterdir())
    assert left == [".deckgen", "in.html", "million-tokens-1M-notes.pdf",
                    "million-tokens-1M-slides.pdf", "million-tokens-1M.html",
                    "million-tokens-1M.pdf", "million-tokens-1M.pptx", "out.html"]
    assert _title((talk / "site" / page).read_text(encoding="utf-8")) == \
        "A billion tokens a second"
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_a_port_in_use_is_one_line(talk: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "deckgen", "preview", "--port", str(port)],
                             cwd=talk, capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1] == (
        f"--port: port {port} is in use; choose another, or leave --port out for a free one")
    assert not (talk / "output").exists()
