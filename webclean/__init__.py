"""webclean: the main text of web pages, by the SVM method of Liang et al. (2018).

    >>> import webclean
    >>> result = webclean.extract(html_bytes, url)
    >>> result.status, result.title, result.text

The other names load on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

# Imported eagerly: the function shares its name with its module, and a lazy import
# would leave ``webclean.extract`` bound to the module once anything imported
# ``webclean.extract`` as a module (webclean.spark.extract_job does).
from webclean.extract import extract  # noqa: F401 - the public name

_EXPORTS = {
    "Config": "webclean.config",
    "ConfigError": "webclean.config",
    "load_config": "webclean.config",
    "Extraction": "webclean.result",
    "Status": "webclean.result",
    "Model": "webclean.model",
    "ModelError": "webclean.model",
    "load_model": "webclean.model",
}

__all__ = sorted([*_EXPORTS, "extract"])
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'webclean' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
