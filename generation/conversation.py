"""Follow-up questions: per-conversation memory and rewriting follow-ups into standalone questions.

A user who asked "What is Adam?" may go on with "who proposed it?". Retrieval cannot find "it", so the follow-up
is rewritten into a standalone question ("who proposed Adam?") before it is searched and answered. Three parts:

* :class:`Conversations` remembers the last few exchanges (:class:`Turn`) of each conversation, thread-safely,
  forgetting idle conversations and dropping the least recently used when there are too many.
* :func:`follow_up_verdict` / :func:`is_follow_up` and :func:`rewrite_local` detect and rewrite follow-ups with
  deterministic rules (no LLM). They, :class:`Turn` and :func:`topic_of` come from :mod:`generation.followups`,
  whose modules' docstrings explain the rules, and are re-exported here.
* :class:`LLMRewriter` asks an LLM to do the rewrite and falls back to the rules on any failure.
* :func:`resolve_with_certainty` ties it together and says how sure it is (a :class:`Resolution`); :func:`resolve`
  is the same without the certainty. Both use a resolver of :mod:`generation.followup_resolvers` (by default the
  rules, which a measurement on retrieval chose over simpler baselines): a question the rules find standalone is
  never changed and never costs an LLM request; a follow-up, or a question the rules are unsure about, goes to the
  LLM when one is configured (it sees the history and may return the question unchanged), else to the local rules.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from generation.followup_resolvers import DEFAULT_RESOLVER, Resolution, Resolver, make_resolver
from generation.followups import Turn, Verdict, follow_up_verdict, is_follow_up, rewrite_local, topic_of
from generation.prompts import REWRITE_SYSTEM, rewrite_messages

__all__ = ["Turn", "Conversations", "Verdict", "follow_up_verdict", "is_follow_up", "rewrite_local", "topic_of",
           "LLMRewriter", "Resolution", "Resolver", "make_resolver", "resolve", "resolve_with_certainty", "METHODS",
           "REWRITE_SYSTEM"]

log = logging.getLogger(__name__)

METHODS = ("unchanged", "local", "llm")

# --------------------------------------------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------------------------------------------

_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
_FIELD_CHARS = 2000  # each stored text is cut to this: the memory stays bounded whatever the answers' length


class _Entry:
    __slots__ = ("turns", "used")

    def __init__(self, turns: int, used: float) -> None:
        self.turns: deque[Turn] = deque(maxlen=turns)
        self.used = used


class Conversations:
    """Thread-safe memory of the last ``turns`` exchanges of each conversation.

    A conversation idle for ``ttl_seconds`` is forgotten; when more than ``max_conversations`` exist, the least
    recently used is dropped. Reading a conversation's history counts as using it.

    Parameters
    ----------
    turns : int
        Exchanges remembered per conversation; 0 remembers nothing.
    ttl_seconds : float
        Idle time after which a conversation is forgotten.
    max_conversations : int
        Most conversations kept at once.
    clock : callable
        Seconds, monotonic; injectable for tests.
    """

    def __init__(self, turns: int = 3, ttl_seconds: float = 3600, max_conversations: int = 1000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if turns < 0:
            raise ValueError(f"turns must be 0 or more, not {turns}")
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be positive, not {ttl_seconds}")
        if max_conversations < 1:
            raise ValueError(f"max_conversations must be at least 1, not {max_conversations}")
        self.turns = turns
        self.ttl_seconds = ttl_seconds
        self.max_conversations = max_conversations
        self._clock = clock
        self._lock = threading.Lock()
        self._data: OrderedDict[str, _Entry] = OrderedDict()  # least recently used first

    @classmethod
    def from_settings(cls, settings) -> Conversations:
        """The memory ``settings`` describe (``conversation_turns``, ``_ttl_seconds``, ``_max``)."""
        return cls(settings.conversation_turns, settings.conversation_ttl_seconds, settings.conversation_max)

    @staticmethod
    def new_id() -> str:
        """A fresh, unguessable conversation id (22 URL-safe characters)."""
        return secrets.token_urlsafe(16)

    @staticmethod
    def validate_id(conversation_id) -> str:
        """``conversation_id`` if it is 8 to 64 letters, digits, "-" or "_"; else ValueError (the id not echoed)."""
        if not isinstance(conversation_id, str):
            raise ValueError(f"conversation_id must be a string, not {type(conversation_id).__name__}")
        if not _ID.fullmatch(conversation_id):
            raise ValueError(f"conversation_id must be 8 to 64 characters, each a letter, digit, '-' or '_' (got "
                             f"{len(conversation_id)} characters); start a new conversation to get a valid id")
        return conversation_id

    def history(self, conversation_id: str) -> list[Turn]:
        """The conversation's remembered turns, oldest first; [] for an unknown or expired id."""
        self.validate_id(conversation_id)
        with self._lock:
            now = self._clock()
            self._expire(now)
            entry = self._data.get(conversation_id)
            if entry is None:
                return []
            entry.used = now
            self._data.move_to_end(conversation_id)
            return list(entry.turns)

    def add(self, conversation_id: str, turn: Turn) -> None:
        """Remember ``turn`` as the conversation's latest exchange (creating the conversation if needed)."""
        self.validate_id(conversation_id)
        if not isinstance(turn, Turn):
            raise TypeError(f"turn must be a Turn, not {type(turn).__name__}")
        if self.turns == 0:
            return
        turn = Turn(*(text[:_FIELD_CHARS] for text in (turn.question, turn.resolved, turn.answer, turn.topic)))
        with self._lock:
            now = self._clock()
            self._expire(now)
            entry = self._data.get(conversation_id)
            if entry is None:
                entry = self._data[conversation_id] = _Entry(self.turns, now)
            entry.turns.append(turn)
            entry.used = now
            self._data.move_to_end(conversation_id)
            while len(self._data) > self.max_conversations:
                self._data.popitem(last=False)

    def reset(self, conversation_id: str) -> None:
        """Forget the conversation (a no-op for an unknown id)."""
        self.validate_id(conversation_id)
        with self._lock:
            self._data.pop(conversation_id, None)

    def __len__(self) -> int:
        """Conversations currently remembered (expired ones excluded)."""
        with self._lock:
            self._expire(self._clock())
            return len(self._data)

    def _expire(self, now: float) -> None:
        # Entries are kept in order of last use, so the expired ones are all at the front.
        while self._data:
            oldest = next(iter(self._data.values()))
            if now - oldest.used < self.ttl_seconds:
                break
            self._data.popitem(last=False)


