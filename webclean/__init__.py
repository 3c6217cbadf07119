"""webclean: the main text of web pages, by the SVM method of Liang et al. (2018).

    >>> import webclean
    >>> result = webclean.extract(html_bytes, url)
    >>> result.status, result.title, result.text

The names below load on first use, so ``import webclean`` stays cheap in a Spark
driver that only plans the job.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Config": "webclean.config",
    "ConfigError": "webclean.config",
    "load_config": "webclean.config",
    "Extraction": "webclean.result",
    "Status": "webclean.result",
    "extract": "webclean.extract",
    "Model": "webclean.model",
    "ModelError": "webclean.model",
    "load_model": "webclean.model",
}

__all__ = sorted(_EXPORTS)
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
