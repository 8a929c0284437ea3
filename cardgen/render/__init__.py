"""Rendering: geometry, card faces, sheets and the rules page. Never imports the engine."""
