"""Small shared UI pieces: the tile template tag and the tile/sound gallery at /ui/tiles/."""
