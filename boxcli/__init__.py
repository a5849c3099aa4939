"""The ``cantstop-box`` commands: one module per subcommand, and the dispatcher (:mod:`.cli`) beside them.

Each command module exposes ``add_arguments(parser)`` and ``run(args) -> int``
(or a class with both); :data:`.cli.COMMANDS` names them, and only the one
that runs is imported.
"""
