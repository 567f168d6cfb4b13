"""Exact table geometry: poses, bases, maneuver cards, arcs, ruler reach and line of sight.

Convention (also in ``docs/geometry.md``): lengths in centimetres, angles in degrees.
The table's origin is its lower-left corner, x grows to the right and y grows upwards.
A heading is measured counter-clockwise from the +x axis (0 = right, 90 = up).
A vehicle's local frame has +forward along its heading and +left 90 degrees
counter-clockwise of it.
"""

from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import Polygon, rectangle

__all__ = ["Polygon", "Pose", "rectangle"]
