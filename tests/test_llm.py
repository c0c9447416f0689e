"""The LLM client against a real HTTP server that answers like Groq: the real ``groq`` client builds the requests,
retries, times out and parses the SSE stream; only the server is fake."""

from __future__ import annotations

import socket
import time

import pytest

from generation.llm import LLM, LLMError
from settings import Settings
from tests.fake_groq import CHAT_PATH, FakeGroq, Reply, fake_groq  # noqa: F401 - fake_groq is a fixture

MODEL = "llama-3.3-70b-versatile"
KEY = "gsk_test_key"
QUESTION = [{"role": "system", "content": "Answer from the passages."},
            {"role": "user", "content": "What is the capital of Freedonia?"}]
ANSWER = "The capital of Freedonia is Fredonia City, founded in 1820 [p. 2]."
FAST_RETRY = {"retry-after-ms": "10"}  # groq prefers this header to Retry-After: retries without slowing tests


def make_llm(server: FakeGroq, **kw) -> LLM:
    kw = {"timeout": 5.0, "max_retries": 0, **kw}
    return LLM(KEY, MODEL, base_url=server.base_url, **kw)


def test_completion_returns_the_text_and_sends_model_messages_limits_and_key(fake_groq):
    fake_groq.script(ANSWER)
    llm = make_llm(fake_groq, max_tokens=321, temperature=0.2)

    assert llm.complete(QUESTION) == ANSWER

    [req] = fake_groq.requests
    assert (req.method, req.path) == ("POST", CHAT_PATH)
    assert req.authorization == f"Bearer {KEY}"
    assert req.body["model"] == MODEL and req.body["messages"] == QUESTION
    assert (req.body["max_tokens"], req.body["temperature"]) == (321, 0.2)
    assert not req.body.get("stream")


def test_each_call_may_override_the_limits(fake_groq):
    llm = make_llm(fake_groq, max_tokens=700, temperature=0.0)
    llm.complete(QUESTION, max_tokens=50, temperature=1.0)
    assert (fake_groq.requests[0].body["max_tokens"], fake_groq.requests[0].body["temperature"]) == (50, 1.0)


def test_answer_can_depend_on_the_question():
    with FakeGroq(responder=lambda body: f"You asked: {body['messages'][-1]['content']}") as server:
        assert make_llm(server).complete(QUESTION) == "You asked: What is the capital of Freedonia?"


def test_stream_yields_the_answer_in_several_pieces_as_they_arrive(fake_groq):
    fake_groq.script(Reply(ANSWER, deltas=4, chunk_delay=0.1))
    llm = make_llm(fake_groq)

    start = time.monotonic()
    pieces, arrivals = [], []
    for piece in llm.stream(QUESTION):
        pieces.append(piece)
        arrivals.append(time.monotonic() - start)

    assert len(pieces) == 4 and "".join(pieces) == ANSWER
    # Each piece reaches the caller when sent, not once the whole answer is in.
    assert arrivals[0] < 0.1 <= arrivals[-1] - arrivals[0]
    assert fake_groq.requests[0].body["stream"] is True


def test_wrong_key_is_reported_as_auth_without_retrying():
    with FakeGroq(api_key="gsk_the_right_key") as server:
        with pytest.raises(LLMError) as err:
            make_llm(server, max_retries=2).complete(QUESTION)
    assert err.value.kind == "auth" and err.value.status == 401
    assert "401" in str(err.value) and "GROQ_API_KEY" in str(err.value)
    assert "Traceback" not in str(err.value)
    assert len(server.requests) == 1  # a bad key is not worth retrying


def test_rate_limit_is_retried_then_reported_with_the_wait(fake_groq):
    limited = Reply.error(429, retry_after=7, headers=FAST_RETRY)
    fake_groq.script(limited, limited, limited)

    start = time.monotonic()
    with pytest.raises(LLMError) as err:
        make_llm(fake_groq, max_retries=2).complete(QUESTION)

    assert err.value.kind == "rate_limit" and err.value.retry_after == 7
    assert "try again in 7 s" in str(err.value)
    assert len(fake_groq.requests) == 1 + 2
    assert time.monotonic() - start < 2


