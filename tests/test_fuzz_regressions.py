"""Inputs that once broke extract, found by scripts/fuzz_extract.py or the property tests.

Each stays here after its fix: one input, the answer it must get.
"""

from __future__ import annotations

import pytest

from webclean.config import Config
from webclean.extract import extract
from webclean.parse import parse_html
from webclean.result import Status

# A character reference to a control character (&#1;, &#xffff;) next to an element
# that drop_hidden removes: moving the tail raised lxml's ValueError ("All strings
# must be XML compatible") out of extract. Fixed in parse.py, which now removes such
# characters from the tree (tests/test_properties.py found it).
CONTROL_REFERENCES = [
    b"<di style=display:none></di>&#1",
    "<html><head><title>t</title></head><body><div style='display:none'></div>&#1; </body></html>",
    "<div><p hidden>x</p>&#xffff;&#2;<p>The bus returns on Monday after a year without service.</p></div>",
    "<form><input></form>&#31;<div><p>The bus returns on Monday after a year without service.</p></div>",
]


@pytest.mark.parametrize("page", CONTROL_REFERENCES)
@pytest.mark.parametrize("method", ["svm", "paper"])
def test_control_character_references_do_not_raise(page, method):
    result = extract(page, config=Config(method=method))
    assert result.status in (Status.OK, Status.EMPTY)
    assert not any(ord(c) < 32 and c not in "\n\t" for c in result.text)


def test_parsed_tree_holds_no_control_characters():
    root = parse_html("<p>a&#1;b&#xfffe;c&#11;d</p>tail&#8;")
    for element in root.iter():
        for text in (element.text, element.tail):
            assert not text or not any(ord(c) < 9 or c in "\x0b\x0c\ufffe\uffff" for c in text)
        element.text = element.text  # lxml accepts every text back
