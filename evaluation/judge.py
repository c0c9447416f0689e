"""An LLM judge of answered questions: correctness, faithfulness and relevance, each scored 1-5.

For one answered question the judge sees the question, the reference answer of the gold set, the passages the
answerer was shown (numbered ``[Source N]`` as the answering LLM saw them) and the answer. It scores

* correctness: does the answer say what the reference answer says;
* faithfulness: is every claim of the answer supported by the passages (not by the reference, not by the judge's
  own knowledge);
* relevance: does it answer the question asked;

and lists the claims the passages do not support. Abstentions are not judged: the abstention rates measure them.

Passages and the answer are untrusted text (a document can hold "ignore previous instructions..."), so they are
fenced exactly like the answering prompt fences passages: tags carrying a random nonce named in the system prompt,
any look-alike tag inside the text escaped and the nonce itself blanked. The prompt, like every prompt, is in
:mod:`generation.prompts` (:func:`build_judge_messages`, re-exported here); the judge asks through the product's
own client (:class:`generation.llm.LLM`), so it reaches whichever server the settings name, Groq or any
OpenAI-compatible one.

The judge runs at temperature 0 and asks for one JSON object. A reply that holds no such object, or a score
outside 1-5, is recorded as that question's judge error; no score is ever made up. Every call is checked against
a token budget first (:class:`Judge`), so a run cannot spend more than it was allowed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence

from core.errors import LLMError
from generation.llm import LLM
from generation.prompts import JUDGE_SYSTEM_PROMPT, NO_REFERENCE, build_judge_messages

__all__ = ["JUDGE_SYSTEM_PROMPT", "NO_REFERENCE", "build_judge_messages", "parse_verdict", "estimate_tokens",
           "Judge", "JudgeError", "DEFAULT_BUDGET", "COMPLETION_TOKENS", "SCORES"]

DEFAULT_BUDGET = 200_000  # prompt + completion tokens one run may spend on judging
COMPLETION_TOKENS = 400  # longest verdict: three scores, a few unsupported claims and a sentence of reason
SCORES = ("correctness", "faithfulness", "relevance")

_FENCED = re.compile(r"```(?:json)?\s*(.*?)```", re.IGNORECASE | re.DOTALL)


class JudgeError(ValueError):
    """A judge reply that cannot be used; the message says why."""


def parse_verdict(reply: str) -> dict:
    """The judge's scores from its reply: a JSON object, bare or inside a Markdown code fence, maybe with text
    around it.

    Returns
    -------
    dict
        ``correctness``, ``faithfulness``, ``relevance`` (int 1-5), ``unsupported_claims`` (list of str, [] when
        missing) and ``reason`` (str, "" when missing).

    Raises
    ------
    JudgeError
        No JSON object with the three scores, or a score that is not a whole number from 1 to 5.
    """
    obj = _find_object(reply or "")
    if obj is None:
        raise JudgeError("the judge's reply holds no JSON object with the three scores")
    verdict: dict = {}
    for name in SCORES:
        value = obj[name]
        # bool is an int subclass; true would pass for a 1. An integral float (4.0) is a whole number.
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or value != int(value) or not 1 <= value <= 5:
            raise JudgeError(f"the judge's {name} score is {value!r}, not a whole number from 1 to 5")
        verdict[name] = int(value)
    claims = obj.get("unsupported_claims", [])
    if isinstance(claims, str):
        claims = [claims]
    if not isinstance(claims, list):
        raise JudgeError(f"the judge's unsupported_claims is {claims!r}, not a list")
    verdict["unsupported_claims"] = [str(c) for c in claims]
    reason = obj.get("reason", "")
    verdict["reason"] = reason if isinstance(reason, str) else json.dumps(reason)
    return verdict


def _find_object(text: str) -> dict | None:
    """The first JSON object holding every score: inside a code fence first, else anywhere in the text."""
    decoder = json.JSONDecoder()
    for candidate in [m.group(1) for m in _FENCED.finditer(text)] + [text]:
        for start in (i for i, ch in enumerate(candidate) if ch == "{"):
            try:
                obj, _ = decoder.raw_decode(candidate, start)
            except ValueError:
                continue
            if isinstance(obj, dict) and all(name in obj for name in SCORES):
                return obj
    return None


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text``: one token per four characters, rounded up (English prose averages ~4)."""
    return math.ceil(len(text) / 4)


