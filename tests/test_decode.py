"""webclean.decode: encoding choice, never raising, and sniffing payloads."""

from __future__ import annotations

import codecs
import gzip
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webclean import decode
from webclean.decode import Decoded, decode_html, normalize_charset, sniff

# 镕 (U+9555) is in GBK but not in GB2312: a page that says gb2312 and means GBK.
ZH_BODY = "国务院总理朱镕基今天在北京会见了来访的外国客人，双方就共同关心的问题交换了意见。"
EN_BODY = "The committee met on Tuesday and agreed the budget “without changes” — a first."


def zh_page(meta: str = "") -> str:
    return f"<html><head>{meta}<title>新闻</title></head><body><p>{ZH_BODY}</p></body></html>"


def meta_http_equiv(charset: str) -> str:
    return f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">'


@pytest.fixture
def no_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail if statistical detection runs: declarations and UTF-8 must settle these."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("charset detection ran")

    monkeypatch.setattr(decode.charset_normalizer, "from_bytes", refuse)


# --- declared charsets ---------------------------------------------------------------


def test_gbk_bytes_with_meta_gb2312_decode_as_gb18030(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gb2312"))
    result = decode_html(page.encode("gbk"))
    assert result == Decoded(page, "gb18030", True, "meta")


def test_meta_charset_attribute_form(no_detection: None) -> None:
    page = zh_page('<meta charset="GBK">')
    assert decode_html(page.encode("gbk")).text == page


def test_utf8_bytes_declaring_gb2312_decode_as_utf8(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gb2312"))
    result = decode_html(page.encode("utf-8"), "text/html; charset=gb2312")
    assert result == Decoded(page, "utf-8", True, "utf-8")


def test_mostly_ascii_utf8_declaring_gb2312_is_not_read_as_gb18030(no_detection: None) -> None:
    # GB18030 decodes most UTF-8 byte pairs too, so a few CJK characters in a long
    # page leave too few errors to reject the declaration: only the UTF-8 check saves it.
    page = f'<meta charset="gb2312"><p>{"The committee met on Tuesday. " * 100}</p><p>朱镕基</p>'
    assert decode_html(page.encode("utf-8")) == Decoded(page, "utf-8", True, "utf-8")


def test_declared_utf8_reports_its_source(no_detection: None) -> None:
    page = zh_page('<meta charset="utf-8">')
    assert decode_html(page.encode("utf-8")) == Decoded(page, "utf-8", True, "meta")


def test_header_wins_over_meta(no_detection: None) -> None:
    page = "<html><head><meta charset=gb2312></head><body><p>這是台灣的新聞報導。</p></body></html>"
    result = decode_html(page.encode("big5"), "text/html; charset=Big5")
    assert (result.text, result.encoding, result.source) == (page, "big5", "header")


@pytest.mark.parametrize("header", ["big5", "BIG5", "text/html; charset=big5", 'text/html;charset="big5"'])
def test_header_as_bare_charset_or_whole_content_type(header: str, no_detection: None) -> None:
    page = "<p>這是台灣的新聞報導。</p>"
    assert decode_html(page.encode("big5"), header).encoding == "big5"


def test_header_without_charset_is_no_declaration(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gbk"))
    assert decode_html(page.encode("gbk"), "text/html").source == "meta"


def test_bogus_header_falls_through_to_meta(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gb2312"))
    result = decode_html(page.encode("gbk"), "charset=no-such-charset")
    assert (result.text, result.source) == (page, "meta")


def test_bogus_meta_falls_through_to_detection() -> None:
    page = zh_page(meta_http_equiv("x-bogus")) * 3
    result = decode_html(page.encode("gb18030"))
    assert (result.text, result.encoding, result.source) == (page, "gb18030", "detected")
    assert not result.confident


def test_unsafe_label_is_ignored(no_detection: None) -> None:
    # UTF-7 would turn this into a <script> tag in a browser that honoured it.
    page = '<html><head><meta charset="utf-7"></head><body>+ADw-script+AD4-</body></html>'
    result = decode_html(page.encode("ascii"))
    assert (result.text, result.encoding) == (page, "utf-8")


def test_latin1_declared_decodes_as_windows_1252(no_detection: None) -> None:
    page = f'<html><head><meta charset="iso-8859-1"></head><body><p>{EN_BODY}</p></body></html>'
    result = decode_html(page.encode("cp1252"))
    assert (result.text, result.encoding) == (page, "windows-1252")


def test_ascii_page_reports_its_declaration(no_detection: None) -> None:
    page = '<html><head><meta charset="windows-1252"></head><body>plain</body></html>'
    assert decode_html(page.encode("ascii")) == Decoded(page, "windows-1252", True, "meta")


def test_xml_declaration_is_a_declaration(no_detection: None) -> None:
    page = f'<?xml version="1.0" encoding="gb2312"?><html><body><p>{ZH_BODY}</p></body></html>'
    assert decode_html(page.encode("gb18030")).text == page


def test_meta_declaring_utf16_means_utf8(no_detection: None) -> None:
    page = '<meta charset="utf-16"><p>café</p>'
    assert decode_html(page.encode("utf-8")).encoding == "utf-8"


def test_header_utf16_without_bom(no_detection: None) -> None:
    page = zh_page()
    result = decode_html(page.encode("utf-16-le"), "text/html; charset=utf-16le")
    assert (result.text, result.encoding) == (page, "utf-16le")


def test_header_utf16_is_ignored_for_bytes_without_nul(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gb2312"))
    result = decode_html(page.encode("gbk"), "text/html; charset=utf-16")
    assert (result.text, result.encoding, result.source) == (page, "gb18030", "meta")


def test_iso_2022_jp_is_not_taken_for_utf8(no_detection: None) -> None:
    # ISO-2022-JP is 7-bit, so always valid UTF-8; the declaration must still win.
    page = '<meta charset="iso-2022-jp"><p>日本語のページです。</p>'
    assert decode_html(page.encode("iso2022_jp")).text == page


def test_declared_charset_with_a_few_bad_bytes_is_kept_but_not_confident(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gbk")) * 20
    data = page.encode("gbk")
    broken = data[:500] + b"\xff" + data[500:]
    result = decode_html(broken)
    assert (result.encoding, result.confident, result.source) == ("gb18030", False, "meta")
    assert result.text.count("\ufffd") == 1
    assert ZH_BODY in result.text


# --- BOM, truncation, NUL ----------------------------------------------------------


def test_utf8_bom_wins_over_meta(no_detection: None) -> None:
    page = zh_page(meta_http_equiv("gb2312"))
    result = decode_html(codecs.BOM_UTF8 + page.encode("utf-8"))
    assert result == Decoded(page, "utf-8", True, "bom")


def test_utf16_bom_wins_over_header_and_meta(no_detection: None) -> None:
    page = zh_page('<meta charset="windows-1252">')
    result = decode_html(codecs.BOM_UTF16_LE + page.encode("utf-16-le"), "iso-8859-1")
    assert (result.text, result.encoding, result.source) == (page, "utf-16le", "bom")


def test_utf8_cut_mid_character_is_still_utf8(no_detection: None) -> None:
    data = zh_page().encode("utf-8")[:-len("</p></body></html>") - 1]  # ends inside "。"
    result = decode_html(data)
    assert (result.encoding, result.confident) == ("utf-8", True)
    assert "\ufffd" not in result.text and result.text.endswith("交换了意见")


def test_nul_bytes_are_removed(no_detection: None) -> None:
    result = decode_html(b"<p>a\x00b</p>")
    assert result.text == "<p>ab</p>"


def test_empty_bytes() -> None:
    assert decode_html(b"") == Decoded("", "utf-8", True, "empty")


# --- detection ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "codec", "expected"),
    [
        (zh_page() * 2, "gbk", "gb18030"),
        ("<p>這是一個繁體中文的測試頁面，我們需要足夠長的文字來檢測編碼。</p>" * 2, "big5", "big5"),
        ("<p>Это тестовая страница на русском языке, текста достаточно.</p>", "cp1251", "windows-1251"),
        (f"<p>Le café était très “bon”, à bientôt. Où êtes-vous allé? {EN_BODY}</p>", "cp1252", "windows-1252"),
    ],
)
def test_undeclared_legacy_encodings_are_detected(text: str, codec: str, expected: str) -> None:
    result = decode_html(text.encode(codec))
    assert (result.text, result.encoding, result.source, result.confident) == (text, expected, "detected", False)


def test_undeclared_utf8_needs_no_detection(no_detection: None) -> None:
    assert decode_html(zh_page().encode("utf-8")) == Decoded(zh_page(), "utf-8", True, "utf-8")


def test_only_valid_utf8_without_a_mark_is_handed_on_as_bytes(no_detection: None) -> None:
    data = zh_page().encode("utf-8")
    assert decode_html(data).utf8 is data
    assert decode_html(b"\xef\xbb\xbf" + data).utf8 is None  # the mark is no text
    assert decode_html(zh_page('<meta charset="GBK">').encode("gbk")).utf8 is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.one_of(st.none(), st.text(max_size=40)))
def test_any_bytes_decode_without_raising(data: bytes, header: str | None) -> None:
    result = decode_html(data, header)
    assert isinstance(result.text, str) and "\x00" not in result.text
    assert result.encoding in decode._PY_CODEC


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=500))
def test_any_text_round_trips_through_utf8(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return  # lone surrogates are not UTF-8 at all
    if data.startswith(codecs.BOM_UTF8):
        text = text[1:]
    assert decode_html(data).text == text.replace("\x00", "")


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("x-gbk", "gb18030"),
        ("gb_2312-80", "gb18030"),
        ("cp936", "gb18030"),
        (" 'GB18030' ", "gb18030"),
        ("ISO-8859-1", "windows-1252"),
        ("latin1", "windows-1252"),
        ("us-ascii", "windows-1252"),
        ("iso-8859-9", "windows-1254"),
        ("utf8", "utf-8"),
        ("shift_jis", "shift_jis"),
        ("ks_c_5601-1987", "euc-kr"),
        ("iso-8859-2", "iso-8859-2"),
        # Labels of the Encoding Standard that Python does not know.
        ("iso88591", "windows-1252"),
        ("koi8", "koi8-r"),
        ("csunicode", "utf-16le"),
        ("iso-8859-8-i", "iso-8859-8"),
        # Labels browsers knew before the Standard, and Python's names that pages use.
        ("windows-936", "gb18030"),
        ("euc_kr", "euc-kr"),
        ("shift_jis_2004", "shift_jis"),
        # The Standard's "replacement" labels and x-user-defined are not decoded.
        ("iso-2022-kr", None),
        ("hz-gb-2312", None),
        ("x-user-defined", None),
        ("utf-7", None),
        ("base64", None),
        ("unicode_escape", None),
        ("utf-32", None),
        ("bogus", None),
        ("", None),
        (None, None),
    ],
)
def test_normalize_charset(label: str | None, name: str | None) -> None:
    assert normalize_charset(label) == name


# --- sniff -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (zh_page().encode("utf-8"), "html"),
        (b"<!DOCTYPE html>\n<title>x</title>", "html"),
        (b" " * 5000 + b"<p>late start</p>", "html"),
        (codecs.BOM_UTF16_LE + "<html><body>x</body></html>".encode("utf-16-le"), "html"),
        (b"", "empty"),
        (b" \r\n\t " * 2000, "empty"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "pdf"),
        (b"\xef\xbb\xbf\r\n%PDF-1.4", "pdf"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image"),
        (b"GIF89a\x01\x00\x01\x00", "image"),
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "image"),
        (b"PK\x03\x04\x14\x00\x00\x00", "archive"),
        (gzip.compress(b"<html></html>"), "archive"),
        (bytes(range(256)) * 4, "binary"),
        (b"Plain text, where a < b and c > d.\n" * 10, "text"),
        ("純文字，沒有任何標籤。".encode(), "text"),
        # Text in legacy encodings reads as text; random bytes, whatever their length, do not.
        ("北京是中华人民共和国的首都，也是全国的政治中心。".encode("gbk"), "text"),
        ("Москва — столица России, крупнейший город страны.".encode("cp1251"), "text"),
        ("Der Bürgermeister sagte, die Brücke sei schön.".encode("cp1252"), "text"),
        *((random.Random(n).randbytes(n), "binary") for n in (50, 200, 1000, 5000, 65536)),
    ],
)
def test_sniff(data: bytes, kind: str) -> None:
    assert sniff(data) == kind


def test_sniff_tolerates_a_few_control_bytes() -> None:
    assert sniff(b"<html><body>" + b"\x01" * 3 + b"x" * 500 + b"</body></html>") == "html"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=5000))
def test_sniff_any_bytes(data: bytes) -> None:
    assert sniff(data) in {"html", "text", "empty", "pdf", "image", "archive", "binary"}


@pytest.mark.parametrize(
    "data",
    ["<p>中文 café</p>".encode(), "<p>中文</p>".encode() + b"\xe4\xb8", b"<p>a\x00b</p>", "<meta charset=gbk><p>中文</p>".encode()],
)
def test_a_utf8_page_is_decoded_when_its_text_is_asked_for(data: bytes) -> None:
    # The parser reads the bytes; the text of a valid UTF-8 page is made the first time it is read.
    result = decode_html(data)
    assert result.utf8 == data and result.encoding == "utf-8"
    expected = data.decode("utf-8", "ignore").replace("\x00", "")
    assert result.text == expected
    assert result == Decoded(expected, "utf-8", True, result.source) and hash(result) == hash(Decoded(expected, "utf-8", True, result.source))
    with pytest.raises(ValueError):
        Decoded(None, "utf-8", True, "utf-8")
