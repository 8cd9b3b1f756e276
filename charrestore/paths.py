"""Where the shipped language packs and models live, installed or in a checkout."""

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding ``languages/`` and ``models/``.

    ``CHARRESTORE_DATA`` overrides it (your own packs and models); a wheel ships
    them inside the package; a source checkout or editable install has them
    beside it.
    """
    override = os.environ.get("CHARRESTORE_DATA")
    if override:
        return Path(override)
    return _PKG if (_PKG / "languages").is_dir() else _PKG.parent


def languages_dir() -> Path:
    return data_root() / "languages"


def models_dir() -> Path:
    return data_root() / "models"


def web_dir() -> Path:
    """The in-browser page and its package (``web/``): code, so it is found beside the package (in a wheel) or the
    checkout, whatever ``CHARRESTORE_DATA`` says; it reads the packs and models where they are served beside it."""
    return _PKG / "web" if (_PKG / "web").is_dir() else _PKG.parent / "web"
