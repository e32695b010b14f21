"""The Flask app in a worker thread for a change (POST, PUT, DELETE...), with two hand-overs
between the event loop and the worker (a Maestro no phone can slow).

A change's body is read whole on the loop before a worker is given it (admission.read_body). The
worker then gets it at once and gives back the whole answer, which the loop writes to the socket
in one go: the loop hands the request over, the worker hands the answer back. a2wsgi's adapter,
made for bodies and answers of any size, hands over once more each way for the body, for the
answer's head, for each part of its body and for its end (five round trips for a draw). Each is
a thread that must wake up and win a core, and when phones keep both cores busy, each wake-up
waits its turn: the Maestro's draw paid for every one of them.

A change's answer is small (JSON, a redirect, a page after a form), so holding it whole costs
nothing; reads, which may stream a large file, stay with a2wsgi.

A Maestro's call (a draw, a ball entered, an undo: views marked `admission.on_loop`) is answered
on the event loop itself, with no hand-over at all, when the station's write lock is free
(`here`): one short transaction, whose thread never has to win a core back from the phones. The
lock is taken without waiting; held by a worker (a guest's change being written), the call goes
to the workers as any change does, so the loop never waits for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from a2wsgi.wsgi import Body, build_environ

from .admission import Receive, Send
from .relay import one_write

Headers = list[tuple[bytes, bytes]]


class WholeAnswers:
    """`await answers(scope, receive, send)`: the app's answer to a request whose body the loop
    has read (`receive` gives it in its first message), written in one write."""

    def __init__(self, app: Any, workers: int, name: str = "change") -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Receive,
        send: Send,
        here: threading.RLock | None = None,
    ) -> None:
        """`here`: the station's write lock, for a change that may be answered on the loop
        (see the module's docstring)."""
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        given = cast(Body, io.BytesIO(message.get("body", b"")))
        environ: dict[str, Any] = dict(build_environ(cast(Any, scope), given))
        context = contextvars.copy_context()
        if here is not None and here.acquire(blocking=False):
            try:  # no await until it is released: no other request of the loop's can run
                status, headers, body = context.run(self._answer, environ)
            finally:
                here.release()
        else:
            work = functools.partial(context.run, self._answer, environ)
            status, headers, body = await asyncio.get_running_loop().run_in_executor(
                self.executor, work
            )
        with one_write():  # its head and its body: one write to the socket
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})

    def _answer(self, environ: dict[str, Any]) -> tuple[int, Headers, bytes]:
        """In the worker: the WSGI call, its answer gathered."""
        head: dict[str, Any] = {}
        parts: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            if exc_info is not None and head:  # an error after the head (WSGI's rule)
                raise exc_info[1].with_traceback(exc_info[2])
            head["status"] = int(status.split(" ", 1)[0])
            head["headers"] = [
                (name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
                for name, value in headers
            ]
            return parts.append

        answer = self.app(environ, start_response)
        try:
            parts.extend(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        return head["status"], head["headers"], b"".join(parts)
