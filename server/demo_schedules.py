"""The demo's schedules: what a person sees in screenshots, so it reads like real use.

Each entry names its cadence, state, website binding and a *ledger*: the
occurrence decisions newest first, one letter each:

    M materialized, run completed      F materialized, run failed
    E materialized, session erased     X missed (outside the grace window)
    O skipped, previous run in flight  A authorization failed
    C configuration failed

Relative instants (``Once`` in N days) are resolved against the loader's
reference instant, so the demo is the same for the same instant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WEEKDAYS = [1, 2, 3, 4, 5]


@dataclass(frozen=True, slots=True)
class DemoSchedule:
    key: str
    title: str
    instruction: str
    cadence: dict[str, Any]
    state: str = "ACTIVE"
    pause_reason: str | None = None
    profile: str | None = None
    ledger: str = ""
    answers: tuple[str, ...] = ()
    age_days: int = 40
    touched_hours: float = 30.0
    revisions: int = 1
    failures: int = 0
    agent: str = "research"
    once_in_days: float | None = None
    extra_fields: dict[str, Any] = field(default_factory=dict)


def daily(local_time: str, zone: str) -> dict[str, Any]:
    return {"kind": "DAILY", "local_time": local_time, "timezone": zone}


def weekly(local_time: str, days: list[int], zone: str) -> dict[str, Any]:
    return {"kind": "WEEKLY", "local_time": local_time, "weekdays": days, "timezone": zone}


def monthly(local_time: str, days: list[int], last: bool, zone: str) -> dict[str, Any]:
    return {
        "kind": "MONTHLY",
        "local_time": local_time,
        "days_of_month": days,
        "last_day": last,
        "timezone": zone,
    }


def yearly(local_time: str, dates: list[tuple[int, int]], zone: str) -> dict[str, Any]:
    return {
        "kind": "YEARLY",
        "local_time": local_time,
        "dates": [{"month": m, "day": d} for m, d in dates],
        "timezone": zone,
    }


ONCE: dict[str, Any] = {"kind": "ONCE"}

COMPETITIVE_BRIEF = "\n\n".join(
    (
        (
            "Prepare the monthly competitive landscape brief for the scheduling and automation "
            "market, written for the product leadership meeting that happens on the first Tuesday"
            " of each month. The audience is the head of product, the two group product managers,"
            " the design lead and the engineering director; they read the brief the evening "
            "before, so it must stand on its own without me presenting it."
        ),
        (
            "Scope. Cover the six companies we track closely: Cronitor, Zapier, Make, n8n, "
            "Temporal Cloud and Trigger.dev. For each one, look at their public changelog, "
            "pricing page, documentation landing page, engineering blog and status page for the "
            "last calendar month. If a company published a funding announcement, an acquisition, "
            "a major hire in product or engineering leadership, or a pricing change, that goes "
            'first in its section. Ignore marketing webinars, generic "tips" posts and customer '
            "stories unless the customer story reveals a capability we did not know about."
        ),
        (
            "What to extract. For every release note or announcement you keep, write one sentence"
            " on what changed and one sentence on why it matters to us specifically: does it "
            "close a gap they had against us, open a gap we have against them, or signal a "
            "direction (for example moving upmarket, adding self-hosting, changing the unit of "
            "billing)? Keep the two sentences separate so the reader can skim the first and dive "
            "into the second. Quote prices exactly as published, with currency and billing "
            "period, and note whether the price is per seat, per task, per execution or per "
            "compute minute, because those units are hard to compare and people get them wrong in"
            " meetings."
        ),
        (
            "Pricing table. End the company sections with one table comparing the entry paid plan"
            " and the most popular team plan of each company: monthly price, the included volume,"
            " the overage price, the retention period for run history, and whether single sign-on"
            ' is included or an add-on. If a number is not published, write "not published" '
            "rather than estimating it. If a number changed during the month, show the old value "
            'struck through in words, for example "was 29 USD, now 39 USD".'
        ),
        (
            "Reliability. Read each status page's incident history for the month and list "
            "incidents longer than thirty minutes that affected scheduled or triggered "
            "executions. Give the date, the duration, the stated cause if one was published, and "
            "whether scheduled work was delayed, skipped or run twice. Missed or duplicated "
            "executions are the failure our customers fear most, so be precise about which of the"
            ' two happened; do not infer it from vague wording, say "not stated" instead.'
        ),
        (
            "Developer experience. Skim the documentation landing pages and quick-start guides. "
            "If any company changed how a first schedule is created (a new command line tool, a "
            "new SDK, a template gallery, a natural language builder), describe the new first-run"
            " path in at most five steps, and estimate honestly how long it would take a "
            "developer who has never seen the product. We care most about time zones and daylight"
            " saving handling, retries, overlap prevention and how missed runs are reported, so "
            "call out anything those pages say about those topics, with a link."
        ),
        (
            "Signals from the community. Look at the top threads of the month in each company's "
            "public forum or community Discord summary pages, and at Hacker News and Reddit "
            "threads that mention them by name. Summarize recurring complaints and recurring "
            "praise in a few bullets per company. Do not quote individual users by name or "
            "handle, and do not copy long passages; paraphrase."
        ),
        (
            "Format. Start with a summary of at most eight bullets, ordered by how much each item"
            " should change our roadmap conversation, not by company. Then one section per "
            "company in the order above, then the pricing table, then reliability, then developer"
            " experience, then community signals, then a short list of open questions you could "
            "not answer from public sources. Use plain headings, no marketing adjectives, and "
            "keep the whole brief under 1,800 words. Link every claim to its source page. If a "
            "source page could not be loaded, say which one and carry on rather than stopping."
        ),
        (
            "Tone and care. This brief is internal but it gets forwarded, so be fair to "
            "competitors: describe what they shipped accurately even where it beats us, and never"
            " speculate about their revenue, headcount or customers beyond what they published. "
            "If something looks like a rumour, leave it out. When you are unsure whether a change"
            " is new this month or was only newly documented, say so."
        ),
        (
            "Security and compliance. Note any new certification (SOC 2 Type II, ISO 27001,"
            " HIPAA), any new data residency region, and any change to the published list of"
            " sub-processors during the month, and say on which plan tiers of the pricing table"
            " an audit log of schedule changes is available. Our enterprise customers ask about"
            " exactly these things in every procurement review, so a one-line answer per"
            " company saves the sales team a week of back and forth."
        ),
        (
            "Finally, compare against last month's brief in this same chat history if it is "
            'available to you through memory, and add a short "changed since last month" '
            "paragraph at the top of the summary: which companies moved their prices, which "
            "shipped something we had flagged as a likely next step, and which predictions from "
            "last month turned out wrong. Be candid about the wrong ones; the point of the "
            "exercise is to calibrate, not to look right."
        ),
    )
)

SCHEDULES: tuple[DemoSchedule, ...] = (
    DemoSchedule(
        key="morning-news",
        title="Morning news digest",
        instruction=(
            "Summarize the overnight news from Le Monde, the Financial Times and Reuters in"
            " at most ten bullets. Lead with anything about European energy prices or the"
            " ECB, then technology policy. One line per story, with the source in brackets."
        ),
        cadence=daily("07:30:00", "Europe/Paris"),
        ledger="MMMMMM",
        revisions=3,
        touched_hours=2.5,
        age_days=95,
        answers=(
            "Here is this morning's digest.\n\n- ECB signals a pause after December's cut;"
            " markets price one more cut by spring [FT]\n- French power futures fall 8% on"
            " mild weather and high nuclear availability [Reuters]\n- EU AI Act: the"
            " Commission publishes the draft code of practice for general-purpose models"
            " [Le Monde]\n- Dutch chip-equipment exports to China face new licence rules"
            " [Reuters]",
            "Overnight highlights:\n\n- Gas storage across the EU still 78% full, above the"
            " five-year average [Reuters]\n- Germany's coalition agrees on a grid-fee"
            " subsidy for industry [FT]\n- The CNIL fines a retailer for cookie banners"
            " that make refusal harder than consent [Le Monde]",
            "Quiet night. Three items worth your time:\n\n- ECB minutes show two members"
            " argued for a larger cut [FT]\n- Spain's solar output sets a November record"
            " [Reuters]\n- Brussels opens a consultation on cloud switching fees [Le Monde]",
        ),
    ),
    DemoSchedule(
        key="inbox-triage",
        title="Inbox triage before standup",
        instruction=(
            "Go through my work inbox and list the emails that need a reply from me today,"
            " grouped by project. Flag anything from customers or legal first. Draft short"
            " replies for the three most urgent, but do not send anything."
        ),
        cadence=weekly("08:30:00", WEEKDAYS, "America/New_York"),
        profile="work-google",
        ledger="MMMMM",
        agent="inbox",
        touched_hours=5,
        age_days=60,
        answers=(
            "7 emails need you today.\n\nCustomers\n- Northwind: asks whether the SSO"
            " migration can move to next Thursday (draft reply ready)\n- Contoso: invoice"
            " question, forwarded by finance\n\nLegal\n- DPA redlines from Globex, due"
            " Friday (draft reply ready)\n\nPlatform project\n- Priya wants a decision on"
            " the queue retention window (draft reply ready)",
            "4 emails need a reply today. Nothing from legal.\n\n- Northwind confirmed"
            " Thursday for the SSO migration; a thank-you draft is ready\n- Recruiting"
            " needs your interview feedback for the staff engineer loop\n- Two calendar"
            " conflicts for the offsite planning call",
        ),
    ),
    DemoSchedule(
        key="meeting-prep",
        title="Prepare tomorrow's meetings",
        instruction=(
            "Look at tomorrow's calendar and, for each meeting with external people, write"
            " a short brief: who they are, the last email thread with them, and open"
            " questions. Skip internal one-on-ones."
        ),
        cadence=daily("18:00:00", "Europe/Paris"),
        profile="work-google",
        ledger="MMXMOM",
        agent="inbox",
        touched_hours=20,
        age_days=30,
        answers=(
            "Tomorrow you have two external meetings.\n\n10:00 Globex procurement (Anna"
            " Keller, Tom Berg): last thread was about the DPA; open question is whether"
            " they need EU-only data residency.\n\n15:30 Initech partnership call: they"
            " asked for API rate limits in writing; the numbers are in the shared doc.",
            "One external meeting tomorrow: 11:00 with the Lisbon venue about the offsite."
            " They still owe us the catering quote.",
            "No external meetings tomorrow. Your calendar has two internal reviews and a"
            " focus block in the afternoon.",
        ),
    ),
    DemoSchedule(
        key="pr-review",
        title="Open pull requests needing my review",
        instruction=(
            "List the open pull requests in the platform and web repositories where I am"
            " a requested reviewer, oldest first, with size and CI status. Mention any that"
            " have waited more than two working days."
        ),
        cadence=weekly("09:00:00", [1, 3, 5], "UTC"),
        profile="github",
        ledger="MMMM",
        touched_hours=8,
        age_days=50,
        answers=(
            "5 pull requests are waiting for you.\n\n- platform#1841 Fencing tokens for"
            " lease renewal (+412 -96, CI green), waiting 3 days\n- platform#1850 Bump"
            " tzdata to 2026a (+12 -12, CI green)\n- web#922 Dark mode for the schedules"
            " sheet (+230 -41, CI failing on snapshot tests)",
            "2 pull requests are waiting for you, both green.\n\n- platform#1862 Coalesce"
            " misfire events (+88 -20)\n- web#931 Fix cursor reuse on refresh (+15 -4)",
        ),
    ),
    DemoSchedule(
        key="notion-rollup",
        title="Weekly project notes roll-up",
        instruction=(
            "Collect this week's meeting notes from the Platform team space in Notion and"
            " write a one-page roll-up: decisions, open risks, and who owns each follow-up."
        ),
        cadence=weekly("16:00:00", [5], "Europe/Paris"),
        profile="notion",
        touched_hours=70,
        age_days=20,
    ),
    DemoSchedule(
        key="rent-reminder",
        title="Rent transfer reminder",
        instruction=(
            "Remind me to pay the rent and check that last month's transfer shows as"
            " received on the landlord's portal."
        ),
        cadence=monthly("09:00:00", [1], False, "Europe/Paris"),
        touched_hours=200,
        age_days=300,
    ),
    DemoSchedule(
        key="payroll-check",
        title="Payroll and invoices check",
        instruction=(
            "Check that the Tokyo office payroll file has been uploaded and that every"
            " supplier invoice due this half-month is approved. List anything missing."
        ),
        cadence=monthly("10:00:00", [15], True, "Asia/Tokyo"),
        touched_hours=120,
        age_days=150,
    ),
    DemoSchedule(
        key="birthday-gifts",
        title="Mum's birthday gift ideas",
        instruction=(
            "Two weeks before Mum's birthday, suggest five gift ideas under 80 euros based"
            " on what she mentioned liking this year: gardening, crime novels, and the"
            " ceramics class she started."
        ),
        cadence=yearly("08:00:00", [(3, 1)], "Europe/Paris"),
        touched_hours=400,
        age_days=400,
    ),
    DemoSchedule(
        key="leap-day-audit",
        title="Leap day backup audit",
        instruction=(
            "Every 29 February, restore last week's database backup into a scratch"
            " environment and confirm that row counts match production within 0.1%."
        ),
        cadence=yearly("07:00:00", [(2, 29)], "UTC"),
        touched_hours=900,
        age_days=900,
    ),
    DemoSchedule(
        key="sydney-standup",
        title="Sydney team standup notes",
        instruction=(
            "Summarize yesterday's activity in the #platform-sydney channel into standup"
            " notes: what shipped, what is blocked, and questions for the Paris team."
        ),
        cadence=weekly("09:15:00", WEEKDAYS, "Australia/Sydney"),
        touched_hours=14,
        age_days=45,
    ),
    DemoSchedule(
        key="nikkei-close",
        title="Nikkei close summary",
        instruction=(
            "After the Tokyo close, summarize how the Nikkei 225 and TOPIX moved, the three"
            " biggest movers among our watch list, and any yen move larger than 0.5%."
        ),
        cadence=weekly("15:45:00", WEEKDAYS, "Asia/Tokyo"),
        touched_hours=11,
        age_days=70,
    ),
    DemoSchedule(
        key="flight-checkin",
        title="Check in for the Lisbon flight",
        instruction=(
            "Check in for flight TP 433 from Paris to Lisbon and pick an aisle seat near"
            " the front if one is free. Send me the boarding pass link."
        ),
        cadence=ONCE,
        once_in_days=3.2,
        touched_hours=1,
        age_days=4,
    ),
    DemoSchedule(
        key="cfp-deadline",
        title="Conference CFP deadline nudge",
        instruction=(
            "Remind me that the PyCon talk proposal closes in two days, and list what is"
            " still missing from the draft in my documents folder."
        ),
        cadence=ONCE,
        once_in_days=12.6,
        touched_hours=26,
        age_days=9,
    ),
    DemoSchedule(
        key="dependency-audit",
        title="Dependency security audit",
        instruction=(
            "Review this week's security advisories for the dependencies of the platform"
            " repository and open a draft issue for each one that affects a version we use."
        ),
        cadence=weekly("06:00:00", [1], "UTC"),
        profile="github",
        touched_hours=48,
        age_days=80,
    ),
    DemoSchedule(
        key="weekend-reading",
        title="Weekend reading list",
        instruction=(
            "Pick five long-form articles from this week about distributed systems or"
            " product design, each with a two-sentence reason to read it."
        ),
        cadence=weekly("08:00:00", [6], "America/New_York"),
        touched_hours=60,
        age_days=33,
    ),
    DemoSchedule(
        key="gym-booking",
        title="Gym class booking",
        instruction=(
            "Book next Sunday's noon spin class at the Bastille gym if a spot is open;"
            " otherwise join the waiting list and tell me my position."
        ),
        cadence=weekly("12:00:00", [7], "Europe/Paris"),
        profile="missing",
        touched_hours=90,
        age_days=120,
    ),
    DemoSchedule(
        key="grocery-order",
        title="Grocery order draft",
        instruction=(
            "Draft next week's grocery order from the usual list, adding what the meal"
            " plan needs. Leave it in the basket for me to confirm."
        ),
        cadence=weekly("19:00:00", [4], "Europe/Paris"),
        touched_hours=36,
        age_days=200,
    ),
    DemoSchedule(
        key="competitive-brief",
        title="Competitive landscape research brief",
        instruction=COMPETITIVE_BRIEF,
        cadence=monthly("08:00:00", [1], False, "America/New_York"),
        ledger="MM",
        revisions=2,
        touched_hours=40,
        age_days=75,
        answers=(
            "Summary (8 bullets)\n\n1. Zapier moved its Team plan from per-seat to"
            " per-task pricing; at our typical volume that is roughly 30% cheaper for"
            " customers than before.\n2. Temporal Cloud shipped schedule backfill controls"
            " with explicit catch-up windows, which closes a gap we listed last month.\n3."
            " n8n reported a 47-minute incident that delayed scheduled workflows; no runs"
            " were skipped according to their post-mortem.\n\nThe full brief follows,"
            " with sources linked for every claim.",
            "Summary (6 bullets)\n\n1. No pricing changes this month.\n2. Trigger.dev"
            " published daylight-saving handling docs: ambiguous times run once, at the"
            " earlier instant, like ours.\n3. Make added run-history retention to its team"
            " plan (30 days).\n\nOpen question: Cronitor's new heartbeat pricing page was"
            " unavailable during research.",
        ),
    ),
    DemoSchedule(
        key="commute-weather",
        title="Weather and commute check",
        instruction=(
            "Tell me whether I need an umbrella today and whether the L train is running"
            " normally between Bedford Av and 8 Av."
        ),
        cadence=daily("06:45:00", "America/New_York"),
        touched_hours=3,
        age_days=25,
    ),
    DemoSchedule(
        key="estimated-tax",
        title="Quarterly estimated tax reminder",
        instruction=(
            "Remind me that the quarterly estimated tax payment is due, with last"
            " quarter's amount and the link to the payment portal."
        ),
        cadence=yearly("09:00:00", [(1, 15), (4, 15), (6, 15), (9, 15)], "America/New_York"),
        ledger="M",
        touched_hours=150,
        age_days=110,
        answers=(
            "Your Q3 estimated tax payment is due today, 15 September. Last quarter you"
            " paid 4,200 USD. Pay through the IRS Direct Pay portal and keep the"
            " confirmation number with your records.",
        ),
    ),
    DemoSchedule(
        key="bug-triage",
        title="Bug triage summary",
        instruction=(
            "Summarize new bugs filed in Linear since the last triage, grouped by"
            " severity, and suggest an owner for each unassigned one."
        ),
        cadence=weekly("10:00:00", [2, 4], "Europe/Paris"),
        profile="linear",
        touched_hours=18,
        age_days=58,
    ),
    DemoSchedule(
        key="podcast-notes",
        title="Podcast episode notes",
        instruction=(
            "When a new episode of the three engineering podcasts I follow is published,"
            " write show notes with timestamps for the parts about databases."
        ),
        cadence=weekly("20:00:00", [3], "UTC"),
        state="PAUSED",
        pause_reason="user",
        ledger="MM",
        touched_hours=100,
        age_days=90,
        answers=(
            'Two new episodes this week.\n\nSoftware Engineering Daily, "Postgres at'
            ' scale": 04:10 partitioning strategy, 18:45 logical replication lag, 33:20'
            " why they dropped advisory locks.\n\nChangelog #612: 12:00 SQLite in"
            " production, 27:30 WAL mode and backups.",
            'One new episode: "The Ship It Show" on incident reviews; only 41:05-47:30'
            " touches databases (a failed migration rollback).",
        ),
    ),
    DemoSchedule(
        key="expense-report",
        title="Expense report reminder",
        instruction=(
            "On the last day of the month, list receipts in my email that are not yet in"
            " the expense tool and remind me to submit the report."
        ),
        cadence=monthly("17:00:00", [], True, "Australia/Sydney"),
        state="PAUSED",
        pause_reason="user",
        touched_hours=300,
        age_days=240,
    ),
    DemoSchedule(
        key="garden-watering",
        title="Garden watering plan",
        instruction=(
            "Check the seven-day forecast for Sydney and tell me which days the balcony"
            " plants need watering, given they dry out after two hot days."
        ),
        cadence=daily("07:00:00", "Australia/Sydney"),
        state="PAUSED",
        pause_reason="user",
        touched_hours=500,
        age_days=180,
    ),
    DemoSchedule(
        key="portfolio-snapshot",
        title="Investment portfolio snapshot",
        instruction=(
            "Give me a snapshot of the portfolio: allocation by asset class, drift from"
            " the target mix, and whether any position moved more than 5% since the last"
            " snapshot. No trading suggestions."
        ),
        cadence=monthly("18:00:00", [1, 15], True, "Asia/Tokyo"),
        state="PAUSED",
        pause_reason="user",
        touched_hours=72,
        age_days=365,
    ),
    DemoSchedule(
        key="crm-export",
        title="CRM pipeline export",
        instruction=(
            "Export the open deals from the sales pipeline page in Notion into a weekly"
            " summary: stage, amount, expected close date, and deals that slipped."
        ),
        cadence=daily("08:00:00", "America/New_York"),
        state="PAUSED",
        pause_reason="failure_limit",
        profile="notion",
        ledger="FFMA",
        failures=2,
        touched_hours=44,
        age_days=66,
        answers=(
            "I couldn't finish this run: the Notion sign-in has expired, so the pipeline"
            " page could not be opened. Reconnect the Notion profile and resume the"
            " schedule.",
            "I couldn't finish this run: the Notion sign-in has expired.",
            "Pipeline summary: 14 open deals worth 1.2M USD. Slipped: Initech (moved to"
            " January), Umbrella (no reply in three weeks).",
        ),
    ),
    DemoSchedule(
        key="sprint-digest",
        title="Sprint board digest",
        instruction=(
            "Summarize the sprint board: tickets done since Monday, tickets at risk, and"
            " anything blocked for more than two days."
        ),
        cadence=weekly("09:30:00", [1], "Europe/Paris"),
        state="PAUSED",
        pause_reason="failure_limit",
        profile="jira",
        ledger="CCC",
        failures=3,
        touched_hours=130,
        age_days=140,
    ),
    DemoSchedule(
        key="newsletter-analytics",
        title="Newsletter analytics",
        instruction=(
            "Report last week's newsletter open and click rates against the eight-week"
            " average, and the three links that got the most clicks."
        ),
        cadence=weekly("11:00:00", [2], "Asia/Tokyo"),
        state="PAUSED",
        pause_reason="failure_limit",
        ledger="AAM",
        failures=2,
        touched_hours=160,
        age_days=100,
        answers=(
            "Open rate 41.2% (8-week average 39.8%), click rate 6.1% (average 5.4%). Top"
            " links: the SQLite WAL explainer, the hiring page, the time-zones quiz.",
        ),
    ),
    # Recent History: completed and cancelled.
    DemoSchedule(
        key="tax-return",
        title="File the 2025 tax return",
        instruction=(
            "Remind me that the French income tax declaration closes tonight for our"
            " département and list the documents I still need to upload."
        ),
        cadence=ONCE,
        once_in_days=-190,
        state="COMPLETED",
        ledger="M",
        touched_hours=190 * 24 - 1,
        age_days=200,
        answers=(
            "The online declaration closes tonight at 23:59. Still missing: the 2025"
            " childcare certificate and the interest statement from the savings account.",
        ),
    ),
    DemoSchedule(
        key="visa-slot",
        title="Visa appointment slot watch",
        instruction=(
            "Check the consulate booking page for an earlier appointment slot in"
            " October and tell me the first available date."
        ),
        cadence=ONCE,
        once_in_days=-45,
        state="COMPLETED",
        ledger="X",
        touched_hours=45 * 24 - 2,
        age_days=60,
    ),
    DemoSchedule(
        key="old-digest",
        title="Morning news digest (old version)",
        instruction="Send me the top five headlines from the BBC every morning.",
        cadence=daily("07:00:00", "Europe/London"),
        state="CANCELLED",
        ledger="MMM",
        touched_hours=96,
        age_days=150,
        answers=(
            "Top headlines: budget statement reactions; rail strike called off; storm"
            " warning for the north-west; Premier League review; new NHS waiting data.",
            "Top headlines: interest rates held; floods in Cumbria; a new AI safety"
            " institute director; school funding row; England squad named.",
        ),
    ),
    DemoSchedule(
        key="hackathon",
        title="Hackathon countdown",
        instruction="Post the number of days left until the Tokyo hackathon in our team channel.",
        cadence=daily("09:00:00", "Asia/Tokyo"),
        state="CANCELLED",
        touched_hours=400,
        age_days=90,
    ),
    DemoSchedule(
        key="black-friday",
        title="Black Friday price tracker",
        instruction=(
            "On Black Friday morning, check the prices of the three espresso machines on"
            " my wish list and tell me if any is below 400 euros."
        ),
        cadence=ONCE,
        once_in_days=-4,
        state="COMPLETED",
        ledger="M",
        touched_hours=4 * 24 - 1,
        age_days=30,
        answers=(
            "One is below 400 euros: the Lelit Anna is 379 EUR at Maxicoffee (was 449)."
            " The other two are discounted by less than 10%.",
        ),
    ),
    DemoSchedule(
        key="spanish-homework",
        title="Spanish course homework reminder",
        instruction="Remind me to do the Spanish homework and list this week's vocabulary.",
        cadence=weekly("19:30:00", [2], "Europe/Paris"),
        state="CANCELLED",
        touched_hours=30 * 24,
        age_days=200,
    ),
    DemoSchedule(
        key="lease-renewal",
        title="Lease renewal reminder",
        instruction=(
            "Remind me three months before the flat lease renews to decide whether to stay."
        ),
        cadence=yearly("09:00:00", [(6, 1)], "Europe/Paris"),
        state="CANCELLED",
        touched_hours=60 * 24,
        age_days=500,
    ),
    DemoSchedule(
        key="moving-day",
        title="Moving day checklist",
        instruction=(
            "The day before the move, send me the checklist: meter readings, keys, the"
            " van booking reference and the building's lift reservation."
        ),
        cadence=ONCE,
        once_in_days=-20,
        state="COMPLETED",
        ledger="E",
        touched_hours=20 * 24 - 1,
        age_days=35,
    ),
)
