from django.urls import path

from . import puzzles, views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("relief/", views.claim_relief, name="relief"),
    path("play-bot/", views.play_bot, name="play_bot"),
    path("quick/<slug:tier_slug>/", views.quick_join, name="quick_join"),
    path("queue/<str:public_id>/", views.queue, name="queue"),
    path("queue/<str:public_id>/cancel/", views.queue_cancel, name="queue_cancel"),
    path("matches/<str:public_id>/", views.match, name="match"),
    path("matches/<str:public_id>/table/", views.sit_down, name="sit_down"),
    path("rooms/new/", views.room_new, name="room_new"),
    path("rooms/find/", views.room_find, name="room_find"),
    path("rooms/<str:code>/", views.room, name="room"),
    path("rooms/<str:code>/join/", views.room_join, name="room_join"),
    path("rooms/<str:code>/bot/", views.room_bot, name="room_bot"),
    path("rooms/<str:code>/close/", views.room_close, name="room_close"),
    path("rooms/<str:code>/spectators/", views.room_spectators, name="room_spectators"),
    path("puzzles/", puzzles.index, name="puzzles"),
    path("puzzles/<str:code>/", puzzles.puzzle, name="puzzle"),
    path("leaderboards/", views.leaderboard_list, name="leaderboards"),
    path("healthz", views.healthz, name="healthz"),
]
