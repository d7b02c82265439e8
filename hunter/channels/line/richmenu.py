"""`hunter line setup`: the rich menu under the chat, two buttons that send "งานใหม่" and
"สถานะ", made (or found again) through line-bot-sdk and set as the default for every user.

Idempotent: a menu named "hunter" with this very layout is reused; other menus named "hunter"
(an older layout) are deleted. The menu's image is drawn here (a PNG of two panels with
block-letter labels, made with zlib alone), so no image file or library is needed.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import urllib3

from hunter.channels.line.answers import LineError
from hunter.errors import ConfigError
from hunter.network import unreached

MENU_NAME = "hunter"
WIDTH, HEIGHT = 2500, 843  # LINE's "compact" full-width size
PANELS = (("งานใหม่", "NEW", (6, 199, 85)), ("สถานะ", "STATUS", (38, 94, 170)))
DATA_API = "https://api-data.line.me"  # LINE takes rich menu images on this host only

# 5x7 block letters for the labels, one string of rows per letter.
_GLYPHS = {
    "N": "10001 11001 10101 10011 10001 10001 10001",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "A": "01110 10001 10001 11111 10001 10001 10001",
    "U": "10001 10001 10001 10001 10001 10001 01110",
}
_SCALE = 24


def definition() -> dict[str, Any]:
    """The rich menu as LINE's RichMenuRequest: the chat's two commands, side by side."""
    width = WIDTH // len(PANELS)
    return {
        "size": {"width": WIDTH, "height": HEIGHT},
        "selected": True,
        "name": MENU_NAME,
        "chatBarText": "เมนู hunter",
        "areas": [
            {
                "bounds": {"x": n * width, "y": 0, "width": width, "height": HEIGHT},
                "action": {"type": "message", "label": text, "text": text},
            }
            for n, (text, _label, _colour) in enumerate(PANELS)
        ],
    }


def image() -> bytes:
    """The menu's picture: one coloured panel per command, its English label in white."""
    width = WIDTH // len(PANELS)
    background = b"".join(bytes(colour) * width for _text, _label, colour in PANELS)
    rows = [bytearray(background) for _ in range(HEIGHT)]  # RGB, 3 bytes a pixel
    white = b"\xff\xff\xff" * _SCALE
    for n, (_text, label, _colour) in enumerate(PANELS):
        span = len(label) * 6 * _SCALE - _SCALE
        left, top = n * width + (width - span) // 2, (HEIGHT - 7 * _SCALE) // 2
        for i, letter in enumerate(label):
            for row, bits in enumerate(_GLYPHS[letter].split()):
                for column in (c for c, bit in enumerate(bits) if bit == "1"):
                    x = 3 * (left + (i * 6 + column) * _SCALE)
                    for y in range(top + row * _SCALE, top + (row + 1) * _SCALE):
                        rows[y][x : x + len(white)] = white
    return _png(WIDTH, HEIGHT, b"".join(b"\x00" + bytes(row) for row in rows))  # filter 0


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _apis(token: str, api_url: str) -> tuple[Any, Any]:
    import linebot.v3.messaging as sdk

    configuration = sdk.Configuration(host=api_url, access_token=token)
    configuration.retries = 0
    client = sdk.ApiClient(configuration)
    api, blob = sdk.MessagingApi(client), sdk.MessagingApiBlob(client)
    api.line_base_path = api_url
    # Images go to api-data.line.me; a proxy or a test given as HUNTER_LINE_API_URL takes both.
    blob.line_base_path = DATA_API if api_url == "https://api.line.me" else api_url
    return api, blob


def _same(menu: Any) -> bool:
    wanted = definition()
    found = menu.to_dict()
    return all(found.get(key) == wanted[key] for key in ("size", "chatBarText", "areas"))


def setup(token: str, api_url: str) -> tuple[str, bool]:
    """Make sure hunter's rich menu exists and is the default: (its id, whether it was made)."""
    import linebot.v3.messaging as sdk

    api, blob = _apis(token, api_url)
    try:
        menus = [m for m in api.get_rich_menu_list().richmenus if m.name == MENU_NAME]
        keep = next((m for m in menus if _same(m)), None)
        for menu in menus:
            if menu is not keep:
                api.delete_rich_menu(menu.rich_menu_id)
        created = keep is None
        if keep is None:
            menu_id = api.create_rich_menu(sdk.RichMenuRequest.from_dict(definition())).rich_menu_id
            blob.set_rich_menu_image(
                menu_id, body=bytearray(image()), _headers={"Content-Type": "image/png"}
            )
        else:
            menu_id = keep.rich_menu_id
        api.set_default_rich_menu(menu_id)
    except sdk.ApiException as exc:
        if exc.status == 401:
            raise ConfigError(
                "LINE rejected the channel access token (401): check LINE_CHANNEL_ACCESS_TOKEN"
            ) from None
        raise LineError(f"LINE refused the rich menu set-up: HTTP {exc.status}") from None
    except (urllib3.exceptions.HTTPError, OSError) as exc:  # MaxRetryError: not an OSError
        raise LineError(f"cannot reach LINE: {unreached(exc)}") from None
    except ValueError:  # the SDK's model refused the answer (pydantic's error is a ValueError)
        raise LineError(NOT_LINES) from None
    return str(menu_id), created


# An answer LINE's API never gives: a proxy's or a captive portal's page, at HUNTER_LINE_API_URL
NOT_LINES = (
    "the answer to the rich menu set-up is not LINE's (a proxy or a Wi-Fi login page in the "
    "way?); check HUNTER_LINE_API_URL, or run it again from another network"
)


def default_menu(token: str, api_url: str) -> str | None:
    """The default rich menu's name, or None when there is none (for `hunter check`)."""
    import linebot.v3.messaging as sdk

    api, _blob = _apis(token, api_url)
    try:
        menu_id = api.get_default_rich_menu_id().rich_menu_id
        return str(api.get_rich_menu(menu_id).name)
    except sdk.ApiException as exc:
        if exc.status == 404:
            return None
        raise LineError(f"LINE's rich menu check failed: HTTP {exc.status}") from None
    except (urllib3.exceptions.HTTPError, OSError) as exc:  # MaxRetryError: not an OSError
        raise LineError(f"cannot reach LINE: {unreached(exc)}") from None
    except ValueError:
        raise LineError(NOT_LINES) from None
