"""deckgen: one YAML file in, a meetup deck and a printable handout out."""

__version__ = "0.1.0"
