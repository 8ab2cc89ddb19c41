"""One line for each technical field of the detail, saying what it means to a person.

The seed's detail must show the pinned agent and policy, the requested scopes,
the finite limits, the failure policy and the revision; they are kept, under
"Advanced", each with a sentence a person who never read the wire contract can
follow. A limit this client does not model gets no sentence rather than a guess.
"""

from __future__ import annotations

ADVANCED_HEADING = "Advanced"

EXPLANATIONS = {
    "Revision": "Goes up by one each time the schedule's definition is saved",
    "Failure policy": "Failed firings in a row so far, and how many pause the schedule",
    "Requested scopes": "The permissions each run asks its owner for",
    "Agent": "The agent, and its version, that every run uses",
    "Policy profile": "The set of rules the agent runs under",
    "Max steps": "The most steps one run may take",
    "Max model calls": "The most calls to the language model one run may make",
    "Max tool calls": "The most tool uses one run may make",
    "Max cost": "The most one run may spend, in the agent platform's cost units",
    "Reserved steps": "Steps set aside from the limit before a run starts",
    "Reserved model calls": "Model calls set aside from the limit before a run starts",
    "Reserved cost": (
        "The amount set aside from the spending limit before a run starts,"
        " in the agent platform's cost units"
    ),
    "Run timeout": "How long one run may take before it is stopped",
    "Misfire grace": "How late a firing may still run after the server was down",
}


def explanation(label: str) -> str | None:
    return EXPLANATIONS.get(label)