# --------------------------------------------------------------------------------------------------------------
# LLM rewriting
# --------------------------------------------------------------------------------------------------------------

# The prompt is generation.prompts.rewrite_messages (REWRITE_SYSTEM: the rules).
_PREFIX = re.compile(r"^(?:standalone|rewritten|reformulated|resolved)?\s*question\s*:\s*", re.I)


class LLMRewriter:
    """Rewrites follow-ups into standalone questions with an LLM, falling back to :func:`rewrite_local`.

    Parameters
    ----------
    llm : generation.llm.LLM
        Anything with ``complete(messages, *, max_tokens, temperature) -> str``.
    max_tokens : int
        Longest rewrite requested.
    max_chars : int
        A reply longer than this (or than twice the question, if that is more) is taken for an answer, not a
        question, and the local rewrite is used instead.
    """

    def __init__(self, llm, *, max_tokens: int = 120, max_chars: int = 300) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.max_chars = max_chars

    def rewrite(self, question: str, history: Sequence[Turn]) -> str:
        """The standalone question; never raises (any failure falls back to the local rewrite)."""
        return self.rewrite_with_method(question, history)[0]

    def rewrite_with_method(self, question: str, history: Sequence[Turn]) -> tuple[str, str]:
        """(standalone question, method), method one of ``METHODS``; never raises."""
        if not history:
            return question, "unchanged"
        asked = self.ask(question, history)
        if asked is None:
            return _local(question, history)
        return asked

    def ask(self, question: str, history: Sequence[Turn]) -> tuple[str, str] | None:
        """The LLM's (standalone question, "llm" or "unchanged"), or None when it failed or replied unusably."""
        try:
            reply = self.llm.complete(rewrite_messages(question, history), max_tokens=self.max_tokens,
                                     temperature=0.0)
        except Exception as err:  # noqa: BLE001 - an LLMError above all, but a rewrite must never fail the question
            log.warning("follow-up rewrite by LLM failed (%s); using the local rules", err)
            return None
        cleaned = self._clean(reply, question)
        if cleaned is None:
            log.warning("follow-up rewrite by LLM unusable (%r); using the local rules", str(reply)[:80])
            return None
        if cleaned == " ".join(question.split()):
            return question, "unchanged"  # the LLM found that it stands alone
        return cleaned, "llm"

    def _clean(self, reply, question: str) -> str | None:
        if not isinstance(reply, str):
            return None
        text = reply.strip().strip("`").strip()
        text = _PREFIX.sub("", text).strip()
        if len(text) >= 2 and text[0] in "\"'\u201c" and text[-1] in "\"'\u201d":
            text = text[1:-1].strip()
        if not text or "\n" in text:
            return None  # empty, or a question followed by an explanation it was asked not to give
        if len(text) > max(self.max_chars, 2 * len(question)):
            return None
        return " ".join(text.split())


