"""The LLM client against a real HTTP server that answers like Groq: the real ``groq`` client, and the real
``openai`` client (provider openai: any OpenAI-compatible server), build the requests, retry, time out and parse the
SSE stream; only the server is fake. Every test runs with both providers, whose errors read alike."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from generation.llm import LLM, NO_KEY, PROVIDERS
from core.errors import LLMError
from settings import Settings
from tests.support.fake_groq import CHAT_PATHS, FakeGroq, Reply, fake_groq  # noqa: F401 - fake_groq is a fixture
from tests.support import ROOT

MODEL = "llama-3.3-70b-versatile"
KEY = "gsk_test_key"
QUESTION = [{"role": "system", "content": "Answer from the passages."},
            {"role": "user", "content": "What is the capital of Freedonia?"}]
ANSWER = "The capital of Freedonia is Fredonia City, founded in 1820 [p. 2]."
FAST_RETRY = {"retry-after-ms": "10"}  # both clients prefer this header to Retry-After: quick retries
# The settings each provider's messages point at.
KEY_SETTING = {"groq": "GROQ_API_KEY", "openai": "RAG_LLM_API_KEY"}
URL_SETTING = {"groq": "GROQ_BASE_URL", "openai": "RAG_LLM_BASE_URL"}


@pytest.fixture(params=PROVIDERS)
def provider(request) -> str:
    return request.param


def make_llm(server: FakeGroq, provider: str, **kw) -> LLM:
    kw = {"timeout": 5.0, "max_retries": 0, **kw}
    return LLM(KEY, MODEL, base_url=server.base_url_for(provider), provider=provider, **kw)


def test_completion_returns_the_text_and_sends_model_messages_limits_and_key(fake_groq, provider):
    fake_groq.script(ANSWER)
    llm = make_llm(fake_groq, provider, max_tokens=321, temperature=0.2)

    assert llm.complete(QUESTION) == ANSWER

    [req] = fake_groq.requests
    assert (req.method, req.path) == ("POST", CHAT_PATHS[provider])
    assert req.authorization == f"Bearer {KEY}"
    assert req.body["model"] == MODEL and req.body["messages"] == QUESTION
    assert (req.body["max_tokens"], req.body["temperature"]) == (321, 0.2)
    assert not req.body.get("stream")


def test_each_call_may_override_the_limits(fake_groq, provider):
    llm = make_llm(fake_groq, provider, max_tokens=700, temperature=0.0)
    llm.complete(QUESTION, max_tokens=50, temperature=1.0)
    assert (fake_groq.requests[0].body["max_tokens"], fake_groq.requests[0].body["temperature"]) == (50, 1.0)


def test_answer_can_depend_on_the_question(provider):
    with FakeGroq(responder=lambda body: f"You asked: {body['messages'][-1]['content']}") as server:
        assert make_llm(server, provider).complete(QUESTION) == "You asked: What is the capital of Freedonia?"


def test_stream_yields_the_answer_in_several_pieces_as_they_arrive(fake_groq, provider):
    fake_groq.script(Reply(ANSWER, deltas=4, chunk_delay=0.1))
    llm = make_llm(fake_groq, provider)

    start = time.monotonic()
    pieces, arrivals = [], []
    for piece in llm.stream(QUESTION):
        pieces.append(piece)
        arrivals.append(time.monotonic() - start)

    assert len(pieces) == 4 and "".join(pieces) == ANSWER
    # Each piece reaches the caller when sent, not once the whole answer is in.
    assert arrivals[0] < 0.1 <= arrivals[-1] - arrivals[0]
    assert fake_groq.requests[0].body["stream"] is True


def test_wrong_key_is_reported_as_auth_without_retrying(provider):
    with FakeGroq(api_key="gsk_the_right_key") as server:
        with pytest.raises(LLMError) as err:
            make_llm(server, provider, max_retries=2).complete(QUESTION)
    assert err.value.kind == "auth" and err.value.status == 401
    assert "401" in str(err.value) and KEY_SETTING[provider] in str(err.value)
    assert "Traceback" not in str(err.value)
    assert len(server.requests) == 1  # a bad key is not worth retrying


def test_rate_limit_is_retried_then_reported_with_the_wait(fake_groq, provider):
    limited = Reply.error(429, retry_after=7, headers=FAST_RETRY)
    fake_groq.script(limited, limited, limited)

    start = time.monotonic()
    with pytest.raises(LLMError) as err:
        make_llm(fake_groq, provider, max_retries=2).complete(QUESTION)

    assert err.value.kind == "rate_limit" and err.value.retry_after == 7
    assert "try again in 7 s" in str(err.value)
    assert len(fake_groq.requests) == 1 + 2
    assert time.monotonic() - start < 2


def test_rate_limit_without_retry_after_still_says_what_to_do(fake_groq, provider):
    fake_groq.script(Reply.error(429))
    with pytest.raises(LLMError, match=r"rate-limited \(429\); try again shortly") as err:
        make_llm(fake_groq, provider).complete(QUESTION)
    assert err.value.retry_after is None


def test_a_retry_after_a_rate_limit_can_succeed(fake_groq, provider):
    fake_groq.script(Reply.error(429, headers=FAST_RETRY), ANSWER)
    assert make_llm(fake_groq, provider, max_retries=1).complete(QUESTION) == ANSWER
    assert len(fake_groq.requests) == 2


def test_client_waits_as_long_as_retry_after_asks(fake_groq, provider):
    fake_groq.script(Reply.error(429, retry_after=0.3), ANSWER)
    start = time.monotonic()
    assert make_llm(fake_groq, provider, max_retries=1).complete(QUESTION) == ANSWER
    assert time.monotonic() - start >= 0.3


def test_server_error_is_reported_after_the_retries(fake_groq, provider):
    fake_groq.script(Reply.error(500, headers=FAST_RETRY), Reply.error(500))
    with pytest.raises(LLMError, match=r"server failed \(500\); try again later") as err:
        make_llm(fake_groq, provider, max_retries=1).stream(QUESTION).__next__()
    assert err.value.kind == "server" and len(fake_groq.requests) == 2


def test_slow_server_times_out(fake_groq, provider):
    fake_groq.script(Reply.slow(3.0))
    start = time.monotonic()
    with pytest.raises(LLMError, match=r"within 0\.5 s.*RAG_LLM_TIMEOUT_SECONDS") as err:
        make_llm(fake_groq, provider, timeout=0.5, max_retries=0).complete(QUESTION)
    assert err.value.kind == "timeout"
    assert time.monotonic() - start < 2
    assert len(fake_groq.requests) == 1


def test_stall_mid_stream_times_out_after_the_first_pieces(fake_groq, provider):
    fake_groq.script(Reply(ANSWER, chunk_delay=3.0))
    pieces = []
    with pytest.raises(LLMError, match="mid-answer") as err:
        for piece in make_llm(fake_groq, provider, timeout=0.5).stream(QUESTION):
            pieces.append(piece)
    assert err.value.kind == "timeout"
    assert pieces == ["The"]  # what arrived before the stall was delivered


def test_malformed_stream_chunk_is_a_bad_response(fake_groq, provider):
    fake_groq.script(Reply.malformed(ANSWER, after=2))
    pieces = []
    with pytest.raises(LLMError, match="malformed chunk") as err:
        for piece in make_llm(fake_groq, provider).stream(QUESTION):
            pieces.append(piece)
    assert err.value.kind == "bad_response"
    assert pieces == ["The", " capital"]


@pytest.mark.parametrize("body", [{"id": "x", "object": "chat.completion", "choices": []}, "<html>oops</html>"])
def test_completion_without_text_is_a_bad_response(fake_groq, body, provider):
    fake_groq.script(Reply(body=body))
    with pytest.raises(LLMError) as err:
        make_llm(fake_groq, provider).complete(QUESTION)
    assert err.value.kind == "bad_response" and URL_SETTING[provider] in str(err.value)


def test_empty_stream_is_a_bad_response(fake_groq, provider):
    fake_groq.script(Reply(""))
    with pytest.raises(LLMError, match="no text") as err:
        list(make_llm(fake_groq, provider).stream(QUESTION))
    assert err.value.kind == "bad_response"


def test_unknown_model_is_refused_with_the_servers_reason(provider):
    with FakeGroq(models=["some-other-model"]) as server:
        with pytest.raises(LLMError, match=f"404: The model `{MODEL}` does not exist.*RAG_LLM_MODEL"):
            make_llm(server, provider).complete(QUESTION)


def test_closed_port_is_a_connection_error(provider):
    with socket.socket() as s:  # a port that was free a moment ago and now has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = LLM(KEY, MODEL, base_url=f"http://127.0.0.1:{port}", timeout=2.0, max_retries=0, provider=provider)
    with pytest.raises(LLMError, match=f"127.0.0.1:{port}") as err:
        llm.complete(QUESTION)
    assert err.value.kind == "connection" and URL_SETTING[provider] in str(err.value)


LLM_ENV = ("GROQ_API_KEY", "RAG_GROQ_API_KEY", "RAG_LLM_API_KEY", "GROQ_BASE_URL", "RAG_GROQ_BASE_URL",
           "RAG_LLM_BASE_URL", "RAG_LLM_PROVIDER")


def test_from_settings_without_a_key_is_none(monkeypatch):
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    assert LLM.from_settings(Settings(_env_file=None)) is None
    assert LLM.from_settings(Settings(_env_file=None, GROQ_API_KEY="  ")) is None
    # Groq needs a key whatever the URL; an OpenAI-compatible server needs a key or a URL.
    assert LLM.from_settings(Settings(_env_file=None, GROQ_BASE_URL="http://127.0.0.1:9")) is None
    assert LLM.from_settings(Settings(_env_file=None, llm_provider="openai")) is None


def test_from_settings_uses_every_llm_setting(fake_groq):
    settings = Settings(_env_file=None, GROQ_API_KEY=KEY, GROQ_BASE_URL=fake_groq.base_url, llm_model="mixtral-8x7b",
                        llm_timeout_seconds=4.0, llm_max_retries=3, llm_max_tokens=128, llm_temperature=0.4)
    llm = LLM.from_settings(settings)
    assert fake_groq.requests == []  # building the client sends nothing
    assert (llm.timeout, llm.max_retries) == (4.0, 3)

    fake_groq.script(ANSWER)
    assert llm.complete(QUESTION) == ANSWER
    [req] = fake_groq.requests
    assert req.authorization == f"Bearer {KEY}"
    assert (req.body["model"], req.body["max_tokens"], req.body["temperature"]) == ("mixtral-8x7b", 128, 0.4)
    assert req.headers["x-stainless-read-timeout"] == "4.0"


def test_from_settings_reaches_an_openai_compatible_server_by_the_rag_llm_names(fake_groq, monkeypatch):
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAG_LLM_PROVIDER", "openai")
    monkeypatch.setenv("RAG_LLM_BASE_URL", fake_groq.base_url_for("openai"))
    monkeypatch.setenv("RAG_LLM_API_KEY", KEY)
    monkeypatch.setenv("GROQ_API_KEY", "gsk_not_this_one")  # the provider-neutral name wins
    llm = LLM.from_settings(Settings(_env_file=None, llm_model="qwen2.5:7b", llm_timeout_seconds=4.0))
    assert llm.provider == "openai" and fake_groq.requests == []

    fake_groq.script(ANSWER)
    assert llm.complete(QUESTION) == ANSWER
    [req] = fake_groq.requests
    assert (req.path, req.authorization, req.body["model"]) == (CHAT_PATHS["openai"], f"Bearer {KEY}", "qwen2.5:7b")
    assert req.headers["x-stainless-read-timeout"] == "4.0"


def test_a_local_openai_compatible_server_needs_no_key(fake_groq, monkeypatch):
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None, llm_provider="openai", RAG_LLM_BASE_URL=fake_groq.base_url_for("openai"))
    fake_groq.script(Reply(ANSWER, deltas=3))
    assert "".join(LLM.from_settings(settings).stream(QUESTION)) == ANSWER
    assert fake_groq.requests[0].authorization == f"Bearer {NO_KEY}"  # a placeholder the SDK insists on


def test_reply_reports_the_tokens_the_server_counted(fake_groq, provider):
    fake_groq.script(ANSWER, Reply(body={"id": "x", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": ANSWER}, "finish_reason": "stop"}]}))
    llm = make_llm(fake_groq, provider)
    counted, uncounted = llm.reply(QUESTION), llm.reply(QUESTION)
    # The fake counts words: 4 + 6 in the messages, 12 in the answer.
    assert (counted.text, counted.total_tokens) == (ANSWER, 4 + 6 + 12)
    assert (uncounted.text, uncounted.total_tokens) == (ANSWER, None)


def test_an_unknown_provider_is_refused():
    with pytest.raises(ValueError, match="unknown LLM provider 'ollama': choose one of groq, openai"):
        LLM(KEY, MODEL, provider="ollama")


def test_a_missing_client_package_is_reported_with_the_pip_command():
    # A fresh interpreter in which `import openai` fails, as when the package is not installed.
    code = ("import sys; sys.modules['openai'] = None\n"
            "from generation.llm import LLM\n"
            "try:\n    LLM('', 'm', base_url='http://127.0.0.1:9/v1', provider='openai')\n"
            "except ImportError as err:\n    print(err)\n")
    root = ROOT
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert out.stdout.strip() == ("RAG_LLM_PROVIDER=openai needs the openai package: pip install "
                                  "openai==3.51.0"), out.stderr
