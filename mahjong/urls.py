from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.views.generic import RedirectView

from accounts.forms import AdminLoginForm

admin.site.site_header = _("二人麻将 Online administration")
admin.site.site_title = _("二人麻将 Online admin")
admin.site.index_title = _("Operations")
admin.site.login_form = AdminLoginForm  # the site's lockout, not Django's endless tries
# The app list beside every page took 300 of a 1280px laptop's width, and the players'
# and room lists ran behind a sideways scroll; the breadcrumbs and the index lead there.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    # browsers ask for /favicon.ico whatever the page links (and the admin's did not): the
    # site's icon, by its static URL (lazy: the storage names it when asked, not at import)
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"))),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language for the switcher
    path("tables/", include("mahjong.tables.urls")),
    path("ui/", include("mahjong.ui.urls")),  # the tile and sound gallery
    path("history/", include("lobby.history_urls")),  # match history, hands, replays
    path("ratings/", include("mahjong.ratings.urls")),
    path("stages/", include("mahjong.stages.urls")),  # 关卡 stage mode
    path("rules/", include("mahjong.rulebook.urls")),  # the players' rule book
    path("", include("lobby.urls")),
]
