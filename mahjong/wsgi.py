"""WSGI entry point (plain HTTP only; live tables need the ASGI app in asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")
application = get_wsgi_application()
