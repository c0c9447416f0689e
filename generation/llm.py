"""One client for chat completions, whichever server answers: Groq, or any server speaking the OpenAI protocol.

:class:`LLM` is what the product calls (``complete``, ``reply``, ``stream``); behind it sits one backend per
provider, each a thin wrapper of that provider's own SDK (``RAG_LLM_PROVIDER``):

========  ==========================  ===========================================================================
provider  package                     server
========  ==========================  ===========================================================================
groq      ``groq`` (the default)      Groq's, or any at ``<base URL>/openai/v1/chat/completions`` (the SDK adds
                                      ``/openai/v1`` to every base URL)
openai    ``openai``                  any at ``<base URL>/chat/completions``, the base URL ending in ``/v1``:
                                      OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio
========  ==========================  ===========================================================================

Both SDKs come from the same generator, so they share their exception names, retries (408, 409, 429, 5xx,
timeouts, connection errors; ``Retry-After`` obeyed) and streaming; what differs (the client, its HTTP library,
the settings named in messages) is the backend's. Every failure surfaces as one :class:`LLMError` whose ``kind``
callers can branch on and whose message tells the user what went wrong and what to do, the same for both
providers, so no caller knows either SDK's exception tree.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator
from dataclasses import dataclass

from core.errors import LLMError

NO_KEY = "no-key"  # sent to an OpenAI-compatible server configured without a key: the SDK insists on one


@dataclass(frozen=True)
class Completion:
    """A whole reply: its text and the tokens (prompt + completion) the server says it used, None if it did not."""

    text: str
    total_tokens: int | None = None


class Backend:
    """What differs between providers: the SDK's client, its exception module and HTTP library, and the settings
    a message should point at. A subclass names them and builds the client.

    The SDK is imported when its backend is built, not with this module: only the chosen one is loaded (the
    ``openai`` package alone takes about a second to import), and a missing one is reported with the pip command.
    """

    name = ""
    package = ""  # the pip requirement
    modules = ("", "")  # the SDK, and the HTTP library it reads with (its errors escape the SDK mid-stream)
    base_error = ""  # the SDK's name for the base of every exception it raises
    key_setting = ""  # the environment variable a user fixes for a bad key
    url_setting = ""  # ... and for a wrong server

    def __init__(self, api_key: str | None, base_url: str | None, timeout: float, max_retries: int) -> None:
        try:
            self.sdk, self.transport = (importlib.import_module(name) for name in self.modules)
        except ImportError as err:
            raise ImportError(f"RAG_LLM_PROVIDER={self.name} needs the {self.name} package: pip install "
                              f"{self.package}") from err
        self.sdk_error: type[Exception] = getattr(self.sdk, self.base_error)
        self.client = self.build(api_key, base_url, timeout, max_retries)
        self.base_url = str(self.client.base_url)

    def build(self, api_key: str | None, base_url: str | None, timeout: float, max_retries: int):
        raise NotImplementedError

    def create(self, **request):
        return self.client.chat.completions.create(**request)


class GroqBackend(Backend):
    """Groq through the ``groq`` SDK; ``base_url`` is the server root (None: ``GROQ_BASE_URL`` or Groq's own)."""

    name, package, modules, base_error = "groq", "groq==1.7.0", ("groq", "httpx"), "GroqError"
    key_setting, url_setting = "GROQ_API_KEY", "GROQ_BASE_URL"

    def build(self, api_key, base_url, timeout, max_retries):
        return self.sdk.Groq(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)


class OpenAIBackend(Backend):
    """Any OpenAI-compatible server through the ``openai`` SDK; ``base_url`` ends in ``/v1`` (None: OpenAI's).
    A server that wants no key is sent :data:`NO_KEY`."""

    name, package, modules, base_error = "openai", "openai==3.51.0", ("openai", "httpx2"), "OpenAIError"
    key_setting, url_setting = "RAG_LLM_API_KEY", "RAG_LLM_BASE_URL"

    def build(self, api_key, base_url, timeout, max_retries):
        return self.sdk.OpenAI(api_key=api_key or NO_KEY, base_url=base_url, timeout=timeout,
                               max_retries=max_retries)


BACKENDS: dict[str, type[Backend]] = {"groq": GroqBackend, "openai": OpenAIBackend}
PROVIDERS = tuple(BACKENDS)  # the values of RAG_LLM_PROVIDER (settings.py checks the same two)


def make_backend(provider: str, api_key: str | None, base_url: str | None, timeout: float,
                 max_retries: int) -> Backend:
    """The backend for ``provider`` (one of :data:`PROVIDERS`).

    Raises
    ------
    ValueError
        An unknown provider.
    ImportError
        The provider's package is not installed; the message gives the pip command.
    """
    try:
        backend = BACKENDS[provider]
    except KeyError:
        raise ValueError(f"unknown LLM provider {provider!r}: choose one of {', '.join(PROVIDERS)}") from None
    return backend(api_key, base_url, timeout, max_retries)


def is_configured(settings) -> bool:
    """Whether ``settings`` describe an LLM: a key is set, or the provider is openai and a base URL is set (a
    local server may need no key). Without one the product answers offline, quoting the document."""
    if (settings.groq_api_key or "").strip():
        return True
    return settings.llm_provider == "openai" and bool((settings.groq_base_url or "").strip())


class LLM:
    """Chat completions through the provider's SDK, with its retries and time limit.

    Parameters
    ----------
    api_key : str
        The server's API key, sent as ``Authorization: Bearer <key>``; provider openai accepts "" (a local server).
    model : str
        Model name, e.g. ``"llama-3.3-70b-versatile"``.
    base_url : str, optional
        groq: the server root, the client appends ``/openai/v1/chat/completions`` (None: ``GROQ_BASE_URL`` or
        Groq's own server). openai: the URL up to ``/v1``, the client appends ``/chat/completions``.
    timeout : float
        Seconds allowed for each connect, read and write of a request (not a total deadline: a stream that keeps
        delivering chunks may run longer).
    max_retries : int
        Retries of a request that failed with 408, 409, 429, 5xx, a timeout or a connection error.
    max_tokens, temperature
        Defaults for every call; each call may override them.
    provider : str
        One of :data:`PROVIDERS`; see the module's table.
    """

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 max_retries: int = 1, max_tokens: int = 700, temperature: float = 0.0,
                 provider: str = "groq") -> None:
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.provider = provider
        self._backend = make_backend(provider, api_key, base_url, timeout, max_retries)
        self.base_url = self._backend.base_url

    @classmethod
    def from_settings(cls, settings, *, model: str | None = None) -> LLM | None:
        """The client the settings describe, or None when they describe none (:func:`is_configured`; the app then
        answers offline).

        Parameters
        ----------
        settings : settings.Settings
            Reads ``llm_provider``, ``groq_api_key``, ``groq_base_url``, ``llm_model``, ``llm_timeout_seconds``,
            ``llm_max_retries``, ``llm_max_tokens`` and ``llm_temperature``.
        model : str, optional
            Another model than ``llm_model`` on the same server (the evaluation's judge).
        """
        if not is_configured(settings):
            return None
        return cls((settings.groq_api_key or "").strip(), model or settings.llm_model,
                   base_url=(settings.groq_base_url or "").strip() or None, timeout=settings.llm_timeout_seconds,
                   max_retries=settings.llm_max_retries, max_tokens=settings.llm_max_tokens,
                   temperature=settings.llm_temperature, provider=settings.llm_provider)

    def complete(self, messages: list[dict], *, max_tokens: int | None = None,
                 temperature: float | None = None) -> str:
        """The model's reply to ``messages`` (OpenAI-style ``{"role", "content"}`` dicts), in one piece.

        Raises
        ------
        LLMError
            On any failure, after the client's retries; ``kind`` "bad_response" when the reply holds no text.
        """
        return self.reply(messages, max_tokens=max_tokens, temperature=temperature).text

    def reply(self, messages: list[dict], *, max_tokens: int | None = None,
              temperature: float | None = None) -> Completion:
        """:meth:`complete` with the tokens the server reports having used (for callers keeping a budget)."""
        try:
            response = self._create(messages, max_tokens, temperature, stream=False)
        except self._backend.sdk_error as err:
            raise self._error(err) from err
        except ValueError as err:  # a 200 whose body is not JSON
            raise self._bad_response("its reply was not valid JSON") from err
        # The clients build models without validation, so check the shape ourselves.
        choices = getattr(response, "choices", None)
        if not choices:
            raise self._bad_response("its reply held no choices")
        content = getattr(getattr(choices[0], "message", None), "content", None)
        if not isinstance(content, str) or not content:
            raise self._bad_response("its reply held no text")
        total = getattr(getattr(response, "usage", None), "total_tokens", None)
        valid = isinstance(total, int) and not isinstance(total, bool) and total >= 0
        return Completion(content, total if valid else None)

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
        sdk, transport = self._backend.sdk, self._backend.transport
        try:
            chunks = self._create(messages, max_tokens, temperature, stream=True)
        except self._backend.sdk_error as err:
            raise self._error(err) from err
        sent = False
        # Closing the stream releases the connection even when the caller stops reading early.
        with chunks:
            try:
                for chunk in chunks:
                    choices = getattr(chunk, "choices", None)
                    if choices is None:
                        raise self._bad_response("a streamed chunk held no choices")
                    if not choices:  # e.g. a usage-only chunk
                        continue
                    delta = getattr(choices[0], "delta", None)
                    text = getattr(delta, "content", None)
                    if text is not None and not isinstance(text, str):
                        raise self._bad_response("a streamed chunk's text was not a string")
                    if text:
                        sent = True
                        yield text
            # Reading the body fails in the HTTP library (groq lets it through, openai wraps it): both mean the
            # same. Order matters: a timeout is a kind of connection error in each.
            except (sdk.APITimeoutError, transport.TimeoutException) as err:
                raise LLMError("timeout", f"The LLM stalled for more than {self.timeout:g} s mid-answer; try "
                                          "again, or raise RAG_LLM_TIMEOUT_SECONDS.") from err
            except (sdk.APIConnectionError, transport.HTTPError) as err:
                raise LLMError("connection", f"The connection to the LLM at {self.base_url} broke mid-answer; "
                                             "try again.") from err
            except self._backend.sdk_error as err:
                raise self._error(err) from err
            except ValueError as err:  # json.JSONDecodeError from a malformed `data:` line
                raise self._bad_response("it streamed a malformed chunk") from err
        if not sent:
            raise self._bad_response("its reply held no text")

    def _create(self, messages, max_tokens, temperature, *, stream: bool):
        return self._backend.create(
            model=self.model, messages=messages, stream=stream,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            temperature=self.temperature if temperature is None else temperature,
        )

    def _error(self, err: Exception) -> LLMError:
        """The LLMError an SDK exception stands for."""
        sdk, backend = self._backend.sdk, self._backend
        # Order matters: APITimeoutError subclasses APIConnectionError.
        if isinstance(err, sdk.APITimeoutError):
            return self._timeout()
        if isinstance(err, sdk.APIConnectionError):
            return LLMError("connection", f"Could not reach the LLM at {self.base_url}; check the network and "
                                          f"{backend.url_setting}.")
        if isinstance(err, sdk.APIResponseValidationError):
            return self._bad_response("its reply did not match the chat-completions format")
        if isinstance(err, sdk.APIStatusError):
            return self._status_error(err)
        if isinstance(err, sdk.APIError):  # an error event inside a stream
            return LLMError("server", f"The LLM failed mid-answer ({_server_says(err)}); try again later.")
        return self._bad_response("the client could not read its reply")

    def _timeout(self) -> LLMError:
        tries = self.max_retries + 1
        return LLMError("timeout", f"The LLM did not answer within {self.timeout:g} s ({tries} attempt"
                                   f"{'s' if tries > 1 else ''}); try again, or raise RAG_LLM_TIMEOUT_SECONDS.")

    def _status_error(self, err) -> LLMError:
        status, key = err.status_code, self._backend.key_setting
        if status == 401:
            return LLMError("auth", f"The LLM rejected the API key (401): check {key}.", status=status)
        if status == 403:
            return LLMError("auth", f"The LLM refused access (403: {_server_says(err)}): check that {key} may use "
                                    f"model {self.model!r}.", status=status)
        if status == 429:
            wait = _retry_after(err.response.headers)
            when = f"try again in {math.ceil(wait)} s" if wait is not None else "try again shortly"
            return LLMError("rate_limit", f"The LLM is rate-limited (429); {when}.", status=status, retry_after=wait)
        if status >= 500:
            return LLMError("server", f"The LLM server failed ({status}); try again later.", status=status)
        # 400, 404, 413, 422...: the server understood us and refused; its own words say why (model, length...).
        return LLMError("bad_response", f"The LLM refused the request ({status}: {_server_says(err)}); check "
                                        f"RAG_LLM_MODEL and the question's length.", status=status)

    def _bad_response(self, why: str) -> LLMError:
        return LLMError("bad_response", f"The LLM answered, but {why}; try again, or check "
                                        f"{self._backend.url_setting} points at a chat-completions server.")


def _server_says(err, limit: int = 200) -> str:
    """The server's own error message (of an SDK ``APIError``), trimmed: helpful, and never a traceback."""
    body = err.body
    message = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(message, dict):
        message = message.get("message")
    text = " ".join(str(message or err.message or "no details").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _retry_after(headers) -> float | None:
    """Seconds the server asked us to wait: ``Retry-After`` (seconds), else ``retry-after-ms``."""
    for name, scale in (("retry-after", 1.0), ("retry-after-ms", 0.001)):
        try:
            value = float(headers[name]) * scale
        except (KeyError, ValueError):
            continue
        if value >= 0:
            return value
    return None
