"""``charrestore serve``: restoration over HTTP and WebSocket, and a web page that shows it.

Needs the ``[serve]`` extra (FastAPI + uvicorn). Nothing here imports it at import time, so that the CLI and
``--help`` work without it; ``app.create_app`` is the ASGI app, ``command`` its face in the CLI.
"""
