"""Step 4 and the smoothing passes of method svm (webclean.denoise)."""

import numpy as np
import pytest

from webclean.denoise import denoise, link_runs, smooth, tail_lines
from webclean.features import FEATURE_WIDTHS, Unit


def _unit(text: str, kind: str = "p") -> Unit:
    return Unit(tag="line", text=text, link_ratio=1.0 if kind == "link" else 0.0, position=0.0, kind=kind)


LONG = "A long paragraph of the article that is well over forty characters long."


def test_link_runs_drop_runs_of_all_link_lines_only():
    units = [_unit(LONG), _unit("Home", "link"), _unit("News", "link"), _unit(LONG), _unit("Lone link", "link")]
    kept = [u.text for u in units]
    out = smooth(units, kept, 40, ("link_runs",), link_run=2)
    assert out == [LONG, None, None, LONG, "Lone link"]


def test_no_pass_changes_nothing():
    units = [_unit("Home", "link"), _unit("News", "link")]
    assert smooth(units, ["Home", "News"], 40, ()) == ["Home", "News"]


def test_an_unknown_pass_is_an_error():
    import pytest

    with pytest.raises(ValueError, match="unknown smoothing"):
        smooth([_unit(LONG)], [LONG], 40, ("bridge",))


def test_link_runs_take_the_short_lines_around_a_run_with_beta():
    units = [
        _unit(LONG),
        _unit("Related"),
        _unit("One", "link"),
        _unit("Two", "link"),
        _unit("More"),
        _unit(LONG),
        _unit("Label"),
        _unit("Lone link", "link"),
    ]
    assert link_runs(units) == [False, False, True, True, False, False, False, False]
    # The heading before a run and the label after it go with it; long lines and the
    # lines around a single link stay.
    assert link_runs(units, beta=40) == [False, True, True, True, True, False, False, False]
    assert link_runs(units, beta=2) == [False, False, True, True, False, False, False, False]


def test_a_long_all_link_line_is_no_part_of_a_run():
    figure = "Figure 2 shows the platform's flow: the courier uploads the parcel's data when it is handed over, " * 2
    units = [_unit("Home", "link"), _unit(figure, "link"), _unit("World", "link"), _unit("Sport", "link")]
    assert link_runs(units) == [False, False, True, True]


def test_link_runs_leave_the_headline_after_a_menu():
    units = [_unit("Home", "link"), _unit("World", "link"), _unit("Storm hits the coast", "heading"), _unit(LONG)]
    assert link_runs(units, beta=40) == [True, True, True, False]
    assert link_runs(units, beta=40, title="Storm hits the coast | The Daily") == [True, True, False, False]


def test_method_svm_smooths_link_runs_and_paper_does_not():
    from webclean.registry import classifier_spec

    assert classifier_spec("paper").smoothing == ()
    assert classifier_spec("svm").smoothing == (
        "link_runs", "credits", "see_also", "notices", "empty_headings", "empty_labels", "tail_lines",
    )  # fmt: skip


def test_credits_drop_short_lines_that_name_a_source_or_an_editor():
    body = "本报讯 记者从市环保局获悉，今年以来全市空气质量优良天数比例同比提高了五个百分点。"
    lines = [body, "（责任编辑：张三）", "来源：新华社", "來源： 中央社", "编辑:李四 校对:王五"]
    units = [_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("credits",)) == [body, None, None, None, None]
    # A label in a longer line is prose that quotes one, or a paragraph that ends with it.
    quoting = "据报道，来源：当地政府的一份通报称，今年以来全市空气质量优良天数比例同比提高了五个百分点。"
    assert smooth([_unit(quoting)], [quoting], 40, ("credits",)) == [quoting]
    # Without a label, or without the colon, a short line is the classifier's.
    assert smooth([_unit("新华社"), _unit("编辑推荐")], ["新华社", "编辑推荐"], 40, ("credits",)) == ["新华社", "编辑推荐"]


