"""Configuration, read once: the environment and the launcher's options become one ``Settings``.

Nothing else in the project reads ``os.environ``; ``create_app`` and the commands build this.
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# A checkout keeps its data in instance/ beside the code; an installed copy, where it is started.
DEFAULT_INSTANCE = ROOT / "instance" if (ROOT / "pyproject.toml").is_file() else Path.cwd() / "instance"


@dataclass(frozen=True)
class Settings:
    instance_path: Path
    database_url: str
    secret_key: str
    catalog_path: Path | None          # None: the catalog shipped with the app
    trusted_hosts: tuple[str, ...] = ()  # Host names absolute links may use; () = this machine's
    behind_tls: bool = False           # served as https (through a TLS front): cookies are Secure
    rate_limits: bool = True           # per-client limits on creating games, tables and scans
    abandoned_days: float = 30.0       # an unfinished game untouched this long is dropped
    keep_days: float | None = None     # finished games, tables and tallies: kept for ever (history)

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None,
             environ: Mapping[str, str] | None = None) -> Settings:
        """From the environment (``DATABASE_URL``, ``SECRET_KEY``, ``PLANET_CATALOG``,
        ``PLANET_TRUSTED_HOSTS`` (comma-separated), ``PLANET_TLS=1``, ``PLANET_INSTANCE``: the folder
        for the key, the SQLite file and kept scans), with ``overrides`` (the same names, and
        ``INSTANCE_PATH``) winning."""
        env = os.environ if environ is None else environ
        over = dict(overrides or {})
        instance = Path(over.get("INSTANCE_PATH") or env.get("PLANET_INSTANCE") or DEFAULT_INSTANCE)
        instance.mkdir(parents=True, exist_ok=True)
        database = (over.get("DATABASE_URL") or env.get("DATABASE_URL")
                    or f"sqlite:///{instance / 'planet.sqlite3'}")
        secret = over.get("SECRET_KEY") or env.get("SECRET_KEY") or _kept_secret(instance)
        catalog = env.get("PLANET_CATALOG")
        hosts = over.get("PLANET_TRUSTED_HOSTS", env.get("PLANET_TRUSTED_HOSTS", ""))
        trusted = tuple(h.strip().lower() for h in hosts.split(",") if h.strip())
        tls = str(over.get("PLANET_TLS", env.get("PLANET_TLS", ""))).lower() in ("1", "true", "yes")
        limits = str(over.get("PLANET_RATE_LIMITS", env.get("PLANET_RATE_LIMITS", "on"))).lower()
        abandoned = _days(over.get("PLANET_ABANDONED_DAYS", env.get("PLANET_ABANDONED_DAYS"))) or 30.0
        keep = _days(over.get("PLANET_KEEP_DAYS", env.get("PLANET_KEEP_DAYS")))
        return cls(instance, database, secret, Path(catalog) if catalog else None, trusted, tls,
                   limits not in ("0", "off", "false", "no"), abandoned, keep)


def _days(value: object) -> float | None:
    """A number of days from the environment; empty means unset. A bad value stops the start."""
    if value in (None, ""):
        return None
    try:
        days = float(str(value))
    except ValueError:
        raise ValueError(f"a number of days is expected, not {value!r}") from None
    if days <= 0:
        raise ValueError(f"a number of days above 0 is expected, not {value!r}")
    return days


def _kept_secret(instance: Path) -> str:
    """A secret key made once and kept in the instance folder, readable by its owner only."""
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except OSError:
        key = secrets.token_hex(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return path.read_text().strip()
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key
