"""The phone as the table's keyboard: pairing by the box's screen, the names, the next game (docs/phone.md).

- :mod:`.door`: what every write passes (same site, 16 KB, a paired phone, its form token, few wrong codes);
- :mod:`.routes`: ``/pair``, ``/players``, ``/setup``, each change sent to the box's own socket;
- :mod:`.pages`, :mod:`.text`: their HTML and words.
"""
