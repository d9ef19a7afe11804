"""A user's reasonbench plug-ins, one module per kind of extension (see ../../README.md)."""
