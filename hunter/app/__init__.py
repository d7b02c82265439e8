"""The application: the CLI and its commands, the long-running service and its schedule, the demo,
`hunter check`."""
