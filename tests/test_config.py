import pytest

from webclean.config import Config, ConfigError, load_config


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
