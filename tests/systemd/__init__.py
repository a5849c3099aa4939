"""Tests: systemd."""
