"""Finders that run over any text: rule citations, card mentions."""
