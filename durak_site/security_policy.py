"""The Content Security Policy of every response (`CONTENT_SECURITY_POLICY` in the settings),
with the site's own socket origin added for the host the browser asked for."""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class SecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware; `connect-src` also names `ws://` or `wss://` and this host,
    which `'self'` covers only in browsers that follow CSP Level 3 there."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        sockets = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", ()), sockets]
        parts.update = update
        return parts
