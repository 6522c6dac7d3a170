"""Marshmallow schemas for card catalogs: ``schemas.catalogs.<kind>.CATALOG``
validates a catalog of that kind (dashes in the kind become underscores)."""
