"""Tests: cues."""
