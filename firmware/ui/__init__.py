"""The box's UI: a pure state machine, ``update(app, input) -> (app, effects)``, and ``view(app)``.

Where to look:

- :mod:`.model`: the app state, the screens (an enum, each with a small
  frozen record of its own state), the buttons, the seats and settings;
- :mod:`.messages`: the inputs the daemon feeds in and the effects it
  carries out;
- :mod:`.update`: the transition, dispatching a press to the handlers of
  the screen that is up: :mod:`.turns` (a game), :mod:`.setup` (new game),
  :mod:`.menus` (the menu and what it opens), :mod:`.people` (statistics
  per person, a game's recap, continuing a game), :mod:`.navigate` (moving
  between screens); a paired phone's request is answered by :mod:`.phone`,
  the network's status by :mod:`.network`, the camera by :mod:`.camera`;
- :mod:`firmware.words` (beside the UI, not in it): every sentence the box says;
- :mod:`.present`: ``view(app)``, the screen as plain data
  (:mod:`firmware.views`) for the renderer.

Buttons (all screens): MENU opens the menu (on the menu: back to the game); on
lists A and B move, ROLL chooses. A box seat plays its turn by itself, paced
by a timer the daemon keeps (:class:`After`, :class:`Timer`); any press skips
ahead. In a game: ROLL rolls, STOP stops, A/B/C choose a pairing; hold
MENU to undo the last choice or stop, hold ROLL for a hint.
"""

from .messages import (
    After,
    Append,
    ContinueGame,
    GameContinued,
    LoadUnfinished,
    NetworkSeen,
    PersonStats,
    ForgetPhones,
    PairPhone,
    PhoneCode,
    PhoneAsked,
    PhoneReply,
    PhoneSettingsKept,
    CodeLasts,
    KeepRoster,
    KeepFacts,
    Dimming,
    Lamps,
    CameraSaid,
    BoardSeen,
    CameraSetUp,
    WatchBoard,
    StopWatching,
    SetUpCamera,
    Unfinished,
    UnfinishedLoaded,
    DiceRolled,
    DrawDice,
    Effect,
    FinishGame,
    Input,
    LoadStats,
    PopLast,
    Press,
    RosterChanged,
    Saved,
    SaveFailed,
    Shutdown,
    StartGame,
    StatsLoaded,
    StatsProgress,
    Timer,
)
from .memory import memory, recall
from .network import network_unsaid
from .model import App, Button, Screen, Seat, Setup, boot, notify, resume
from .phone import roster_changed
from .present import view
from .update import timer_for, update

__all__ = [
    "After", "Append", "DiceRolled", "Timer", "timer_for", "DrawDice", "Effect", "FinishGame", "Input", "LoadStats", "PopLast", "Press", "RosterChanged", "Saved",
    "SaveFailed", "Shutdown", "StartGame", "StatsLoaded", "StatsProgress",
    "ContinueGame", "GameContinued", "LoadUnfinished", "NetworkSeen", "PersonStats", "ForgetPhones", "PairPhone", "PhoneCode", "PhoneAsked", "PhoneReply", "PhoneSettingsKept", "CodeLasts", "KeepRoster", "KeepFacts",
    "Dimming", "Lamps", "Unfinished", "UnfinishedLoaded", "roster_changed",
    "CameraSaid", "BoardSeen", "CameraSetUp", "WatchBoard", "StopWatching", "SetUpCamera",
    "App", "Button", "Screen", "Seat", "Setup", "boot", "memory", "network_unsaid", "notify", "recall", "resume", "view", "update",
]
