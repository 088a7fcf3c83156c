"""The closing slide: the takeaway, large; the checklist pointer under it; a QR code for the
page."""

from __future__ import annotations

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import TIGHT, Item, Para, QrItem
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import middle, text_item
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """The takeaway at the title size, then the body size, then with a smaller code."""
    closing, t = s.closing, c.t
    assert closing is not None
    side = min(inch(2.6), frame.h)
    return [lambda: arrange(c, closing, frame, t.title, side),
            lambda: arrange(c, closing, frame, t.body, side),
            lambda: arrange(c, closing, frame, t.body, inch(1.8))]


def arrange(c: Context, closing: st.Closing, frame: Box, size: float,
            qr_side: int) -> list[Item] | Misfit:
    """The words at the left, the code (`qr_side` square) at the right, a little above the
    middle."""
    url, t = closing.url, c.t
    text_w = frame.w - (qr_side + inch(0.6) if url else 0)
    paras = [Para(closing.takeaway.text, (size,), bold=True, heading=True, line=TIGHT,
                  field="takeaway", origin=closing.takeaway.origin),
             Para(closing.pointer.text, (t.body,), colour="muted", before=18,
                  field="checklist pointer", origin=closing.pointer.origin)]
    if url:
        paras.append(Para(url, (t.table,), colour="accent", before=12, link=url,
                          field="page address"))
    text = text_item(c.faces, Box(frame.x, frame.y, text_w, frame.h), paras,
                     shrink_to_fit=True, name="Takeaway")
    if isinstance(text, Misfit):
        return text
    items: list[Item] = [text]
    if url:
        items.append(QrItem(Box(frame.right - qr_side, frame.y, qr_side, qr_side), url))
    return middle(items, frame)
