"""Settings: hunter.toml and the environment, read into one typed, validated object."""
