"""One module per CLI command (see ``mahjong/engine/__main__.py``)."""
