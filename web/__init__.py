"""The live web view: another reader of the store, in its own process.

``cantstop-box web`` serves, from the game store opened read-only, a page
that shows the game being played (the board, whose turn, the dice and their
pairings, the bust chance, the instruction the box shows), the history and
each game step by step, and the statistics per person. It never imports the
daemon and never writes: nothing the page does can stall or change the game.

- :mod:`.reader`: the store opened read-only (``mode=ro``), whether the box
  is running, and a cheap change check;
- :mod:`.live`: the live game as plain data, from the store and the box's own
  view of it (:func:`firmware.ui.view`);
- :mod:`.pages`, :mod:`.board`: HTML, every stored text escaped;
- :mod:`.text`: the page's own words, in English, marked for the box's catalogues (its Japanese and Korean);
- :mod:`.app`: the routes and the event stream (Starlette);
- :mod:`.serve`: the server (uvicorn) with its limits.
"""
