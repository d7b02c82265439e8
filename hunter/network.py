"""Why a connection failed, in a person's words: the host it was for and the cause. A name
that does not resolve, a port nothing listens on, a host that never answers and a certificate
that is not trusted each need another fix, and "could not connect" said none of them.

Every client hunter uses wraps the socket's own error its own way (httpx's ConnectError,
urllib3's MaxRetryError around a NewConnectionError or a NameResolutionError); the cause is
found by walking what each one kept of it (`reason`, `__cause__`, `__context__`).
"""

from __future__ import annotations

import errno
import os
import socket
import ssl
import urllib.request
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

_NO_NAME = ("Name or service not known", "nodename nor servname", "name resolution")
_REFUSED = ("Connection refused", "[Errno 111]", "[Errno 61]")
# The proxies httpx goes through without a package more (SOCKS needs socksio)
PROXY_SCHEMES = ("http", "https")


def unreached(exc: BaseException, host: str | None = None) -> str:
    """Why `host` (a name, or name:port; by default the one the failed request was for)
    could not be reached: "the name x.test does not resolve ...", "x.test:5432 refused the
    connection ...", or the error's own kind. A request that went through the proxy the
    environment names is said of the proxy: the site was never dialled."""
    return cause(exc, host) or f"{host or host_of(exc)}: {type(exc).__name__}"


def cause(exc: BaseException, host: str | None = None) -> str | None:
    """`unreached`'s words when the network is the cause; None when it is not (an answer
    that was not what was expected, say)."""
    via = None if host else _proxy_of(exc)
    if via is not None:
        variable, proxy = via
        for link in _chain(exc):
            if type(link).__name__ == "ProxyError":  # the proxy answered, and refused
                return f"the proxy in {variable} ({proxy}) refused to connect: {link}"
        said = _network(exc, proxy)
        if said and "certificate" not in said:  # a certificate is still the site's
            return f"the proxy in {variable}: {said}"
    return _network(exc, host or host_of(exc))


def _network(exc: BaseException, host: str) -> str | None:
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    for link in _chain(exc):
        text = str(link)
        if isinstance(link, socket.gaierror) or any(s in text for s in _NO_NAME):
            return f"the name {name} does not resolve (a typo in the address, or no DNS here)"
        if isinstance(link, ConnectionRefusedError) or any(s in text for s in _REFUSED):
            return f"{host} refused the connection (nothing listens there: check the port)"
        if isinstance(link, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY" in text:
            return f"{host}'s certificate is not trusted"
        if "WRONG_VERSION_NUMBER" in text or "record layer failure" in text:
            return f"{host} answered https:// in plain http (is its address http://?)"
        if isinstance(link, OSError) and link.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return f"no route to {name} (is this machine online?)"
        if isinstance(link, TimeoutError) or "timed out" in text.lower():
            return f"{host} did not answer in time (it is down, or a firewall drops the calls)"
    return None


def proxies(environ: Mapping[str, str]) -> dict[str, str]:
    """The proxies `environ` names as httpx reads them: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and
    NO_PROXY, either case, the lowercase first (no other *_PROXY: a FTP_PROXY is not
    hunter's); by scheme ("http", "https", "all", "no"), an address written without one read
    as http://, as curl and httpx read it. The one reading of them: the sources' mounts, the
    check at start and the errors' words all go by it."""
    found: dict[str, str] = {}
    for name, value in environ.items():
        key = name.lower().removesuffix("_proxy")
        named = key in ("http", "https", "all", "no") and name.lower().endswith("_proxy")
        if named and value.strip() and (name.islower() or key not in found):
            found[key] = value.strip()
    return {k: v if k == "no" or "://" in v else f"http://{v}" for k, v in found.items()}


def proxy_for(scheme: str, host: str) -> tuple[str, str] | None:
    """The proxy the environment names for a request to `host` by `scheme`, as httpx picks
    one (the scheme's variable, else ALL_PROXY; none for a host NO_PROXY names): its variable
    and its host:port, never its URL (which may hold a password)."""
    named = proxies(os.environ)
    for key in (scheme, "all"):
        if key not in named:
            continue
        if urllib.request.proxy_bypass_environment(host, named):  # type: ignore[attr-defined]
            return None
        return f"{key.upper()}_PROXY", _address(named[key]) or "?"
    return None


def proxy_refused(environ: Mapping[str, str]) -> str | None:
    """What is wrong with a proxy the environment names that hunter cannot go through (a
    SOCKS proxy, which needs a package hunter does not install, another scheme, or an address
    httpx would refuse with a traceback at its first request), in a line without its URL;
    None when there is none."""
    for key, url in proxies(environ).items():
        kind = url.split("://", 1)[0].lower()
        if key == "no":
            continue
        if kind not in PROXY_SCHEMES:
            return (
                f"{key.upper()}_PROXY (or its lowercase) names a {kind}:// proxy, which hunter "
                "cannot use: name an http:// or https:// proxy, or unset it for hunter"
            )
        if _address(url) is None:
            return (
                f"{key.upper()}_PROXY (or its lowercase) is no proxy's address hunter can read: "
                "write it as http://host:port (with user:password@ before the host if it asks)"
            )
    return None


def _address(url: str) -> str | None:
    """A proxy URL's host and port ("proxy.corp:3128"), without its user and password; None
    when it names no host or its port is no port."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or (port is not None and not 0 < port < 65536):
        return None
    return parts.hostname + (f":{port}" if port else "")


def _proxy_of(exc: BaseException) -> tuple[str, str] | None:
    """The proxy a failed httpx request went through (httpx's clients honour the
    environment's); None for any other client's (urllib3's, LINE's SDK's, honours none)."""
    for link in _chain(exc):
        try:
            url = link.request.url  # type: ignore[attr-defined]  # httpx
        except (AttributeError, RuntimeError):
            continue
        return proxy_for(str(url.scheme), str(url.host))
    return None


def host_of(exc: BaseException) -> str:
    """The host (and port, when one is named) a client's error was about: httpx's request,
    urllib3's connection pool; "the server" when it does not say."""
    for cause in _chain(exc):
        try:
            url = cause.request.url  # type: ignore[attr-defined]  # httpx
        except (AttributeError, RuntimeError):
            url = None
        if url is not None:
            return f"{url.host}:{url.port}" if url.port else str(url.host)
        pool = getattr(cause, "pool", None)  # urllib3
        if pool is not None and getattr(pool, "host", None):
            port = getattr(pool, "port", None)
            return f"{pool.host}:{port}" if port not in (None, 80, 443) else str(pool.host)
    return "the server"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and every error it was raised from or wraps, outermost first, each once."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        cause = todo.pop(0)
        if id(cause) in seen:
            continue
        seen.add(id(cause))
        yield cause
        for kept in (getattr(cause, "reason", None), cause.__cause__, cause.__context__):
            if isinstance(kept, BaseException):
                todo.append(kept)
