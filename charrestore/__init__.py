"""charrestore: restore spaces, punctuation and capitalization to unformatted text.

The runtime needs only numpy, onnxruntime and regex; training lives in ``charrestore.training``.
Names are imported lazily so that ``charrestore --help`` starts fast.
"""

from importlib import import_module

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


def _version() -> str:
    """The one version is pyproject's, read from the installed metadata (an uninstalled checkout reads
    pyproject.toml itself). Asked for lazily: importlib.metadata costs ~20 ms, which ``--help`` should not pay."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(__name__)
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
            return tomllib.load(f)["project"]["version"]


def __getattr__(name: str):
    if name == "__version__":
        globals()["__version__"] = value = _version()
        return value
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'charrestore' has no attribute {name!r}")
