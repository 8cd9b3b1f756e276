"""pytest (``--doctest-modules`` imports every module): without the [serve] extra these modules cannot be
imported, so they are left out of collection instead of failing it; tests/test_serve*.py skip on their own."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("fastapi") and importlib.util.find_spec("uvicorn") else ["*.py"]
