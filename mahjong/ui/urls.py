from django.urls import path

from . import views

app_name = "ui"
urlpatterns = [
    path("tiles/", views.tiles, name="tiles"),
]
