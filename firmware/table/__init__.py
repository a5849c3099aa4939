"""The table's services around the game, each in its own module:

- ``roster``: the people a seat can take, each an id with a name (the store's list, started from the config);
- ``names``: what a person's name may be (normalised, drawable), and printing it safely (escaped, by width);
- ``seat``: a place at the table as a stored game keeps it (colour, person, box or not);
- ``bot``: what a box seat and a hint decide (the engine's strategy players);
- ``person_stats``: a person's statistics (one tally per finished game, added up);
- ``restart``: the table's screen kept for a restart, read back (the box, the web view);
- ``practice``: the box's own solitaire averages, for practice.
"""
