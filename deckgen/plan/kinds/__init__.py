"""Every slide planned without python-pptx: boxes, paragraphs and sizes (deckgen.plan.items's
types), worked out before anything is drawn.

`arrange_slides` (arrange.py) is the entry point. A slide is planned in a `Context` (context.py: the
story, the template's geometry, the type scale, the faces); `titles.py` sets its kicker and
title and leaves the frame for its content; its kind's module offers the content's
arrangements in order of preference, and the ordered search (deckgen.typeset.fit) takes the
first that fits. One module per slide kind: `cover`, `meanings`, `dial`, `workloads` (with the
writing chart and the tables alone on their slides), `experiments`, `bottleneck`, `ceiling`,
`precious`, `checklist`, `sources`, `closing`; `fitting.py` measures and fits paragraphs,
`tables.py` plans tables.
"""

from deckgen.plan.kinds.arrange import arrange_slides

__all__ = ["arrange_slides"]
