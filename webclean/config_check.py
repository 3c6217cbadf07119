"""What every section of the configuration checks its values with (config.py)."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration that cannot be used: unknown key, wrong type or out of range."""


def check_range(name: str, value: float, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{name} must be a number, not {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} = {value} is out of range [{low}, {high}]")
