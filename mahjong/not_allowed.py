"""A page, not a blank, for an address opened the wrong way.

The addresses behind the site's buttons (claim relief, leave a table, log out) take only a
form's POST; opened in the address bar they answer 405 with an empty body, which a browser
shows as its own error screen. A plain GET of one gets the site's page that says so, with
the way back. htmx requests and other methods keep the bare 405 (Allow header included).
"""

from django.shortcuts import render


class NotAllowedPage:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not response.content
            and request.method == "GET"
            and not getattr(request, "htmx", False)
        ):
            page = render(request, "405.html", status=405)
            page["Allow"] = response.get("Allow", "")
            return page
        return response