class Judge:
    """Grades answers with an LLM through the product's client, within a token budget.

    Parameters
    ----------
    llm : generation.llm.LLM
        The client; its ``model`` is the judging model, its retries and time limit apply.
    budget : int
        Most prompt + completion tokens all calls together may use.
    max_completion_tokens : int
        ``max_tokens`` of each call; counted in full when checking whether a call still fits the budget.

    Attributes
    ----------
    model : str
        The judging model (``llm.model``).
    tokens_used : int
        Tokens spent so far: the server's reported usage, or an estimate (:func:`estimate_tokens`) when a reply
        carries none or the request failed.
    judged, errors, skipped_budget : int
        Questions scored; questions whose call failed or whose reply was unusable; questions not sent because the
        call could have overrun the budget.
    """

    def __init__(self, llm: LLM, budget: int = DEFAULT_BUDGET, max_completion_tokens: int = COMPLETION_TOKENS) -> None:
        if budget < 0:
            raise ValueError(f"the judge's token budget must be at least 0, got {budget}")
        self.llm = llm
        self.model = llm.model
        self.budget = budget
        self.max_completion_tokens = max_completion_tokens
        self.tokens_used = 0
        self.tokens_estimated = 0  # the part of tokens_used that is an estimate
        self.judged = self.errors = self.skipped_budget = 0

    @classmethod
    def from_settings(cls, settings, model: str | None = None, budget: int = DEFAULT_BUDGET) -> Judge | None:
        """The judge on the settings' LLM server (:meth:`generation.llm.LLM.from_settings`), or None when no LLM
        is configured (nothing can judge).

        Parameters
        ----------
        settings : settings.Settings
        model : the judging model; the settings' ``llm_model`` when None.
        budget : see the class.
        """
        llm = LLM.from_settings(settings, model=model)
        return cls(llm, budget) if llm is not None else None

    def judge(self, question: str, reference: str, answer: str, passages: Sequence[tuple[str, str]]) -> dict:
        """Grade one answer (see :func:`build_judge_messages` for the arguments).

        Returns
        -------
        dict
            The verdict (:func:`parse_verdict`) plus ``tokens``; or ``{"error": why, ...}`` when the call failed
            or the reply was unusable; or ``{"skipped": "budget", ...}`` when no call was made because it could
            have overrun the budget. Never raises for a failed call or a bad reply.
        """
        messages = build_judge_messages(question, reference, answer, passages)
        prompt = estimate_tokens("".join(m["content"] for m in messages))
        # The completion is counted at its cap: the reply's length is unknown until it has been paid for.
        if self.tokens_used + prompt + self.max_completion_tokens > self.budget:
            self.skipped_budget += 1
            return {"skipped": "budget", "needed": prompt + self.max_completion_tokens,
                    "remaining": self.budget - self.tokens_used}
        try:
            reply = self.llm.reply(messages, temperature=0, max_tokens=self.max_completion_tokens)
        except LLMError as err:  # a reply without text included
            # The server may have read the prompt before failing, so it is counted as spent.
            self._spend(prompt, estimated=True)
            self.errors += 1
            return {"error": f"judge request failed: {_describe(err)}", "tokens": prompt}
        tokens, estimated = reply.total_tokens, reply.total_tokens is None
        if estimated:
            tokens = prompt + estimate_tokens(reply.text)
        self._spend(tokens, estimated)
        try:
            verdict = parse_verdict(reply.text)
        except JudgeError as err:
            self.errors += 1
            return {"error": str(err), "reply": reply.text[:500], "tokens": tokens}
        self.judged += 1
        return {**verdict, "tokens": tokens}

    def _spend(self, tokens: int, estimated: bool) -> None:
        self.tokens_used += tokens
        if estimated:
            self.tokens_estimated += tokens

    def status(self) -> dict:
        """What the judge did, for the report."""
        return {"model": self.model, "budget": self.budget, "tokens_used": self.tokens_used,
                "tokens_estimated": self.tokens_estimated, "judged": self.judged, "errors": self.errors,
                "skipped_budget": self.skipped_budget, "temperature": 0,
                "max_completion_tokens": self.max_completion_tokens}


def _describe(err: LLMError) -> str:
    """``InternalServerError 500: The LLM server failed (500); ...``: the client's own name for the failure (both
    SDKs name theirs alike), the status, and the product's message."""
    cause = err.__cause__ or err
    return f"{type(cause).__name__}{f' {err.status}' if err.status else ''}: {err}"
