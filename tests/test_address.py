"""webclean.address: the address of a page read from an HTML file."""

from __future__ import annotations

import pytest

from webclean.address import canonical_link, file_uri, page_address


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'<link rel="canonical" href="https://example.test/a">', "https://example.test/a"),
        (b"<LINK REL=Canonical HREF=http://example.test/b?x=1&amp;y=2>", "http://example.test/b?x=1&y=2"),
        (b"<link rel='alternate canonical' href='https://example.test/c' />", "https://example.test/c"),
        (b'<link rel="stylesheet" href="https://example.test/s.css"><link rel=canonical href="/d">', None),
        (b'<link rel="alternate" href="https://example.test/e">', None),
        (b"<p>" + b"x" * (70 << 10) + b'<link rel="canonical" href="https://example.test/late">', None),
    ],
)
def test_canonical_link(head, expected):
    assert canonical_link(head) == expected


def test_file_uri_quotes_a_local_path_and_keeps_a_remote_one():
    assert file_uri("/crawl/site/index.php?id=3") == "file:///crawl/site/index.php%3Fid%3D3"
    assert file_uri("/crawl/a b.html") == "file:///crawl/a%20b.html"
    assert file_uri("s3a://bucket/site/a.html") == "s3a://bucket/site/a.html"


def test_page_address_is_the_canonical_link_else_the_file_else_none():
    canonical = b'<head><link rel="canonical" href="https://example.test/a"></head>'
    assert page_address(canonical, "/crawl/a.html") == "https://example.test/a"
    assert page_address(b"<p>x</p>", "/crawl/a.html") == "file:///crawl/a.html"
    assert page_address(canonical, None) == "https://example.test/a"
    assert page_address(b"<p>x</p>", None) is None
