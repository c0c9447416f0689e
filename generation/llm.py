"""A small client for chat completions from Groq (or any server speaking its OpenAI-compatible protocol).

Every failure surfaces as one :class:`LLMError` whose ``kind`` callers can branch on and whose message tells the
user what went wrong and what to do, so no caller has to know the ``groq`` package's exception tree.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import groq
import httpx

KINDS = ("auth", "rate_limit", "timeout", "server", "connection", "bad_response")


class LLMError(Exception):
    """A failed LLM call, with a message fit to show a user.

    Parameters
    ----------
    kind : str
        One of ``KINDS``: "auth", "rate_limit", "timeout", "server", "connection" or "bad_response".
    message : str
        What went wrong and what to do about it; never a traceback.
    status : int, optional
        The HTTP status the server answered with, when it answered.
    retry_after : float, optional
        Seconds the server asked to wait before trying again (429 responses).
    """

    def __init__(self, kind: str, message: str, *, status: int | None = None,
                 retry_after: float | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown LLMError kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after


class LLM:
    """Chat completions through the ``groq`` client, with its retries and time limit.

    Parameters
    ----------
    api_key : str
        The Groq API key, sent as ``Authorization: Bearer <key>``.
    model : str
        Model name, e.g. ``"llama-3.3-70b-versatile"``.
    base_url : str, optional
        Server root; the client appends ``/openai/v1/chat/completions``. None lets ``groq`` use ``GROQ_BASE_URL``
        or Groq's own server.
    timeout : float
        Seconds allowed for each connect, read and write of a request (not a total deadline: a stream that keeps
        delivering chunks may run longer).
    max_retries : int
        Retries of a request that failed with 408, 409, 429, 5xx, a timeout or a connection error.
    max_tokens, temperature
        Defaults for every call; each call may override them.
    """

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 max_retries: int = 1, max_tokens: int = 700, temperature: float = 0.0) -> None:
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_tokens = max_tokens
        self.temperature = temperature
        self._client = groq.Groq(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self.base_url = str(self._client.base_url)

    @classmethod
    def from_settings(cls, settings) -> LLM | None:
        """The client the settings describe, or None when no API key is set (the app then answers offline).

        Parameters
        ----------
        settings : settings.Settings
            Reads ``groq_api_key``, ``llm_model``, ``groq_base_url``, ``llm_timeout_seconds``, ``llm_max_retries``,
            ``llm_max_tokens`` and ``llm_temperature``.
        """
        key = (settings.groq_api_key or "").strip()
        if not key:
            return None
        return cls(key, settings.llm_model, base_url=settings.groq_base_url or None,
                   timeout=settings.llm_timeout_seconds, max_retries=settings.llm_max_retries,
                   max_tokens=settings.llm_max_tokens, temperature=settings.llm_temperature)

    def complete(self, messages: list[dict], *, max_tokens: int | None = None,
                 temperature: float | None = None) -> str:
        """The model's reply to ``messages`` (OpenAI-style ``{"role", "content"}`` dicts), in one piece.

        Raises
        ------
        LLMError
            On any failure, after the client's retries; ``kind`` "bad_response" when the reply holds no text.
        """
        try:
            response = self._create(messages, max_tokens, temperature, stream=False)
        except groq.GroqError as err:
            raise self._error(err) from err
        except ValueError as err:  # a 200 whose body is not JSON
            raise _bad_response("its reply was not valid JSON") from err
        # The client builds models without validation, so check the shape ourselves.
        choices = getattr(response, "choices", None)
        if not choices:
            raise _bad_response("its reply held no choices")
        content = getattr(getattr(choices[0], "message", None), "content", None)
        if not isinstance(content, str) or not content:
            raise _bad_response("its reply held no text")
        return content

    def stream(self, messages: list[dict], *, max_tokens: int | None = None,
               temperature: float | None = None) -> Iterator[str]:
        """Yield the model's reply to ``messages`` piece by piece, as the server sends it.

        Retries happen only before the first piece; a failure mid-stream ends the stream with an error.

        Raises
        ------
        LLMError
            On any failure, including a malformed chunk ("bad_response") or a stall longer than ``timeout``
            ("timeout") part-way through.
        """
        try:
            chunks = self._create(messages, max_tokens, temperature, stream=True)
        except groq.GroqError as err:
            raise self._error(err) from err
        sent = False
        # Closing the stream releases the connection even when the caller stops reading early.
        with chunks:
            try:
                for chunk in chunks:
                    choices = getattr(chunk, "choices", None)
                    if choices is None:
                        raise _bad_response("a streamed chunk held no choices")
                    if not choices:  # e.g. a usage-only chunk
                        continue
                    delta = getattr(choices[0], "delta", None)
                    text = getattr(delta, "content", None)
                    if text is not None and not isinstance(text, str):
                        raise _bad_response("a streamed chunk's text was not a string")
                    if text:
                        sent = True
                        yield text
            # Errors while reading the body bypass groq's wrapping, so map the raw ones here.
            except groq.GroqError as err:
                raise self._error(err) from err
            except httpx.TimeoutException as err:
                raise LLMError("timeout", f"The LLM stalled for more than {self.timeout:g} s mid-answer; try "
                                          "again, or raise RAG_LLM_TIMEOUT_SECONDS.") from err
            except httpx.HTTPError as err:
                raise LLMError("connection", f"The connection to the LLM at {self.base_url} broke mid-answer; "
                                             "try again.") from err
            except ValueError as err:  # json.JSONDecodeError from a malformed `data:` line
                raise _bad_response("it streamed a malformed chunk") from err
        if not sent:
            raise _bad_response("its reply held no text")

    def _create(self, messages, max_tokens, temperature, *, stream: bool):
        return self._client.chat.completions.create(
            model=self.model, messages=messages, stream=stream,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            temperature=self.temperature if temperature is None else temperature,
        )

    def _error(self, err: groq.GroqError) -> LLMError:
        """The LLMError a ``groq`` exception stands for."""
        # Order matters: APITimeoutError subclasses APIConnectionError.
        if isinstance(err, groq.APITimeoutError):
            return self._timeout()
        if isinstance(err, groq.APIConnectionError):
            return LLMError("connection", f"Could not reach the LLM at {self.base_url}; check the network and "
                                          "GROQ_BASE_URL.")
        if isinstance(err, groq.APIResponseValidationError):
            return _bad_response("its reply did not match the chat-completions format")
        if isinstance(err, groq.APIStatusError):
            return self._status_error(err)
        if isinstance(err, groq.APIError):  # an error event inside a stream
            return LLMError("server", f"The LLM failed mid-answer ({_server_says(err)}); try again later.")
        return _bad_response("the client could not read its reply")

    def _timeout(self) -> LLMError:
        tries = self.max_retries + 1
        return LLMError("timeout", f"The LLM did not answer within {self.timeout:g} s ({tries} attempt"
                                   f"{'s' if tries > 1 else ''}); try again, or raise RAG_LLM_TIMEOUT_SECONDS.")

    def _status_error(self, err: groq.APIStatusError) -> LLMError:
        status = err.status_code
        if status == 401:
            return LLMError("auth", "The LLM rejected the API key (401): check GROQ_API_KEY.", status=status)
        if status == 403:
            return LLMError("auth", f"The LLM refused access (403: {_server_says(err)}): check that GROQ_API_KEY "
                                    f"may use model {self.model!r}.", status=status)
        if status == 429:
            wait = _retry_after(err.response.headers)
            when = f"try again in {math.ceil(wait)} s" if wait is not None else "try again shortly"
            return LLMError("rate_limit", f"The LLM is rate-limited (429); {when}.", status=status, retry_after=wait)
        if status >= 500:
            return LLMError("server", f"The LLM server failed ({status}); try again later.", status=status)
        # 400, 404, 413, 422...: the server understood us and refused; its own words say why (model, length...).
        return LLMError("bad_response", f"The LLM refused the request ({status}: {_server_says(err)}); check "
                                        f"RAG_LLM_MODEL and the question's length.", status=status)


def _bad_response(why: str) -> LLMError:
    return LLMError("bad_response", f"The LLM answered, but {why}; try again, or check GROQ_BASE_URL points at a "
                                    "chat-completions server.")


def _server_says(err: groq.APIError, limit: int = 200) -> str:
    """The server's own error message, trimmed: helpful, and never a traceback."""
    body = err.body
    message = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(message, dict):
        message = message.get("message")
    text = " ".join(str(message or err.message or "no details").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _retry_after(headers: httpx.Headers) -> float | None:
    """Seconds the server asked us to wait: ``Retry-After`` (seconds), else ``retry-after-ms``."""
    for name, scale in (("retry-after", 1.0), ("retry-after-ms", 0.001)):
        try:
            value = float(headers[name]) * scale
        except (KeyError, ValueError):
            continue
        if value >= 0:
            return value
    return None
