"""`python -m server`: the service as its own program (what `kb serve` runs)."""
from __future__ import annotations

import argparse

from server.serve import serve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--home", help="the KB home with the snapshot (default: MTG_KB_HOME or var/)")
    parser.add_argument("--dev", action="store_true", help="Flask's development server")
    parser.add_argument("--sparql-endpoint", help="a SPARQL server's query URL to read RDF from "
                                                  "(default: MTG_KB_SPARQL_ENDPOINT; none: the embedded store)")
    parser.add_argument("--sparql-server", action="store_true",
                        help="run an Oxigraph server on the snapshot's store and read RDF through it; "
                             "it follows CURRENT with the workers")
    args = parser.parse_args()
    serve(host=args.host, port=args.port, workers=args.workers, dev=args.dev, home=args.home,
          sparql_endpoint=args.sparql_endpoint, sparql_server=args.sparql_server)


if __name__ == "__main__":
    main()
