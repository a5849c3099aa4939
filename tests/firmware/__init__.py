"""Tests: firmware."""
