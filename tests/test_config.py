import json

import pytest

from webclean.config import (
    Config,
    ConfigError,
    InputConfig,
    LanguageConfig,
    LinesConfig,
    PageTypeConfig,
    RegionConfig,
    ThreadsConfig,
    load_config,
)
from webclean.model import MODELS_DIR


def test_defaults_are_the_papers():
    config = Config()
    assert (config.locate.theta, config.lexicon.alpha, config.denoise.beta) == (0.3, 0.8, 40)


def test_conf_file_matches_the_defaults():
    assert load_config("conf/webclean.toml") == Config()


def test_overrides_parse_values_as_toml():
    config = load_config(None, ["locate.theta=0.5", "denoise.beta=60", "method=svm", 'locate.block_tags=["div","td"]'])
    assert config.locate.theta == 0.5
    assert config.denoise.beta == 60
    assert config.method == "svm"
    assert config.locate.block_tags == ("div", "td")


@pytest.mark.parametrize(
    "override, message",
    [
        ("locate.thetta=0.5", "unknown"),
        ("nosuch.theta=0.5", "unknown"),
        ("locate.theta=1.5", "out of range"),
        ("denoise.beta=0", "out of range"),
        ("denoise.beta=4.5", "must be a int"),
        ("method=magic", "method must be"),
        ("locate.theta=abc", "must be a float"),
        ("theta", "section.key=value"),
        ("classifier.trees=-1", "out of range"),
        ("classifier.tree_rate=0", "out of range"),
        ("improved.shown_by_script_share=1.5", "out of range"),
        ("region.alike_share=2", "out of range"),
        ("region.beside_chars=-1", "out of range"),
        ("threads.records=1", "out of range"),
        ("threads.record_depth=0", "out of range"),
        ("lines.window=0", "out of range"),
        ("lines.prose_link_ratio=1.2", "out of range"),
        ("lines.long_line=99.5", "must be a int"),
        ("parse.noscript_gain=-1", "out of range"),
        ("lexicon.line_key_tokens=0", "out of range"),
        ("gold.content_share=1.1", "out of range"),
        ("gold.noise_share=0.95", "below gold.content_share"),
        ("weak.match_chars=-1", "out of range"),
        ("metadata.scan_chars=-5", "out of range"),
        ("language.prefix_chars=0", "out of range"),
        ("lines.nosuch=1", "unknown"),
    ],
)
def test_bad_overrides_are_errors(override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, [override])


def test_unknown_key_in_file_is_an_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[denoise]\nbeta = 40\ngamma = 1\n")
    with pytest.raises(ConfigError, match="denoise.gamma"):
        load_config(path)


def test_round_trip_through_dict():
    config = load_config(None, ["classifier.folds=5", "limits.max_depth=100"])
    assert Config.from_dict(config.to_dict()) == config


def test_every_threshold_is_in_the_conf_file_with_a_comment():
    # conf/webclean.toml documents each key of the sections that hold the method's thresholds.
    text = open("conf/webclean.toml", encoding="utf-8").read()
    for section in ("region", "threads", "lines", "parse", "gold", "metadata", "language", "page_type", "confidence", "input"):
        body = text.split(f"\n[{section}]", 1)[1].split("\n[", 1)[0]
        for key in Config().to_dict()[section]:
            line = next((line for line in body.splitlines() if line.startswith(f"{key} ")), None)
            assert line is not None and "#" in line, f"{section}.{key}"


@pytest.mark.parametrize("method", ["svm", "paper"])
def test_a_saved_config_without_the_newer_keys_loads_with_their_defaults(method):
    # A model saved before [region], [threads], [lines], [language], [page_type], [confidence] and
    # [input] existed (the packaged paper model is one).
    saved = json.loads((MODELS_DIR / method / "model.json").read_text(encoding="utf-8"))["config"]
    for section in ("region", "threads", "lines", "language", "page_type", "confidence", "input"):
        saved.pop(section, None)
    saved["lexicon"].pop("line_key_tokens", None)
    saved["improved"].pop("shown_by_script_share", None)
    saved["weak"].pop("match_chars", None)
    saved["gold"] = {}
    config = Config.from_dict(saved)
    assert (config.region, config.threads, config.lines, config.language) == (RegionConfig(), ThreadsConfig(), LinesConfig(), LanguageConfig())
    assert config.page_type == PageTypeConfig() and config.input == InputConfig()
    assert config.lexicon.line_key_tokens == 24 and config.improved.shown_by_script_share == 0.1
    assert config.weak.match_chars == 15 and config.gold.content_share == 0.9
