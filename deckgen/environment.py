"""The process's environment, validated before any work: values deckgen reads from it.

`SOURCE_DATE_EPOCH` fixes the dates embedded in the deck (zip entries) and the handout
(PDF dates). A zip entry's date runs from 1980-01-01 to 2107-12-31, so only the seconds
in that span are accepted; anything else is one line naming the variable, exit 2.
"""

from __future__ import annotations

import os
import re

from deckgen.errors import InputError, Problem

FIRST = 315_532_800  # 1980-01-01T00:00:00Z, the first moment a zip entry can carry
LAST = 4_354_819_199  # 2107-12-31T23:59:59Z, the last
RULE = (f"must be a whole number of seconds since 1970 from {FIRST} (1980-01-01) to {LAST} "
        "(2107-12-31), the dates a .pptx and a .pdf can carry")


def source_date_epoch() -> int | None:
    """SOURCE_DATE_EPOCH's seconds, None when it is unset or empty; InputError otherwise."""
    raw = os.environ.get("SOURCE_DATE_EPOCH")
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    shown = text if len(text) <= 40 else text[:40] + "..."
    if not re.fullmatch(r"[0-9]{1,12}", text) or not FIRST <= int(text) <= LAST:
        raise InputError(Problem(f"{RULE}, got {shown!r}", path="SOURCE_DATE_EPOCH"))
    return int(text)


def validate() -> None:
    """Refuse, before any work, an environment a build cannot use."""
    source_date_epoch()
