"""Mutation operators of the organizational stratum, one module per source they change."""
