"""The encoding guess for single-byte files scores each candidate decoding by how its non-ASCII
characters read; the fast count must give exactly the score of the plain definition."""
from __future__ import annotations

import random
import re

from kb.sources import decode

TYPOGRAPHIC = set("’‘“”–—…™®©•")


def plain_score(text: str) -> int:
    """The definition: +1 per typographic mark or letter between letters, -1 per other non-ASCII."""
    score = 0
    for found in re.finditer(r"[^\x00-\x7f]", text):
        i, ch = found.start(), found.group()
        if ch in TYPOGRAPHIC or (ch.isalpha() and 0 < i < len(text) - 1 and text[i - 1].isalpha() and text[i + 1].isalpha()):
            score += 1
        else:
            score -= 1
    return score


def test_the_score_of_every_single_byte_reading_of_the_real_files(data_dir):
    files = sorted(data_dir.glob("cr-en-*.txt")) + sorted((data_dir / "cr-archive").glob("*.txt"))
    checked = 0
    for path in files:
        data = path.read_bytes()
        for name in decode.SINGLE_BYTE:
            try:
                text = data.decode(name)
            except UnicodeDecodeError:
                continue
            assert decode._plausibility(text) == plain_score(text), (path.name, name)
            checked += 1
    assert checked >= 2 * len(files)


def test_the_score_on_random_texts_with_marks_letters_and_symbols():
    rng = random.Random(7)
    alphabet = "ab Z.\n" + "".join(TYPOGRAPHIC) + "éÂƒ\x83±§ñ"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert decode._plausibility(text) == plain_score(text), repr(text)

