"""Tests: screens."""
