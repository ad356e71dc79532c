from django.urls import path

from .consumers import TableConsumer, WatchConsumer

websocket_urlpatterns = [
    path("ws/tables/<str:public_id>/", TableConsumer.as_asgi()),
    path("ws/tables/<str:public_id>/watch/", WatchConsumer.as_asgi()),
]
