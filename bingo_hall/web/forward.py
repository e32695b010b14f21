"""The phones' process's way to the Maestro's (web/phones_process.py): a change or a Maestro's
request that reached the hall's port is sent over the internal unix socket (`Forwarder`), with
the real client's address in a header that only that socket trusts (`trusted_client`)."""

from __future__ import annotations

import asyncio
from typing import Any

from .admission import Receive, Send

#: the header carrying a forwarded request's real client address (trusted on the internal
#: socket only; removed from every request that comes from outside)
CLIENT_HEADER = b"x-bingo-hall-client"


#: the proxy whose X-Forwarded-For names a request's client (uvicorn's own default): the laptop
#: itself, e.g. a reverse proxy in front of the station; tests stand in for guests with it
TRUSTED_PROXY = "127.0.0.1"


def trusted_client(scope: dict[str, Any], internal: bool) -> None:
    """The request's real client, in `scope["client"]`: CLIENT_HEADER on the internal socket (a
    request forwarded by the phones' process), never from outside (the header is dropped); from
    the laptop itself, the last address of X-Forwarded-For that is not the laptop's (as uvicorn's
    proxy headers middleware, which the station does not run: one pass over the headers)."""
    headers = scope.get("headers") or []
    said: list[bytes] = []
    proxied: list[bytes] = []
    for name, value in headers:
        if name == CLIENT_HEADER:
            said.append(value)
        elif name == b"x-forwarded-for":
            proxied.append(value)
    client = scope.get("client")
    if proxied and client and client[0] == TRUSTED_PROXY:
        hosts = [h.strip() for h in b",".join(proxied).decode("latin-1").split(",")]
        host = next((h for h in reversed(hosts) if h != TRUSTED_PROXY), hosts[0])
        if host:
            scope["client"] = (host, 0)
    if not said:
        return
    scope["headers"] = [(n, v) for n, v in headers if n != CLIENT_HEADER]
    if internal:
        host, _, port = said[-1].decode("latin-1").rpartition(" ")
        scope["client"] = (host, int(port) if port.isdigit() else 0)


class Forwarder:
    """Sends a request to the Maestro's process over the internal socket, with the real
    client's address, and gives back its answer (one connection per request)."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        target = scope.get("raw_path") or scope["path"].encode("latin-1")
        if scope.get("query_string"):
            target += b"?" + scope["query_string"]
        client = scope.get("client") or ("", 0)
        head = [b"%s %s HTTP/1.1" % (scope["method"].encode(), target)]
        skip = {b"connection", b"content-length", b"transfer-encoding", b"keep-alive"}
        skip.add(CLIENT_HEADER)
        head += [b"%s: %s" % (n, v) for n, v in scope.get("headers", ()) if n.lower() not in skip]
        head += [
            CLIENT_HEADER + b": " + f"{client[0]} {client[1]}".encode(),
            b"content-length: %d" % len(body),
            b"connection: close",
        ]
        reader, writer = await asyncio.open_unix_connection(self.path)
        try:
            writer.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
            answer = await reader.read()
        finally:
            writer.close()
        status, headers, content = _parse_answer(answer)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def _parse_answer(raw: bytes) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    try:
        status = int(lines[0].split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 502, [(b"content-type", b"text/plain; charset=utf-8")], b"bad gateway\n"
    headers = []
    chunked = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip()
        if name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
            continue
        if name in (b"connection", b"content-length", b"keep-alive"):
            continue
        headers.append((name, value))
    if chunked:
        body = _unchunk(body)
    headers.append((b"content-length", str(len(body)).encode()))
    return status, headers, body


def _unchunk(data: bytes) -> bytes:
    out, at = [], 0
    while True:
        end = data.find(b"\r\n", at)
        if end < 0:
            break
        size = int(data[at:end].split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(data[end + 2 : end + 2 + size])
        at = end + 2 + size + 2
    return b"".join(out)
