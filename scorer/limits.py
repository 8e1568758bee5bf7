"""Limits the rules and the pages share, defined once (templates get them from the app)."""
from __future__ import annotations

MIN_PLAYERS = 2          # a draft (tracker) or a scored table at the pages
MAX_PLAYERS = 5
MAX_NAME = 40            # characters in a player's name
MAX_UPLOAD_BYTES = 25 * 1024 * 1024   # a planet photo
