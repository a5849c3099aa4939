"""Tests: words."""
