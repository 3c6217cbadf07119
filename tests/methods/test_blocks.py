"""webclean.methods.blocks: DOM block scoring (after a master's thesis, chapter 3)."""

from __future__ import annotations

import subprocess
import sys

from pages import EN_PAGE, EN_PARAGRAPHS, ZH_PAGE, ZH_PARAGRAPHS

from webclean.config import Config
from webclean.extract import extract
from webclean.methods.blocks import THRESHOLD_C, block_score, blocks_text, collect_blocks
from webclean.parse import parse_html


def _body(html: str):
    return parse_html(html).find("body")


def test_score_falls_with_text_and_sentence_ends_and_rises_with_links():
    assert block_score(0, 200, 5) < block_score(0, 200, 0) < block_score(0, 20, 0)
    assert block_score(0, 200, 5) < block_score(10, 200, 5)
    assert block_score(3, 0, 0) == float("inf")


def test_sibling_paragraphs_merge_into_one_block():
    blocks = collect_blocks(_body("<html><body><div><p>One. Two.</p><p>Three.</p></div><div><a href='/'>x</a></div></body></html>"))
    assert [b.texts for b in blocks] == [("One. Two.", "Three."), ("x",)]
    assert (blocks[0].links, blocks[0].sentence_ends, blocks[1].links) == (0, 3, 1)


def test_bare_text_beside_child_blocks_is_a_block_too():
    body = _body("<html><body><div>first line<br>second line<div><p>inner.</p></div>after</div></body></html>")
    assert [b.texts for b in collect_blocks(body)] == [("first line second line",), ("inner.",), ("after",)]


def test_blocks_with_noise_phrases_are_deleted():
    body = _body("<html><body><div><p>Real text here.</p></div><div><p>Copyright 2024 Gazette</p></div><div>版权所有 新闻中心</div></body></html>")
    texts = [t for b in collect_blocks(body) for t in b.texts]
    assert texts == ["Real text here."]


def test_a_long_paragraph_mentioning_a_noise_word_is_kept():
    long = "他多年来一直喜欢收藏古代钱币，" * 20 + "这是他的爱好。"
    texts = blocks_text(_body(f"<html><body><div><p>{long}</p></div></body></html>"))
    assert texts == [long]


def test_chinese_page_keeps_the_article_and_drops_menus_related_links_and_footer():
    texts = blocks_text(_body(ZH_PAGE))
    assert texts == ZH_PARAGRAPHS


def test_english_page():
    texts = blocks_text(_body(EN_PAGE))
    assert texts == EN_PARAGRAPHS


def test_threshold_is_a_cut_in_document_order():
    body = _body(ZH_PAGE)
    everything = blocks_text(body, threshold=float("inf"))
    assert everything[0].startswith("首页")  # the menu comes first when nothing is cut
    kept = blocks_text(body, threshold=THRESHOLD_C)
    assert kept == [t for t in everything if t in kept]


def test_extract_with_method_blocks():
    result = extract(ZH_PAGE.encode("utf-8"), config=Config(method="blocks"))
    assert result.ok and result.method == "blocks"
    assert result.text == "\n".join(ZH_PARAGRAPHS)
    assert result.block_path is None


def test_deep_pages_do_not_recurse():
    html = "<html><body>" + "<div>" * 3000 + "<p>Deep text.</p>" + "</div>" * 3000 + "</body></html>"
    result = extract(html, config=Config(method="blocks").with_overrides({"limits.max_depth": 3000}))
    assert result.status in ("ok", "empty")


def test_cli_extract_method_blocks(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(ZH_PAGE.encode("utf-8"))
    done = subprocess.run(
        [sys.executable, "-m", "webclean.cli", "extract", "--method", "blocks", str(page)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\n".join(ZH_PARAGRAPHS) + "\n"
