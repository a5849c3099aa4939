"""Tests: hw."""
