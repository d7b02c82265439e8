"""hunter: job alerts to LINE, exactly once."""

__version__ = "0.1.0"
