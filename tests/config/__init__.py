"""Tests: config."""
