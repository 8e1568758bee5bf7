"""Tracker games in the database (owned by the tracker; placeholder until it lands)."""
