"""The Permissions-Policy header: the site uses no camera, microphone, location, payment
or device API, so no page of it (nor anything injected into one) may ask for them.
Django's SecurityMiddleware sends the other security headers but not this one."""

from django.conf import settings


class PermissionsPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
