"""charrestore: restore spaces, punctuation and capitalization to unformatted text.

The runtime needs only numpy, onnxruntime and regex; training lives in ``charrestore.training``.
Names are imported lazily so that ``charrestore --help`` starts fast.
"""

from importlib import import_module

__version__ = "0.1.0"

_EXPORTS = {
    "LanguagePack": "packs",
    "load_pack": "packs",
    "available_packs": "packs",
    "parse": "codec",
    "render": "codec",
    "base_text": "codec",
    "Restorer": "restorer",
    "RestorerConfig": "restorer",
    "restore": "restorer",
    "Segmenter": "segmenter",
    "segment": "segmenter",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'charrestore' has no attribute {name!r}")
