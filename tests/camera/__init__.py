"""Tests: the camera."""
