"""Tests: hostile."""
