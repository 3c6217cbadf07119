"""webclean.language: the detected language of the main text, and the declared one kept beside it."""

from __future__ import annotations

import pytest

from webclean.config import LanguageConfig
from webclean.extract import extract
from webclean.language import detect_language, page_language

MIN_CHARS, PREFIX_CHARS = LanguageConfig().min_chars, LanguageConfig().prefix_chars

TEXTS = {
    "en": (
        "The night bus along the river route returns on Monday after a year without service, the transport "
        "board said on Friday. Buses will leave the central station every twenty minutes between midnight and "
        "five in the morning, and shift workers at the hospital, who had asked for the route since it was cut "
        "last spring, welcomed the news."
    ),
    "de": (
        "Der Nachtbus entlang der Flussroute fährt ab Montag wieder, nachdem er ein Jahr lang eingestellt war, "
        "teilte die Verkehrsbehörde am Freitag mit. Die Busse fahren zwischen Mitternacht und fünf Uhr morgens "
        "alle zwanzig Minuten vom Hauptbahnhof ab, und die Schichtarbeiter des Krankenhauses, die seit dem "
        "vergangenen Frühjahr darum gebeten hatten, freuen sich über die Nachricht."
    ),
    "fr": (
        "Le bus de nuit qui longe la rivière reprendra lundi après une année sans service, a annoncé vendredi "
        "la régie des transports. Les bus partiront de la gare centrale toutes les vingt minutes entre minuit "
        "et cinq heures du matin, et les soignants de l'hôpital, qui réclamaient le retour de la ligne depuis "
        "le printemps dernier, se réjouissent de la nouvelle."
    ),
    "es": (
        "El autobús nocturno que recorre la ruta del río vuelve el lunes después de un año sin servicio, según "
        "informó el viernes la junta de transporte. Los autobuses saldrán de la estación central cada veinte "
        "minutos entre la medianoche y las cinco de la mañana, y los trabajadores del hospital, que pedían la "
        "ruta desde la primavera pasada, celebraron la noticia."
    ),
    "zh": (
        "交通管理局周五表示，沿河线路的夜间公交车在停运一年后将于周一恢复运营。公交车将在午夜至凌晨五点之间每二十分钟从中央车站发出一班。"
        "医院的轮班工作人员自去年春天线路被取消以来一直要求恢复这条线路，他们对这一消息表示欢迎。"
        "交通管理局还表示，如果乘客人数足够多，明年夏天可能会增加更多的夜间线路，覆盖城市东部和北部的新住宅区。"
        "市民可以通过官方网站和手机应用查询实时到站信息，票价与白天的公交车相同，月票和老年卡同样有效。"
    ),
    "ru": (
        "Ночной автобус по маршруту вдоль реки вернётся в понедельник после года перерыва, сообщило в пятницу "
        "транспортное управление. Автобусы будут отправляться с центрального вокзала каждые двадцать минут с "
        "полуночи до пяти утра, и работники больницы, которые просили вернуть маршрут с прошлой весны, "
        "обрадовались этой новости."
    ),
}


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_hand_written_texts_are_detected(lang):
    assert len(TEXTS[lang]) >= MIN_CHARS
    assert detect_language(TEXTS[lang]) == lang


def test_a_short_text_keeps_the_declared_language():
    short = "Buses leave every twenty minutes."
    assert detect_language(short) is None
    assert page_language(short, "de") == "de"
    assert page_language(short, None) is None
    assert page_language(TEXTS["fr"], "en") == "fr"


def test_only_the_start_of_a_long_text_is_read():
    german_start = (TEXTS["de"] + " ") * (PREFIX_CHARS // len(TEXTS["de"]) + 1)
    assert detect_language(german_start + TEXTS["en"] * 200) == "de"


def _page(lang_attribute: str, text: str) -> bytes:
    paragraphs = "".join(f"<p>{sentence}.</p>" for sentence in text.split(". ") if sentence)
    html = f"<html{lang_attribute}><head><meta charset='utf-8'><title>Night buses</title></head><body>"
    html += (
        f"<div class='nav'><a href='/'>Home</a> <a href='/n'>News</a></div><div class='article'>{paragraphs}</div></body></html>"
    )
    return html.encode("utf-8")


@pytest.mark.parametrize("method", ["svm", "paper", "blocks"])
def test_extract_detects_the_text_and_keeps_the_declaration(method):
    from webclean.config import Config

    config = Config(method=method)
    # A page that declares English but is written in German.
    result = extract(_page(" lang='en-GB'", TEXTS["de"]), config=config)
    assert result.ok and (result.lang, result.lang_declared) == ("de", "en")
    undeclared = extract(_page("", TEXTS["zh"]), config=config)
    assert (undeclared.lang, undeclared.lang_declared) == ("zh", None)
    short = extract(_page(" lang='es'", "Sale cada veinte minutos. Vuelve el lunes"), config=config)
    assert (short.lang, short.lang_declared) == ("es", "es")
    assert extract(b"", config=config).lang is None


def test_codes_are_iso_639_1_primary_subtags():
    traditional = "交通管理局週五表示，沿河線路的夜間公車在停運一年後將於週一恢復營運。公車將在午夜至凌晨五點之間每二十分鐘從中央車站發出一班。" * 4
    hebrew = "האוטובוס הלילי לאורך מסלול הנהר יחזור לפעול ביום שני אחרי שנה ללא שירות, כך הודיעה רשות התחבורה ביום שישי. " * 3
    assert detect_language(traditional) == "zh"  # CLD2 says "zh-Hant"
    assert detect_language(hebrew) == "he"  # CLD2 says "iw"


def test_control_characters_and_texts_without_words_are_no_error():
    assert detect_language(TEXTS["en"].replace(" ", " \x00\x85", 10)) == "en"
    assert detect_language("1234 5678 90 — 12:30 / 45.67 % " * 10) is None


def test_a_text_that_opens_with_a_markup_sign_is_read_as_text():
    assert detect_language("<" + TEXTS["zh"]) == "zh"
    assert detect_language("a < b and <c> " + TEXTS["en"]) == "en"


def test_how_much_text_the_detector_reads_is_a_setting():
    text = TEXTS["fr"][:150]
    assert page_language(text, "en") == "en"  # under language.min_chars (200)
    assert page_language(text, "en", LanguageConfig(min_chars=100)) == "fr"
    # language.prefix_chars: only the start is read, here the German one.
    german_then_english = TEXTS["de"] + " " + TEXTS["en"] * 20
    assert detect_language(german_then_english, LanguageConfig(prefix_chars=len(TEXTS["de"]))) == "de"
    assert detect_language(german_then_english, LanguageConfig(prefix_chars=10_000)) == "en"