def _local(question: str, history: Sequence[Turn]) -> tuple[str, str]:
    rewritten = rewrite_local(question, history)
    return rewritten, ("unchanged" if rewritten == question else "local")


def resolve_with_certainty(question: str, history: Sequence[Turn], llm_rewriter: LLMRewriter | None = None, *,
                           resolver: str = DEFAULT_RESOLVER) -> Resolution:
    """The standalone form of ``question`` asked after ``history`` (oldest first), and how sure it is.

    ``resolver`` names the way (:func:`generation.followup_resolvers.make_resolver`; the product's setting
    ``followup_resolver``). The default, the rules: a question they find standalone (:func:`follow_up_verdict`) is
    returned unchanged and never costs an LLM request. Any other question (a follow-up, or one the rules are unsure
    about) is rewritten by ``llm_rewriter`` when given, which sees the history and may return it unchanged; on an
    LLM failure, and without a rewriter, by :func:`rewrite_local`, or joined to the previous question when the rules
    cannot rewrite it. ``certain`` is False when the rules were unsure and no LLM decided: the caller should then
    search both the question as asked and the resolution and keep the one that retrieves better.

    Examples
    --------
    >>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer [p. 1].")]
    >>> resolve_with_certainty("who proposed it?", adam)
    Resolution(question='who proposed Adam?', method='local', certain=True)
    >>> resolve_with_certainty("Why does Adam divide its update by the second moment?", adam).method
    'unchanged'
    >>> resolve_with_certainty("What does it say about sparse gradients?", adam).certain
    False
    """
    return make_resolver(resolver, llm_rewriter).resolve(question, history)


def resolve(question: str, history: Sequence[Turn], llm_rewriter: LLMRewriter | None = None, *,
            resolver: str = DEFAULT_RESOLVER) -> tuple[str, str]:
    """(standalone question, method) for ``question`` asked after ``history`` (oldest first).

    :func:`resolve_with_certainty` without the certainty: method is "unchanged" (a standalone question, no
    history, or a rewrite that changed nothing), "local" (:func:`rewrite_local`, also the LLM's fallback) or
    "llm". A question the rules find standalone never costs an LLM request.
    """
    r = resolve_with_certainty(question, history, llm_rewriter, resolver=resolver)
    return r.question, r.method
