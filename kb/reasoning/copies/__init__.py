"""Question type: copies (CR 707)."""
from __future__ import annotations

from kb.reasoning.copies.logic import solve
from kb.reasoning.copies.schema import M, SCHEMA
from kb.reasoning.engine import register_mechanic

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("707",), name_en="Copying objects", name_ja="オブジェクトのコピー",
                  relies_on=("202.3", "700.2", "708.2", "709.5", "718.3", "111.13", "605.1a", "608.2c", "120.3e",
                                             "702.33d", "701.8a", "702.12b", "613.4b", "613.1f", "704.5g", "611.3a"))
