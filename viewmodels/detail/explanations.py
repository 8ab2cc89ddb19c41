"""One line for each technical field of the detail, saying what it means to a person.

The seed's detail must show the pinned agent and policy, the requested scopes,
the finite limits, the failure policy and the revision; they are kept, under
"Advanced", each with a sentence a person who never read the wire contract can
follow. A limit this client does not model gets no sentence rather than a guess.
Labels and sentences are English (marked ``N_``), keyed by the English label;
the detail shows them in the person's language (``meaning``).
"""

from __future__ import annotations

from viewmodels.language import N_, Words

ADVANCED_HEADING = N_("Advanced")

EXPLANATIONS = {
    N_("Revision"): N_("Goes up by one each time the schedule's definition is saved"),
    N_("Failure policy"): N_("Failed firings in a row so far, and how many pause the schedule"),
    N_("Requested scopes"): N_("The permissions each run asks its owner for"),
    N_("Agent"): N_("The agent, and its version, that every run uses"),
    N_("Policy profile"): N_("The set of rules the agent runs under"),
    N_("Max steps"): N_("The most steps one run may take"),
    N_("Max model calls"): N_("The most calls to the language model one run may make"),
    N_("Max tool calls"): N_("The most tool uses one run may make"),
    N_("Max cost"): N_("The most one run may spend, in the agent platform's cost units"),
    N_("Reserved steps"): N_("Steps set aside from the limit before a run starts"),
    N_("Reserved model calls"): N_("Model calls set aside from the limit before a run starts"),
    N_("Reserved cost"): N_(
        "The amount set aside from the spending limit before a run starts,"
        " in the agent platform's cost units"
    ),
    N_("Run timeout"): N_("How long one run may take before it is stopped"),
    N_("Misfire grace"): N_("How late a firing may still run after the server was down"),
}


def explanation(label: str) -> str | None:
    """What the field labelled ``label`` (in English) means, in English."""
    return EXPLANATIONS.get(label)


def meaning(shown: str, words: Words) -> str | None:
    """What the field labelled ``shown`` (in ``words``' language) means, in that language."""
    for label, sentence in EXPLANATIONS.items():
        if shown in (label, words.gettext(label)):
            return words.gettext(sentence)
    return None
