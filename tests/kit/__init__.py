"""What the test modules share, imported as a normal package (``from tests.kit.clock import FakeClock``).

- :mod:`.clock`: the one fake clock (``clock()`` is the time, ``clock.advance(s)`` moves it);
- :mod:`.gamekit`: the engine tests' helpers, reference model and hypothesis strategies;
- :mod:`.playerkit`: states for the players' tests;
- :mod:`.storekit`: legal games from a seeded source, failing connections, small file systems;
- :mod:`.rig`: the daemon on gpiozero's mock pins, a fake display and a real store (``Rig``, and its
  ``play_on``), for the tests, the web tests and the benchmarks; ``mock_pins`` makes their pin factories;
- :mod:`.saved`: a display that checks, at every frame, that what it shows is in the store.

The repository root is on pytest's ``pythonpath`` (pyproject.toml), so no test reaches a
kit through ``sys.path``.
"""
