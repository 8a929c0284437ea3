"""The bundled Jinja templates, precompiled by `python -m cardgen.precompiled` (see cardgen.precompiled)."""
