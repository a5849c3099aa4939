"""The box's firmware: daemon, UI state machine, screens, storage, config, CLI."""
