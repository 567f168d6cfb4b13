"""Situations: the JSON format a referee writes for a table (vehicles, plans, answers,
objectives, target cards), its checks, its ruling (``adjudicate``/``render``) and the
ready-made tables of scenarios that come without a situation file."""
