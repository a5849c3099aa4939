"""Tests: sight."""
