"""MTG rules knowledge graph: parse rules sources, build one cited RDF graph, answer lookups."""
