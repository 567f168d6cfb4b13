"""Drawings of the table: ``render_svg`` draws a game state to scale as an SVG document."""

from dogfight.render.svg import render_svg

__all__ = ["render_svg"]
