"""PyYAML, imported in one place. Import `yaml` from here."""

from __future__ import annotations

import yaml as yaml
