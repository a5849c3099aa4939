"""Tests: table."""
