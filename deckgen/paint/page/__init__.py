"""The live page: one self-contained HTML file whose dial the reader can turn.

`deckgen.paint.page.render` draws it (Jinja2 lives there and nowhere else); `page.js` computes every
figure in the browser exactly as the core does, and `page.css` lays it out.
"""
