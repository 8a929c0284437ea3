"""Digital exports of a deck (Tabletop Simulator) and the static gallery."""
