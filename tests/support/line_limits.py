"""LINE's documented limits that its OpenAPI description does not encode (DESIGN.md), checked
on every request by the stand-in whether or not the spec is at hand."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

BODY_MAX = 2 * 1024 * 1024
TEXT_MAX = 5000
ALT_TEXT_MAX = 400
BUBBLE_MAX = 30 * 1024
CAROUSEL_MAX = 50 * 1024
CAROUSEL_BUBBLES = 12
URI_MAX = 1000
URI_SCHEMES = ("http", "https", "line", "tel")


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def size(node: Any) -> int:
    return len(json.dumps(node, ensure_ascii=False, separators=(",", ":")).encode())


def limit_errors(body: Any, raw_size: int) -> list[str]:
    errors: list[str] = []
    if raw_size > BODY_MAX:
        errors.append(f"body is {raw_size} bytes, over {BODY_MAX}")
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not 1 <= len(messages) <= 5:
        errors.append("messages must hold 1 to 5 message objects")
        return errors
    for n, message in enumerate(messages):
        where = f"messages/{n}"
        if message.get("type") == "text" and utf16(message.get("text", "")) > TEXT_MAX:
            errors.append(f"{where}/text: over {TEXT_MAX} UTF-16 units")
        if message.get("type") == "flex":
            if utf16(message.get("altText", "")) > ALT_TEXT_MAX:
                errors.append(f"{where}/altText: over {ALT_TEXT_MAX} characters")
            if not message.get("altText"):
                errors.append(f"{where}/altText: must not be empty")
            _container(message.get("contents", {}), f"{where}/contents", errors)
    _walk(body, "", errors)
    return errors


def _container(container: Any, where: str, errors: list[str]) -> None:
    if container.get("type") == "carousel":
        bubbles = container.get("contents", [])
        if not 1 <= len(bubbles) <= CAROUSEL_BUBBLES:
            errors.append(f"{where}: a carousel holds 1 to {CAROUSEL_BUBBLES} bubbles")
        if size(container) > CAROUSEL_MAX:
            errors.append(f"{where}: carousel is {size(container)} bytes, over {CAROUSEL_MAX}")
        for n, bubble in enumerate(bubbles):
            _container(bubble, f"{where}/contents/{n}", errors)
    elif container.get("type") == "bubble" and size(container) > BUBBLE_MAX:
        errors.append(f"{where}: bubble is {size(container)} bytes, over {BUBBLE_MAX}")


def _walk(node: Any, where: str, errors: list[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "uri":
            uri = str(node.get("uri", ""))
            if len(uri) > URI_MAX:
                errors.append(f"{where}/uri: {len(uri)} characters, over {URI_MAX}")
            if urlsplit(uri).scheme.lower() not in URI_SCHEMES:
                errors.append(f"{where}/uri: scheme of {uri[:40]!r} is not allowed")
        if node.get("type") == "text" and "text" in node and not node["text"]:
            errors.append(f"{where}/text: must not be empty")
        for key, value in node.items():
            _walk(value, f"{where}/{key}", errors)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            _walk(value, f"{where}/{n}", errors)
