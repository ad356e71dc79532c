from django.urls import path

from . import history_views as views

app_name = "history"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("players/<str:public_id>/", views.player, name="player"),
    path("hands/<str:table_id>/<int:number>/", views.hand, name="hand"),
    path("hands/<str:table_id>/<int:number>/replay/", views.replay, name="replay"),
    path("verify/", views.verify, name="verify"),
]
