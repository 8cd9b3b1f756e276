"""The engines by name: ``--engine`` and a pack's ``engine`` key name one of these.

Each entry is "module:Class", imported only when that engine is built (the CLI starts fast). A new engine
subclasses :class:`charrestore.engines.base.Engine` and is added here.
"""

from importlib import import_module

REGISTRY = {
    "char": "charrestore.engines.char_e2e:CharEngine",
    "pipeline": "charrestore.engines.pipeline:PipelineEngine",
}


def engine_class(name: str):
    """The Engine subclass registered as ``name``."""
    if name not in REGISTRY:
        raise ValueError(f"engine must be one of {', '.join(REGISTRY)}, not {name!r}")
    module, cls = REGISTRY[name].split(":")
    return getattr(import_module(module), cls)
