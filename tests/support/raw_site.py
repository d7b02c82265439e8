"""A site on 127.0.0.1 that writes its answers byte for byte (`Script`): what no HTTP server
library would send on purpose, such as a 103 Early Hints before each answer, a head that
trickles in a byte a second, an endless run of `100 Continue` heads or a chunked trailer that
never ends. It counts the connections it accepted, the requests it read, and the connections
still open (one that hunter closed is seen closed at the site's next write)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

from tests.support.local_server import stop_accepting

Script = Callable[[socket.socket, int], bool]  # (connection, its request's number) -> keep it


class RawSite:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.connections = 0
        self.open = 0
        self.requests: list[bytes] = []
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.origin = f"http://127.0.0.1:{self._server.getsockname()[1]}"
        self.url = f"{self.origin}/jobs"
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._server.accept()
            except OSError:  # closed
                return
            with self._lock:
                self.connections += 1
                self.open += 1
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            with connection:
                buffered = b""
                while True:
                    while b"\r\n\r\n" not in buffered:
                        try:
                            data = connection.recv(65536)
                        except OSError:
                            return
                        if not data:
                            return
                        buffered += data
                    head, buffered = buffered.split(b"\r\n\r\n", 1)
                    with self._lock:
                        self.requests.append(head)
                        n = len(self.requests)
                    try:
                        if not self.script(connection, n):
                            return
                    except OSError:  # the reader closed it
                        return
        finally:
            with self._lock:
                self.open -= 1

    def path_of(self, n: int) -> str:
        """The path the n-th request (from 1) asked for."""
        return self.requests[n - 1].split(b" ", 2)[1].decode()

    def close(self) -> None:
        stop_accepting(self._server, self._accepting)
