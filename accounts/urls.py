from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import preferences, views
from .forms import LoginForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html",
            authentication_form=LoginForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("accounts:password_done"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/password_done.html"),
        name="password_done",
    ),
    path("profile/", views.my_profile, name="profile"),
    path("profile/nickname/", views.edit_nickname, name="nickname"),
    path("players/<str:public_id>/", views.player, name="player"),
    path("settings/", preferences.page, name="preferences"),
    path("settings/toggle/", preferences.toggle, name="preference_toggle"),
    path("language/", preferences.language, name="language"),
]
