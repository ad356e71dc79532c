from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("live/", views.live, name="live"),
    path("<str:public_id>/", views.table, name="table"),
    path("<str:public_id>/fragments/", views.fragments, name="fragments"),
    path("<str:public_id>/act/", views.act, name="act"),
    path("<str:public_id>/next/", views.next_hand, name="next"),
    path("<str:public_id>/back/", views.back, name="back"),
    path("<str:public_id>/leave/", views.leave, name="leave"),
    path("<str:public_id>/watch/", views.watch, name="watch"),
    path("<str:public_id>/emote/", views.emote, name="emote"),
]
