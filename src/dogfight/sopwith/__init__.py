"""Sopwith by post: the hex-grid WW1 dogfight of 004, its written orders and the Games
Master's weekly turn. Independent of the card game's rules core."""
