"""The camera's side of the box that needs no picture: what the game says should stand on the board, the
words between the box and the camera's own process, and the store's copy of the camera's set-up.

The pictures themselves are read in a process of its own (:mod:`firmware.camera.eye`, with :mod:`sight`):
NumPy and OpenCV never load into the box's loop, and a slow or stuck camera never delays a press.
"""
