"""Mutation operators by source (grounds, norms, authority) and the shared choice helpers."""
