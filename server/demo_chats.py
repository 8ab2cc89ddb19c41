"""The demo's website sign-ins, folders and plain chat conversations.

A profile key ``missing`` in ``demo_schedules`` names a sign-in that no longer
exists for the principal, so the picker shows "no longer available".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DemoProfile:
    key: str
    display_name: str
    state: str
    origins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DemoChat:
    key: str
    title: str
    folder: str | None
    hours_ago: float
    turns: tuple[tuple[str, str], ...]


PROFILES: tuple[DemoProfile, ...] = (
    DemoProfile(
        "work-google",
        "Work Google",
        "READY",
        ("https://mail.google.com", "https://calendar.google.com"),
    ),
    DemoProfile("github", "GitHub", "READY", ("https://github.com",)),
    DemoProfile("linear", "Linear", "READY", ("https://linear.app",)),
    DemoProfile("notion", "Notion workspace", "EXPIRED", ("https://www.notion.so",)),
    DemoProfile(
        "personal-google",
        "Personal Google",
        "PENDING",
        ("https://mail.google.com", "https://drive.google.com"),
    ),
    DemoProfile("jira", "Old Jira", "REVOKED", ("https://acme.atlassian.net",)),
)

FOLDERS: tuple[tuple[str, str], ...] = (
    ("lisbon", "Trip to Lisbon"),
    ("kitchen", "Kitchen renovation"),
    ("jobs", "Job search"),
)

CHATS: tuple[DemoChat, ...] = (
    DemoChat(
        "packing",
        "Packing list for Lisbon",
        "lisbon",
        6,
        (
            (
                "Four days in Lisbon in early December, cabin bag only. What should I pack?",
                "For four days in December (12-16 °C, likely one or two rainy days):\n\n"
                "- a light waterproof jacket and a warm layer\n- comfortable shoes with grip;"
                " the cobblestones are slippery when wet\n- two pairs of trousers, four tops\n"
                "- a compact umbrella\n- an adapter is not needed from France (type F"
                " sockets).",
            ),
            (
                "Is the umbrella really worth the space?",
                "Yes, a compact one: December is"
                " Lisbon's wettest month and showers come and go quickly.",
            ),
        ),
    ),
    DemoChat(
        "tram",
        "Tram 28 vs walking tour",
        "lisbon",
        30,
        (
            (
                "Is tram 28 worth it or should I do a walking tour of Alfama?",
                "If you only have one morning, take tram 28 early (before 9:00) from"
                " Martim Moniz to avoid the queue, get off at Graça, and walk down through"
                " Alfama to the river. You get both without the afternoon crowds.",
            ),
        ),
    ),
    DemoChat(
        "cabinets",
        "Cabinet quotes comparison",
        "kitchen",
        50,
        (
            (
                "I have three quotes for kitchen cabinets: 8,400, 9,900 and 12,300 euros."
                " What should I compare besides the price?",
                "Compare like for like: carcass material and thickness (18 mm is standard),"
                " hinge and drawer runner brand (Blum or Hettich), whether fitting and"
                " worktop templating are included, lead time, and the warranty on doors.",
            ),
        ),
    ),
    DemoChat(
        "hob",
        "Induction hob options",
        "kitchen",
        75,
        (
            (
                "Which induction hob width fits a 60 cm cabinet?",
                "A 60 cm hob with a cut-out of about 56 x 49 cm fits a standard 60 cm base"
                " cabinet; check the minimum worktop depth in the installation guide.",
            ),
        ),
    ),
    DemoChat(
        "cover-letter",
        "Cover letter for the platform role",
        "jobs",
        26,
        (
            (
                "Help me tighten the opening paragraph of my cover letter for a staff"
                " platform engineer role.",
                'Lead with the outcome, not the title: "Over the last three years I led'
                " the move of our job scheduler to PostgreSQL, cutting missed runs to zero"
                ' across two daylight-saving changes." Then one sentence on why this team.',
            ),
        ),
    ),
    DemoChat(
        "advisory-locks",
        "Explain Postgres advisory locks",
        None,
        3,
        (
            (
                "When would I use a transaction-level advisory lock instead of SELECT ... FOR"
                " UPDATE?",
                'When the thing you need to serialize is not a row: for example "one'
                ' admission decision per tenant at a time". pg_advisory_xact_lock(hashtext('
                "tenant_id)) is released automatically at commit or rollback, so it cannot"
                " leak.",
            ),
            (
                "And SKIP LOCKED?",
                "SKIP LOCKED is for work queues: each worker takes rows nobody else holds"
                " instead of waiting, so several workers can scan the same due list safely.",
            ),
        ),
    ),
    DemoChat(
        "squash",
        "Dinner ideas with leftover squash",
        None,
        9,
        (
            (
                "I have half a butternut squash, feta and some spinach. Dinner ideas?",
                "Roast the squash in cubes with chili flakes, then toss with wilted spinach,"
                " crumbled feta and toasted seeds. Or blend it into a soup and top with the"
                " feta.",
            ),
        ),
    ),
    DemoChat(
        "regex",
        "Regex for ISO week numbers",
        None,
        140,
        (
            (
                "Regex to match an ISO week date like 2026-W49-3?",
                "^\\d{4}-W(0[1-9]|[1-4]\\d|5[0-3])-[1-7]$ checks the shape; whether week 53"
                " exists in that year needs a date library.",
            ),
        ),
    ),
)
