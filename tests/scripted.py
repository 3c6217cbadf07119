"""Units and a scripted classifier for the tests of Step 4 and the passes after it."""

import numpy as np

from webclean.text import text_length
from webclean.units import Unit


def line_unit(text: str, kind: str = "p") -> Unit:
    return Unit(tag="line", text=text, length=text_length(text), link_ratio=1.0 if kind == "link" else 0.0, position=0.0, kind=kind)


LONG = "A long paragraph of the article that is well over forty characters long."
PARAGRAPH = LONG + " It goes on for a second sentence, as a paragraph of the text does."


class ValuesByText:
    """A classifier whose decision for a unit is set by its text (through a 1-wide row),
    and the feature set that makes those rows (:data:`webclean.features.FEATURE_SETS`)."""

    def __init__(self, values: dict[str, float]) -> None:
        self.texts = list(values)
        self.values = values

    def rows(self, units, texts, lexicon):
        return np.array([[float(self.texts.index(unit.text))] for unit in units]).reshape(len(units), 1)

    def decision_function(self, X):
        return np.array([self.values[self.texts[int(x[0])]] for x in X])
