"""``charrestore serve``: its arguments and its run, in the ``add_X``/``run_X`` pattern of ``cli.py``.

Importing this module costs nothing (FastAPI and uvicorn load only in ``run_serve``), so the CLI and its
``--help`` work without the ``[serve]`` extra, and ``serve`` without it is a one-line error naming the extra.
"""

from __future__ import annotations

from ..auto import DEFAULT_LANG
from ..cli_util import add_command

SERVE_EXTRA = {"fastapi", "starlette", "uvicorn", "pydantic", "websockets"}


def add_serve(sub) -> None:
    p = add_command(sub, run_serve,
        "serve", help="serve restoration over HTTP and WebSocket, with a web page (needs the [serve] extra)",
        description="Serve restoration: POST /v1/fix, WS /v1/stream (live captions), GET /v1/packs, GET /healthz, "
                    "the OpenAPI docs at /docs and a web page at /. Models load once and are shared; "
                    "inference runs in a pool of --threads threads per worker.",
        epilog="examples:\n  charrestore serve\n  charrestore serve --host 0.0.0.0 --port 9000 --workers 2\n"
               "  curl -s localhost:8080/v1/fix -H 'content-type: application/json' \\\n"
               "       -d '{\"text\": \"willaichangeourfuture\"}'")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8080, help="port (default: 8080)")
    p.add_argument("--lang", default=DEFAULT_LANG,
                   help="default language pack, loaded at startup; auto: each text's detected language; auto:L: L "
                        f"unless another pack is clearly more likely (default: {DEFAULT_LANG}, as fix)")
    p.add_argument("--workers", type=int, default=1, help="server processes, each with its own models (default: 1)")
    p.add_argument("--threads", type=int, default=None,
                   help="inference threads per worker (default: the cores divided among the workers)")
    p.add_argument("--max-chars", type=int, default=100_000, metavar="N",
                   help="characters per /v1/fix request, all texts together (default: 100000)")
    p.add_argument("--max-body", type=int, default=1_000_000, metavar="BYTES",
                   help="request body size; larger bodies get 413 (default: 1000000)")
    p.add_argument("--access-log", action="store_true", help="log every request")


def run_serve(args) -> int:
    import json
    import os
    import socket

    from ..auto import is_auto, per_line
    from ..cli_util import CLIError
    from ..packs import load_pack

    try:
        import uvicorn

        from . import app  # fails here, not in a worker, when FastAPI is missing
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in SERVE_EXTRA:
            raise CLIError(f"serve needs the [serve] extra ({exc.name} is missing): "
                           "pip install 'charrestore[serve]'") from None
        raise
    if args.workers < 1 or (args.threads is not None and args.threads < 1):
        raise CLIError("--workers and --threads must be at least 1")
    if not 0 <= args.port < 65536:
        raise CLIError(f"--port must be from 0 to 65535, not {args.port}")
    lang, _ = per_line(args.lang)  # auto:L: L must be an installed pack (one line here, not in a worker)
    if not is_auto(lang):
        load_pack(lang)  # an unknown language is one line here, not a traceback in a worker
    with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((args.host, args.port))
        except OSError as exc:
            raise CLIError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    threads = args.threads or max(1, (os.cpu_count() or 1) // args.workers)  # more would fight over the cores
    settings = {"lang": args.lang, "threads": threads, "max_chars": args.max_chars, "max_body": args.max_body}
    os.environ[app.ENV] = json.dumps(settings)
    uvicorn.run("charrestore.serve.app:from_env", factory=True, host=args.host, port=args.port,
                workers=args.workers, access_log=args.access_log, ws_max_size=args.max_body,
                log_level="info")
    return 0