def test_units_the_link_runs_pass_drops_are_not_classified():
    from webclean import denoise as module

    units = [_unit("Home", "link"), _unit("News", "link"), _unit(LONG)]
    classified: list[str] = []

    def row(unit, text, lexicon):
        classified.append(text)
        return [0.0]

    class Everything:
        def predict(self, X):
            return np.ones(len(X), dtype=np.int64)

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(module.FEATURE_SETS, "counting", row)
        decisions = module.denoise(units, None, Everything(), 40, "counting", ("link_runs",))
    assert decisions == [("", "link run", None), ("", "link run", None), (LONG, "kept", None)]
    assert "Home" not in classified and "News" not in classified


def test_credits_drop_a_pictures_credit_up_to_a_caption_long():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    caption = "Marco Odermatt, the Swiss skier, at the start in Wengen. © AFP / Marco Bertorello"
    lines = [prose, caption, "Foto: dpa", "(crédito: Minervino Júnior/CB/D.A.Press)", "Image: a cat on a roof"]
    units = [_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("credits",)) == [prose, None, None, None, None]
    # A label in a long paragraph, or a word without its colon, is the classifier's.
    long_line = prose + "Photo: the bridge as it will look."
    kept = ["The photo shows the bridge.", long_line]
    assert smooth([_unit(text) for text in kept], list(kept), 40, ("credits",)) == kept


def test_see_also_drops_a_line_that_opens_with_a_read_also_label():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    lines = [
        prose,
        "Lesen Sie auch: Diese 3 Sternzeichen verschenken ihr Herz an den Falschen",
        "VEA TAMBIÉN: Estrella de la educación no brilla para estudiantes",
        "Czytaj też: Wyścig zbrojeń ruszył z kopyta",
        "延伸阅读：57岁小学肄业 广西骗子演绎惊天骗局",
    ]
    units = [_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("see_also",)) == [prose, None, None, None, None]
    # The label must open the line and be followed by its delimiter.
    kept = ["We read also the minutes of the last meeting: nothing new.", "See also the table below", "Related"]
    assert smooth([_unit(text) for text in kept], list(kept), 40, ("see_also",)) == kept


def test_notices_drop_the_sites_calls_to_its_reader():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    lines = [
        prose,
        "Sign up for our newsletter to get the latest stories in your inbox.",
        "Please understand that comments are moderated and it is not always possible to publish all.",
        "Folgen Sie uns auf Twitter",
        "Copyright 2023 Example Television Corp. All rights reserved.",
        "Suscríbete a nuestro boletín",
    ]
    units = [_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("notices",)) == [prose, None, None, None, None, None]
    # News prose about subscribers or newsletters is the story's; so is a long paragraph.
    kept = [
        "The streaming service added 2.4 million subscribers in the quarter, more than expected.",
        "Its subscription price rises to $12 in March.",
        prose + "Readers can sign up at the library.",
    ]
    assert smooth([_unit(text) for text in kept], list(kept), 40, ("notices",)) == kept


def test_empty_headings_drop_a_heading_over_nothing_kept_after_the_text():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 2
    units = [
        _unit("The bridge", "heading"),
        _unit(prose),
        _unit("What comes next", "heading"),
        _unit("Work starts in May."),
        _unit("Related stories", "heading"),
        _unit("Another story about another bridge", "link"),
        _unit("Newsletter", "heading"),
    ]
    kept = [u.text for u in units]
    kept[5] = None  # the related story, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_headings",))
    # A heading over a kept short paragraph stays; those over nothing kept go.
    assert out == ["The bridge", prose, "What comes next", "Work starts in May.", None, None, None]
    # Without a long paragraph kept, nothing is a tail.
    short = [_unit("A heading", "heading"), _unit("Short text.")]
    assert smooth(short, ["A heading", None], 40, ("empty_headings",)) == ["A heading", None]


def test_empty_headings_inside_the_text_need_dropped_lines_under_them():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 2
    units = [
        _unit("Bridge vote", "heading"),
        _unit("A deck under the headline", "heading"),
        _unit(prose),
        _unit("You may also like", "heading"),
        _unit("Subscribe to our newsletter"),
        _unit("What the council said", "heading"),
        _unit("Costs", "heading"),
        _unit(prose),
    ]
    kept = [u.text for u in units]
    kept[4] = None  # the teaser box's line, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_headings",))
    # Between the long paragraphs: the heading over a dropped line goes; a heading
    # directly over another heading stays, as do the headline and its deck before
    # the first long paragraph.
    assert out == ["Bridge vote", "A deck under the headline", prose, None, None, "What the council said", "Costs", prose]


