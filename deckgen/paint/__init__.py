"""Renderers: the story (and its layout) as the bytes of each output file."""
