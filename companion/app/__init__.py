"""The runtime around the game: configuration, journal, camera sources, service plumbing, doctor.

Nothing here imports OpenCV, numpy, picamera2 or luma at module level, so
the command line stays fast and a machine without the camera stack can
still read its configuration and its journal.
"""
