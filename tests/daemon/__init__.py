"""Tests: daemon."""
