"""The application: the CLI and its commands, the long-running service and its schedule, the demo,
`hunter check`."""


def main() -> int:
    """The `hunter` command (pyproject's entry point): hunter loaded with the garbage collector
    held (app/collector.py), then the command line run."""
    from hunter.app import collector

    with collector.loading():
        from hunter.app import cli, commands  # noqa: F401 - every command needs both

    return cli.main()