def test_empty_labels_drop_a_label_whose_line_is_dropped():
    units = [
        _unit(LONG),
        _unit("Tags:"),
        _unit("bridges", "link"),
        _unit("The council listed three reasons:"),
        _unit("It is cheaper than a tunnel."),
        _unit("Last modified:"),
    ]
    kept = [u.text for u in units]
    kept[2] = None  # the tag, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_labels",))
    # A label over a kept line stays, one over a dropped line or over the end goes;
    # a line that merely contains a colon is not a label.
    assert out == [LONG, None, None, "The council listed three reasons:", "It is cheaper than a tunnel.", None]
    long_label = "Everything the council decided on Monday about the bridge:"
    assert smooth([_unit(long_label)], [long_label], 40, ("empty_labels",)) == [long_label]
    assert smooth([_unit("来源："), _unit(LONG)], ["来源：", None], 40, ("empty_labels",)) == [None, None]


class _ValuesByText:
    """A classifier whose decision for a unit is set by its text (through a 1-wide row)."""

    def __init__(self, values: dict[str, float]) -> None:
        self.texts = list(values)
        self.values = values

    def row(self, unit, text, lexicon):
        return [float(self.texts.index(unit.text))]

    def decision_function(self, X):
        return np.array([self.values[self.texts[int(x[0])]] for x in X])

    def predict(self, X):
        return (self.decision_function(X) > 0).astype(np.int64)


PARAGRAPH = LONG + " It goes on for a second sentence, as a paragraph of the text does."


def test_tail_lines_drop_what_the_classifier_is_unsure_of_after_the_texts_last_paragraph():
    from webclean import denoise as module

    lines = {
        "Short line before the text": 0.4,
        PARAGRAPH: 2.0,
        "A bio of the author": 0.6,
        "Share this story": 0.2,
        "The last word, sure": 1.5,
        "本文作者是本报记者": 0.3,
    }
    scripted = _ValuesByText(lines)
    units = [_unit(text) for text in lines]
    kept = list(lines)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(module.FEATURE_SETS, "scripted", scripted.row)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        unsure = tail_lines(units, kept, None, scripted, "scripted")
        # Before the last long paragraph nothing changes; after it, a line needs 1 or
        # more, and a line in CJK ideographs is left to the decision at 0.
        assert unsure == [False, False, True, True, False, False]
        assert [d.text for d in denoise(units, None, scripted, 40, "scripted", ("tail_lines",))] == [
            "Short line before the text", PARAGRAPH, "", "", "The last word, sure", "本文作者是本报记者",
        ]  # fmt: skip
        # A thread's posts keep their lines; a page without a long paragraph has no tail.
        post = units[2]._replace(post=1)
        assert tail_lines([units[1], post], [PARAGRAPH, post.text], None, scripted, "scripted") == [False, False]
        assert tail_lines(units[2:4], kept[2:4], None, scripted, "scripted") == [False, False]


def test_denoise_says_what_became_of_each_unit_and_why():
    from webclean import denoise as module

    values = {"Home": 0.3, "News": 0.3, PARAGRAPH: 2.0, "来源：新华社": 0.5, "（责任编辑：张三）": -0.5, "A reply in the thread": -1.0}
    scripted = _ValuesByText(values)
    units = [_unit("Home", "link"), _unit("News", "link"), *map(_unit, list(values)[2:5]), _unit("A reply in the thread")._replace(post=1)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(module.FEATURE_SETS, "scripted", scripted.row)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, 40, "scripted", ("link_runs", "credits"), values=True)
        without_values = denoise(units, None, scripted, 40, "scripted", ("link_runs", "credits"))
    # A link run is not classified; a credit line the classifier keeps is the pass's to
    # drop, one it drops is its own; a post's text is kept whatever the classifier says.
    assert decisions == [
        ("", module.LINK_RUN, None),
        ("", module.LINK_RUN, None),
        (PARAGRAPH, module.KEPT, 2.0),
        ("", module.CREDIT, 0.5),
        ("", module.DROPPED, -0.5),
        ("A reply in the thread", module.POST, -1.0),
    ]
    assert without_values == [(text, outcome, None) for text, outcome, _ in decisions]
