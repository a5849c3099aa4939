"""The test suite, a package: ``tests.kit`` holds what the test modules share."""
