"""What the tests read from an answer's stream: each event as ``(kind, payload)``, the payload being a delta's
text, a reset's reason, or the final answer."""

from __future__ import annotations


def pairs(events) -> list[tuple[str, object]]:
    def payload(event):
        return {"delta": lambda: event.text, "reset": lambda: event.reason}.get(event.kind, lambda: event)()

    return [(event.kind, payload(event)) for event in events]
