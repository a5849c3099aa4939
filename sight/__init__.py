"""What the camera sees: photographs of the board in, the pieces on its spaces out.

Standard library, NumPy and OpenCV only; it knows nothing of the game (the
column heights come in as data, from :mod:`engine` by whoever builds the
layout) and nothing of the box. Where to look:

- :mod:`.layout`: the board as the camera knows it: the 83 spaces' places on
  the board's plane (millimetres, the four markers' frame), pieces as plain data;
- :mod:`.markers`: the four printed markers found in a photo, and the map from
  the photo to the board's plane;
- :mod:`.follow`: that map found again from the set-up's when a shaken photo's
  markers cannot be read (the board aligned with its empty picture);
- :mod:`.calibrate`: the empty board's photo turned into what reading needs
  (its spaces' looks, the light, the grid fitted to the board);
- :mod:`.read`: a photo read against that: each space empty, a colour, a runner, or unsure;
- :mod:`.arm`: something big over the board in that reading (a hand, an arm), and the squares near it;
- :mod:`.settle`: whether the picture is still (no hand over the board);
- :mod:`.scene`: a board photographed virtually (tests, the emulator, the benchmark).

Nothing here is imported by the box's own process: the camera runs in a
process of its own, so NumPy and OpenCV never weigh on the loop.
"""
