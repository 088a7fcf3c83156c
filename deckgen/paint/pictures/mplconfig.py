"""A writable folder for matplotlib's settings and font cache, settled before matplotlib is
first imported (deckgen.paint.pictures imports this module ahead of everything else).

When matplotlib's own folder (MPLCONFIGDIR, else ~/.config/matplotlib) cannot be written,
matplotlib makes a temporary one and warns on every run; deckgen instead makes one for the
process, without a word, and removes it at exit. This sets the environment variable
matplotlib documents for the purpose, and nothing of matplotlib's own.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path


def settle() -> None:
    """Point MPLCONFIGDIR at a writable folder of deckgen's when matplotlib's is not one;
    nothing once matplotlib is imported (it read the folder then)."""
    if "matplotlib" in sys.modules:
        return
    given = os.environ.get("MPLCONFIGDIR")
    if given:
        place = Path(given)
    else:
        config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        place = Path(config) / "matplotlib"
    try:
        place.mkdir(parents=True, exist_ok=True)
        if place.is_dir() and os.access(place, os.W_OK):
            return
    except (OSError, RuntimeError):
        pass
    own = tempfile.mkdtemp(prefix="deckgen-matplotlib-")
    main = os.getpid()

    def remove() -> None:
        if os.getpid() == main:
            shutil.rmtree(own, ignore_errors=True)

    atexit.register(remove)
    os.environ["MPLCONFIGDIR"] = own


settle()
