"""Mechanic modules. Importing this package imports every module in it, and each module registers
its mechanic (engine.register_mechanic) and its rule logic (registry.implements) at import."""
from __future__ import annotations

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
