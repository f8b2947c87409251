"""The RDF terms the graph writer (kb.build.rdf) uses, as pyoxigraph nodes made once: literals,
skolemised nodes, and every predicate and class (a DefinedNamespace lookup per triple costs ~1 s)."""
from __future__ import annotations

import pyoxigraph as ox
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD

from kb.vocab import MTG, OA, skolem_iri

_XSD_BOOLEAN, _XSD_INTEGER, _XSD_DECIMAL = (ox.NamedNode(str(XSD[t])) for t in ("boolean", "integer", "decimal"))


# Terms are pyoxigraph's (built in Rust: ~10x faster than rdflib.Literal for 400k triples); the
# graph is read back through rdflib (oxrdflib), which is the API users and the server see.
def Literal(value, lang: str | None = None, datatype=None) -> ox.Literal:
    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=_XSD_BOOLEAN)
    if isinstance(value, int):
        return ox.Literal(str(value), datatype=_XSD_INTEGER)
    if isinstance(value, float):
        return ox.Literal(repr(value), datatype=_XSD_DECIMAL)
    if datatype is not None:
        return ox.Literal(value, datatype=ox.NamedNode(str(datatype)))
    return ox.Literal(value, language=lang) if lang else ox.Literal(value)


def _node(iri) -> ox.NamedNode:
    return ox.NamedNode(str(iri))


# Predicates and classes as pyoxigraph nodes, made once (a DefinedNamespace lookup per triple costs ~1 s).
DCTERMS_date = _node(DCTERMS.date)
DCTERMS_language = _node(DCTERMS.language)
DCTERMS_source = _node(DCTERMS.source)
DCTERMS_title = _node(DCTERMS.title)
MTG_Card = _node(MTG.Card)
MTG_Citation = _node(MTG.Citation)
MTG_Document = _node(MTG.Document)
MTG_Edition = _node(MTG.Edition)
MTG_Example = _node(MTG.Example)
MTG_GlossaryTerm = _node(MTG.GlossaryTerm)
MTG_Mechanic = _node(MTG.Mechanic)
MTG_QuotedRule = _node(MTG.QuotedRule)
MTG_Rule = _node(MTG.Rule)
MTG_Ruling = _node(MTG.Ruling)
MTG_aboutMechanic = _node(MTG.aboutMechanic)
MTG_asWritten = _node(MTG.asWritten)
MTG_backedBy = _node(MTG.backedBy)
MTG_decidedBy = _node(MTG.decidedBy)
MTG_bulletDepth = _node(MTG.bulletDepth)
MTG_citationStatus = _node(MTG.citationStatus)
MTG_citedNumber = _node(MTG.citedNumber)
MTG_citedTitle = _node(MTG.citedTitle)
MTG_cites = _node(MTG.cites)
MTG_column = _node(MTG.column)
MTG_complete = _node(MTG.complete)
MTG_currentRule = _node(MTG.currentRule)
MTG_definedBy = _node(MTG.definedBy)
MTG_documentKind = _node(MTG.documentKind)
MTG_edition = _node(MTG.edition)
MTG_editionKey = _node(MTG.editionKey)
MTG_effectiveDate = _node(MTG.effectiveDate)
MTG_exampleCard = _node(MTG.exampleCard)
MTG_glossaryTerm = _node(MTG.glossaryTerm)
MTG_hasExample = _node(MTG.hasExample)
MTG_inDocument = _node(MTG.inDocument)
MTG_lineEnd = _node(MTG.lineEnd)
MTG_lineStart = _node(MTG.lineStart)
MTG_lineageMethod = _node(MTG.lineageMethod)
MTG_lineageScore = _node(MTG.lineageScore)
MTG_locator = _node(MTG.locator)
MTG_mechanicKind = _node(MTG.mechanicKind)
MTG_mentionsCard = _node(MTG.mentionsCard)
MTG_nameEn = _node(MTG.nameEn)
MTG_nameJa = _node(MTG.nameJa)
MTG_nestedIn = _node(MTG.nestedIn)
MTG_nextVersion = _node(MTG.nextVersion)
MTG_parentRule = _node(MTG.parentRule)
MTG_quoteMatches = _node(MTG.quoteMatches)
MTG_quoteSimilarity = _node(MTG.quoteSimilarity)
MTG_quotesEdition = _node(MTG.quotesEdition)
MTG_quotesRule = _node(MTG.quotesRule)
MTG_rawText = _node(MTG.rawText)
MTG_references = _node(MTG.references)
MTG_relatedMechanic = _node(MTG.relatedMechanic)
MTG_resolutionMethod = _node(MTG.resolutionMethod)
MTG_resolvedEdition = _node(MTG.resolvedEdition)
MTG_resolvedTo = _node(MTG.resolvedTo)
MTG_ruleKind = _node(MTG.ruleKind)
MTG_ruleNumber = _node(MTG.ruleNumber)
MTG_rulingKind = _node(MTG.rulingKind)
MTG_sectionPath = _node(MTG.sectionPath)
MTG_text = _node(MTG.text)
MTG_textChanged = _node(MTG.textChanged)
MTG_translationOf = _node(MTG.translationOf)
OA_TextQuoteSelector = _node(OA.TextQuoteSelector)
OA_exact = _node(OA.exact)
OA_hasSelector = _node(OA.hasSelector)
PROV_Derivation = _node(PROV.Derivation)
PROV_entity = _node(PROV.entity)
PROV_qualifiedDerivation = _node(PROV.qualifiedDerivation)
PROV_wasDerivedFrom = _node(PROV.wasDerivedFrom)
RDF_type = _node(RDF.type)
RDFS_label = _node(RDFS.label)
SKOS_altLabel = _node(SKOS.altLabel)
SKOS_definition = _node(SKOS.definition)
SKOS_prefLabel = _node(SKOS.prefLabel)


def BNode(label: str) -> ox.NamedNode:
    """A node with no identity of its own (a lineage derivation, a text selector), skolemised to a
    stable IRI (RDF 1.1 section 3.5): builds are reproducible, and the N-Triples are loaded in
    chunks, which blank nodes would not survive."""
    return ox.NamedNode(str(skolem_iri(label)))
