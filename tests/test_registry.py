"""webclean.registry: one frozen spec per method, looked up by name."""

from __future__ import annotations

import dataclasses

import pytest

from webclean import config
from webclean.config import Config, ConfigError
from webclean.features import FEATURE_SETS
from webclean.model import default_model, load_model
from webclean.passes import PASSES
from webclean.registry import METHODS, MethodSpec, classifier_spec, method, svm_methods
from webclean.training import train


def test_the_registry_holds_the_methods_the_configuration_accepts():
    assert list(METHODS) == list(config.METHODS)
    assert all(spec.name == name for name, spec in METHODS.items())
    assert svm_methods() == ("paper", "svm")


@pytest.mark.parametrize("name", ["paper", "svm"])
def test_an_svm_methods_spec_names_what_exists(name):
    spec = classifier_spec(name)
    assert spec.feature_set in FEATURE_SETS
    assert set(spec.passes) <= set(PASSES)
    assert default_model(name).feature_set == spec.feature_set


@pytest.mark.parametrize("name", list(METHODS))
def test_a_method_has_a_packaged_model_exactly_when_its_spec_names_a_format(name):
    spec = method(name)
    model = load_model(None, name)
    assert (model is None) == (spec.model is None)
    assert (spec.classifier is None) != (spec.pipeline is None)


def test_specs_are_frozen_and_unknown_names_are_configuration_errors():
    with pytest.raises(dataclasses.FrozenInstanceError):
        METHODS["svm"].model = None  # type: ignore[misc]
    with pytest.raises(ConfigError, match="one of"):
        method("readability")
    with pytest.raises(ConfigError, match="no classifier"):
        classifier_spec("blocks")
    with pytest.raises(ValueError, match="not both or neither"):
        MethodSpec("half", model=None)


def test_a_method_that_learns_nothing_cannot_be_trained():
    with pytest.raises(ConfigError, match="no model to train"):
        train([], Config(method="ladom"))
