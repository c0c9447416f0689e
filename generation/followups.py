"""Follow-up questions by deterministic rules (no LLM): detection, topics and local rewriting.

A user who asked "What is Adam?" may go on with "who proposed it?". Retrieval cannot find "it", so the follow-up
is rewritten into a standalone question ("who proposed Adam?") before it is searched and answered. A question that
stands alone must never be rewritten, even when it holds a pronoun: "Which command must an application run after
modifying *its* XML file?" ("its" is the application's), "What version of the specification is *this*?" (the
document). The rule-based part lives in small modules, re-exported here:

* :mod:`generation.followup_detection` — :func:`follow_up_verdict` says whether a question needs the conversation
  (a :class:`Verdict`: follow-up, unsure or standalone), :func:`is_follow_up` whether it may. Its docstring holds
  the rules: bare forms, elliptical starters, and references that the question's own words do not resolve.
* :mod:`generation.followup_rewriting` — :func:`rewrite_local` rewrites a follow-up from the last exchange.
* :mod:`generation.followup_topics` — :class:`Turn`, one exchange, and :func:`topic_of`, its subject.
* :mod:`generation.noun_phrases` and :mod:`generation.followup_words` — tokens, noun phrases and the word lists
  the rules read questions with (there is no tagger).

:mod:`generation.followup_resolvers` puts the rules behind the :class:`~generation.followup_resolvers.Resolver`
interface beside a rule-free baseline; the conversation memory, the LLM rewriter and ``resolve`` /
``resolve_with_certainty``, which tie them together, are in :mod:`generation.conversation` (which re-exports these
names). ``python -m evaluation.rewrites`` measures the rules on a set of (history, question) pairs, and
``python -m evaluation.followup_methods`` what they retrieve against simpler baselines.

>>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer.")]
>>> rewrite_local("who proposed it?", adam), follow_up_verdict("how does Adam compute its step size?").value
('who proposed Adam?', 'standalone')

Known limitations of the local rules (the LLM rewriter handles these; ``tests/unit/generation/test_conversation.py`` pins them as
expected failures)
-------------------------------------------------------------------------------------------------------------------
* A reference to something the *answer* introduced resolves to the question's topic: "Which optimizer did the
  Transformer use?" (answer: Adam) + "what were its parameters?" -> "the Transformer's parameters".
* A person in the answer cannot be referred to: "he", "she" only append the topic, and "they" doing what authors do
  ("what did they propose next?" after an answer naming Kingma and Ba) is an unsure verdict left as asked.
* Ellipsis needing reasoning is tagged, not rewritten: "Is the same true for AdaMax?", "and for English-German?"
  when the previous question used another preposition, "why?" after a wh-question.
* "what about X?" replaces the topic, which may not be the phrase the user meant to swap: "How does Adam compare
  to RMSProp?" + "what about AdaGrad?" -> "How does AdaGrad compare to RMSProp?".
* A pronoun meaning the document's subject rather than the last exchange ("How does it cope when the objective
  keeps changing?", asked about the Adam paper after a question on AdaMax) gets the last topic.
* Binding is decided by agreement and clause position alone, not meaning: an earlier noun phrase that agrees is
  taken for the antecedent even when the user meant the previous topic ("How does the decoder use its output?"
  is standalone, even just after a question on the encoder).
* Number agreement is not fixed: "what does it cover?" after a plural topic -> "what does the four functions of
  the AI RMF core cover?".
"""

from __future__ import annotations

from generation.followup_detection import Verdict, follow_up_verdict, is_follow_up
from generation.followup_rewriting import rewrite_local
from generation.followup_topics import Turn, topic_of

__all__ = ["Turn", "Verdict", "follow_up_verdict", "is_follow_up", "rewrite_local", "topic_of"]
