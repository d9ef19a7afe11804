"""Mutation operators of the agentic stratum, one module per source they change."""
