"""The catalog: decks, airplanes, special damage, rulesets and constants, loaded from
validated TOML data files (the shipped approximations, optionally overridden by a user's
data folder)."""

from dogfight.catalog.loader import Catalog, load_catalog

__all__ = ["Catalog", "load_catalog"]
