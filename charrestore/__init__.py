"""charrestore: restore spaces, punctuation and capitalization to unformatted text.

The runtime needs only numpy, onnxruntime and regex; training lives in ``charrestore.training``.
"""

from .codec import base_text, parse, render
from .packs import LanguagePack, available_packs, load_pack

__all__ = ["LanguagePack", "available_packs", "base_text", "load_pack", "parse", "render"]
__version__ = "0.1.0"
