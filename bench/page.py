"""The live page in headless Chromium: its size, when it is interactive, and one full update.

    python bench/page.py [CONTENT] [--runs N]

Builds the page in this process, opens it from a file N times (10 by default) in the
system's Chromium through Playwright, and prints medians and maxima of the navigation's
domInteractive, the moment the page's script has drawn every figure, and one complete update
after a new fragment (every figure, table and chart), all from the browser's performance clock.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckgen import source, story  # noqa: E402
from deckgen.paint.page import render as page  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
UPDATES = """() => { const out = [];
  for (let i = 0; i < 20; i++) {
    history.replaceState(null, "", "#speed=" + (1000 + i * 3700) + "&check=" + (i * 97) + "s");
    const t0 = performance.now();
    dispatchEvent(new HashChangeEvent("hashchange"));
    document.body.offsetHeight;  // layout included
    out.push(performance.now() - t0);
  }
  return out; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    args = sys.argv[1:]
    runs = 10
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    content = source.read(Path(args[0]) if args else None)[0]
    data = page.render(story.compose(content))
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("needs chromium on PATH")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        path = Path(folder) / "page.html"
        path.write_bytes(data)
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        interactive, ready, update = [], [], []
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            tab = context.new_page()
            tab.goto(path.as_uri())
            tab.wait_for_function("() => window.deckgenReady !== undefined")
            dom, done = tab.evaluate("() => [performance.getEntriesByType('navigation')[0]"
                                     ".domInteractive, window.deckgenReady]")
            interactive.append(dom)
            ready.append(done)
            update += tab.evaluate(UPDATES)
            context.close()
        browser.close()
    print(f"page size: {len(data):,} bytes")
    for name, values in (("domInteractive", interactive), ("every figure drawn", ready),
                         ("one full update", update)):
        print(f"{name:>20}: median {statistics.median(values):6.1f} ms, "
              f"max {max(values):6.1f} ms ({len(values)} samples)")


if __name__ == "__main__":
    main()
