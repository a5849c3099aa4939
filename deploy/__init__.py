"""The installer's and the updater's Python parts (importable as deploy.X by the tests; run as scripts on the box)."""
