"""The deck: the placed deck drawn as a PowerPoint file a presenter can open, edit and present
as is.

With python-pptx, through its public API: `slides.py` opens the template and adds the placed
slides, `shapes.py` draws their shapes (native charts with `charts/`, tables with `tables.py`,
text with `text.py`, in the theme's colours by `colours.py`), and `package.py` sets the
package's properties and saves it as stable bytes. `compat.py` holds the few things python-pptx
has no public API for, and is the one module that reaches its XML. Nothing here decides where
anything goes: the plan (deckgen.plan) did.
"""

from __future__ import annotations

from deckgen.paint.pptx.slides import paint

__all__ = ["paint"]
