"""The package version, in a module of its own so that every module can read it."""

__version__ = "0.1.0"