def test_rate_limit_without_retry_after_still_says_what_to_do(fake_groq):
    fake_groq.script(Reply.error(429))
    with pytest.raises(LLMError, match=r"rate-limited \(429\); try again shortly") as err:
        make_llm(fake_groq).complete(QUESTION)
    assert err.value.retry_after is None


def test_a_retry_after_a_rate_limit_can_succeed(fake_groq):
    fake_groq.script(Reply.error(429, headers=FAST_RETRY), ANSWER)
    assert make_llm(fake_groq, max_retries=1).complete(QUESTION) == ANSWER
    assert len(fake_groq.requests) == 2


def test_client_waits_as_long_as_retry_after_asks(fake_groq):
    fake_groq.script(Reply.error(429, retry_after=0.3), ANSWER)
    start = time.monotonic()
    assert make_llm(fake_groq, max_retries=1).complete(QUESTION) == ANSWER
    assert time.monotonic() - start >= 0.3


def test_server_error_is_reported_after_the_retries(fake_groq):
    fake_groq.script(Reply.error(500, headers=FAST_RETRY), Reply.error(500))
    with pytest.raises(LLMError, match=r"server failed \(500\); try again later") as err:
        make_llm(fake_groq, max_retries=1).stream(QUESTION).__next__()
    assert err.value.kind == "server" and len(fake_groq.requests) == 2


def test_slow_server_times_out(fake_groq):
    fake_groq.script(Reply.slow(3.0))
    start = time.monotonic()
    with pytest.raises(LLMError, match=r"within 0\.5 s.*RAG_LLM_TIMEOUT_SECONDS") as err:
        make_llm(fake_groq, timeout=0.5, max_retries=0).complete(QUESTION)
    assert err.value.kind == "timeout"
    assert time.monotonic() - start < 2
    assert len(fake_groq.requests) == 1


def test_stall_mid_stream_times_out_after_the_first_pieces(fake_groq):
    fake_groq.script(Reply(ANSWER, chunk_delay=3.0))
    pieces = []
    with pytest.raises(LLMError, match="mid-answer") as err:
        for piece in make_llm(fake_groq, timeout=0.5).stream(QUESTION):
            pieces.append(piece)
    assert err.value.kind == "timeout"
    assert pieces == ["The"]  # what arrived before the stall was delivered


def test_malformed_stream_chunk_is_a_bad_response(fake_groq):
    fake_groq.script(Reply.malformed(ANSWER, after=2))
    pieces = []
    with pytest.raises(LLMError, match="malformed chunk") as err:
        for piece in make_llm(fake_groq).stream(QUESTION):
            pieces.append(piece)
    assert err.value.kind == "bad_response"
    assert pieces == ["The", " capital"]


@pytest.mark.parametrize("body", [{"id": "x", "object": "chat.completion", "choices": []}, "<html>oops</html>"])
def test_completion_without_text_is_a_bad_response(fake_groq, body):
    fake_groq.script(Reply(body=body))
    with pytest.raises(LLMError) as err:
        make_llm(fake_groq).complete(QUESTION)
    assert err.value.kind == "bad_response" and "GROQ_BASE_URL" in str(err.value)


def test_empty_stream_is_a_bad_response(fake_groq):
    fake_groq.script(Reply(""))
    with pytest.raises(LLMError, match="no text") as err:
        list(make_llm(fake_groq).stream(QUESTION))
    assert err.value.kind == "bad_response"


def test_unknown_model_is_refused_with_the_servers_reason():
    with FakeGroq(models=["some-other-model"]) as server:
        with pytest.raises(LLMError, match=f"404: The model `{MODEL}` does not exist.*RAG_LLM_MODEL"):
            make_llm(server).complete(QUESTION)


def test_closed_port_is_a_connection_error():
    with socket.socket() as s:  # a port that was free a moment ago and now has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = LLM(KEY, MODEL, base_url=f"http://127.0.0.1:{port}", timeout=2.0, max_retries=0)
    with pytest.raises(LLMError, match=f"127.0.0.1:{port}") as err:
        llm.complete(QUESTION)
    assert err.value.kind == "connection"


def test_from_settings_without_a_key_is_none(monkeypatch):
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    monkeypatch.delenv("RAG_GROQ_API_KEY", raising=False)
    assert LLM.from_settings(Settings(_env_file=None)) is None
    assert LLM.from_settings(Settings(_env_file=None, GROQ_API_KEY="  ")) is None


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
