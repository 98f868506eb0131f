"""Where corr finds the files it ships beside its code: the templates, the schemas and
the rules (`docs/rules`).

The wheel carries them inside the package (`corr/templates`, `corr/schemas`,
`corr/docs/rules`: pyproject's force-include); a source checkout or an editable install
reads the repository's own top-level folders. Only the standard library is imported, so
a command that reads a file asks here without paying for the rest of corr.
"""

from __future__ import annotations

from pathlib import Path


def resource_dir(kind: str) -> Path:
    """`templates`, `schemas` or `docs/rules`: inside the installed package, else in the
    checkout."""
    here = Path(__file__).resolve().parent
    installed = here / kind
    return installed if installed.is_dir() else here.parent / kind
