"""Speed and memory figures (``make bench``, ``make scale``, ``make soak``), never timed tests.

Each module is run from the repository root as ``python -m benchmarks.NAME``
(``.venv/bin/python -m benchmarks.startup``): the root is then on the path, so
they import the box's packages and each other (``benchmarks.scripted``) by name.
"""
