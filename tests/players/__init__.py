"""Tests: players."""
