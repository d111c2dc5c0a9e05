"""lazy_names: names of a package that load with their module when first read (PEP 562).

A package keeps what a game's first frame does not need out of its imports, and still offers
it by name: ``__getattr__ = lazy_names(__name__, {"name": "submodule", ...})``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_names(package: str, modules: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: each name of ``modules`` (name: submodule)
    is read from ``package.<submodule>``, imported then; any other name is an
    ``AttributeError``."""

    def __getattr__(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{module}"), name)

    return __getattr__


__all__ = ["lazy_names"]
