"""One parser per source format: pure functions from text to records (no rdflib here)."""
