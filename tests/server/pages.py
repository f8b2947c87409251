"""Reading HTML pages in the server tests (a helper, not a fixture)."""
from __future__ import annotations

HTML = {"Accept": "text/html"}


def page(client, url: str) -> str:
    """The page at ``url`` as text, asserting it answered 200."""
    response = client.get(url, headers=HTML)
    assert response.status_code == 200, (url, response.data[:300])
    return response.get_data(as_text=True)
