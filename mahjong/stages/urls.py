from django.urls import path

from . import views

app_name = "stages"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", views.play, name="play"),
    path("next/", views.advance, name="advance"),
    path("retry/", views.retry, name="retry"),
    path("restart/", views.restart, name="restart"),
    path("offer/<str:public_id>/", views.offer, name="offer"),
]
