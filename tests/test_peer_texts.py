"""scripts/peer_texts.py: other extractors' texts added to pages, for weak labels."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import pytest

from webclean.config import Config
from webclean.datasets import read_pages
from webclean.training import label_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_WARC = ROOT / "samples" / "sample.warc.gz"


@pytest.fixture(scope="module")
def peer_texts():
    spec = importlib.util.spec_from_file_location("peer_texts", ROOT / "scripts" / "peer_texts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_peers(peer_texts, monkeypatch):
    """Three peers that keep the page's <p> texts (one of them fails on every page)."""
    from lxml import html as lxml_html

    def paragraphs(page):
        return "\n".join(p.text_content() for p in lxml_html.fromstring(page.html).iter("p"))

    def failing(page):
        raise RuntimeError("broken peer")

    builders = {"p1": lambda: paragraphs, "p2": lambda: paragraphs, "p3": lambda: failing}
    monkeypatch.setattr(peer_texts, "BUILDERS", {**peer_texts.BUILDERS, **builders})
    monkeypatch.setattr(peer_texts, "PEERS", (*peer_texts.PEERS, *builders))
    monkeypatch.setattr(peer_texts, "available", lambda names: list(names))
    return builders


PAGE = (
    "<html><body><div id='nav'><a href='/a'>Home</a><a href='/b'>Sport</a></div><div>"
    + "".join(f"<p>Paragraph {i} of the story tells what the council decided about the bridge.</p>" for i in range(6))
    + "<p>Copyright 2026 The Paper</p></div></body></html>"
)


def test_json_pages_get_every_peers_text(peer_texts, fake_peers, tmp_path):
    source = tmp_path / "pages.jsonl"
    source.write_text(json.dumps({"id": "x", "html": PAGE, "text": "", "lang": "en"}) + "\n", encoding="utf-8")
    out = tmp_path / "weak.jsonl.gz"
    assert peer_texts.main(["--input", str(source), "--output", str(out), "--extractors", "p1,p2,p3", "--jobs", "1"]) == 0
    row = json.loads(gzip.open(out, "rt", encoding="utf-8").readline())
    assert row["id"] == "x" and row["lang"] == "en"  # the page's fields are kept
    assert set(row["peers"]) == {"p1", "p2", "p3"}
    assert "Paragraph 0 of the story" in row["peers"]["p1"]
    assert row["peers"]["p3"] == ""  # a failure is an empty text, not a lost page
    # What training makes of it: a weak page, its paragraphs content by two votes of three.
    (page,) = read_pages([out])
    assert page.gold_type == "weak"
    labels = label_page(page, Config().with_overrides(["weak.content_votes=2"])).units
    assert {u.label for u in labels if u.unit.text.startswith("Paragraph")} == {1}


def test_warc_responses_become_pages(peer_texts, fake_peers, tmp_path):
    out = tmp_path / "weak.jsonl"
    argv = ["--input", str(SAMPLE_WARC), "--output", str(out), "--extractors", "p1", "--jobs", "1", "--limit", "3"]
    assert peer_texts.main(argv) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 3
    assert all(row["url"].startswith("http") and "<" in row["html"] and "p1" in row["peers"] for row in rows)
    assert len({row["id"] for row in rows}) == 3


def test_an_unknown_extractor_is_an_error(peer_texts, tmp_path):
    with pytest.raises(SystemExit):
        peer_texts.main(["--input", "x.jsonl", "--output", str(tmp_path / "o.jsonl"), "--extractors", "nonesuch"])


def test_pages_go_through_a_batch_at_a_time_in_order(peer_texts, fake_peers, tmp_path, monkeypatch):
    source = tmp_path / "pages.jsonl"
    rows = [{"id": f"page{i}", "html": PAGE.replace("council", f"council {i}"), "lang": "en"} for i in range(5)]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    sizes = []
    with_peers = peer_texts.with_peers

    def recording(batch, names, pool):
        sizes.append(len(batch))
        return with_peers(batch, names, pool)

    monkeypatch.setattr(peer_texts, "with_peers", recording)
    out = tmp_path / "weak.jsonl"
    argv = ["--input", str(source), "--output", str(out), "--extractors", "p1", "--jobs", "1", "--batch", "2"]
    assert peer_texts.main(argv) == 0
    assert sizes == [2, 2, 1]
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in written] == [f"page{i}" for i in range(5)]
    assert all(f"council {i}" in row["peers"]["p1"] for i, row in enumerate(written))
