from django.urls import path

from . import views

app_name = "rulebook"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.ruleset, name="ruleset"),
    path("<slug:slug>/calculator/", views.calculator, name="calculator"),
]
