"""What the box tells the table besides the screen: the buttons' lamps and the buzzer's tones.

Both are pure: :func:`lamps.lamp_states` reads a view (its legend, and what
it awaits), :func:`tones.cues` reads what the game did between two frames.
The daemon's :mod:`firmware.daemon.signals` carries them out on the
adapters in :mod:`hw.lamps` and :mod:`hw.buzzer`.
"""

from .lamps import LIT, OFF, PULSE, lamp_states
from .tones import BUST, CLAIM, CUES, MELODIES, ROLL, WIN, cues

__all__ = ["LIT", "OFF", "PULSE", "lamp_states", "BUST", "CLAIM", "CUES", "MELODIES", "ROLL", "WIN", "cues"]
