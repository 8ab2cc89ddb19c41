"""Flet controls that render view-model snapshots and forward user events.

No HTTP, no business rules, no formatting decisions: those belong to
``viewmodels``. Imports ``flet`` and ``viewmodels`` only. Declarative Flet 1.0
components (``@ft.component``); ``app_shell`` explains why and how the route
and the window width choose the layout.

Modules: ``app_shell`` (root, routing, keyboard), ``sign_in`` (the hosted web
view's root: the sign-in screen, then the app), ``sidebar``, ``schedule_list``
with ``schedule_row`` and ``row_blocks``, ``schedule_detail``,
``website_access``, ``calendar``, ``session_transcript``, ``offline_banner``, ``binding`` (view
model -> component), ``screen_models`` (the view model shapes the views need),
``status_panels``, ``actions``, ``look`` (theme).

Accessible names (Flutter semantics; what screen readers say and what the UI
tests locate by role and name once ``flt-semantics-placeholder`` is clicked):

===============================  =======  ==========================================
name                             role     where
===============================  =======  ==========================================
``Schedules``                    button   sidebar entry (calendar icon); opens ``/``
``Current``                      button   segment of the schedules sheet
``Recent History``               button   segment of the schedules sheet
``Refresh``                      button   reloads page one of the section
``Needs attention (N)``          checkbox the filter chip beside the sections
``Search schedules``             textbox  the search field above the list
``Clear search``                 button   inside the search field (empties it)
``Search``                       button   narrow layout app bar: shows the search field
``Search Recent History``        button   under "No current schedules match …" (and
                                          ``Search Current`` the other way)
``Open`` / ``Dismiss``           button   the notice that something needs attention
<row sentence>                   button   one per schedule; the view model's
                                          ``accessibility_label``, starting with
                                          the title; ``aria-current`` when selected
``Load more``                    button   under the rows while more pages exist
``Loading more…``                text     under the rows while a page loads
``End of list``                  text     under the rows after the last page
``Retry``                        button   full-page error, inline later-page error,
                                          detail not-found/failed/not read, sidebar
                                          failure, sign-in list failure, the offline
                                          banner
"Can't reach the schedule        text     the offline banner (``offline_banner``),
server. Showing what was read             above the list and a phone's pushed
at <time> (<age>)."                       detail; a live region
``Close details``                button   wide layout, closes the detail (Escape too)
``Copy instruction``             button   detail, Instruction group
``Open the failed firing's       button   detail of a schedule paused after
session``                                 failures: opens that session's transcript
``Advanced``                     button   detail, the technical fields' group (folds;
                                          folded at first on a phone)
``Website access``               button   detail, the website picker (dropdown);
                                          "Saving…" while a choice is saved
``Previous month``               button   detail, Calendar group
``Next month``                   button   detail, Calendar group
<month> <year>                   heading  the calendar's month ("March 2027")
<long date>[, today][, outside   button   one per calendar day ("Sunday 14 March
<month>]: <marks in words>                2027: fires at 07:00, moved by the clock
                                          change"); ``aria-current`` when chosen
<note sentence>                  text     the month's notes under the grid
``Open sidebar``                 button   narrow layout app bar (opens the drawer)
``Back``                         button   narrow layout app bar of a pushed detail
                                          or transcript (Flutter's implicit back)
<group label>, N sessions,       button   sidebar Scheduled group; "expanded" or
expanded|collapsed                        "collapsed", ", contains the open session"
                                          when collapsed around the selection
<session title>, <age>           button   sidebar session row (History, groups,
                                          folders)
``Token``                        textbox  hosted sign-in: the token (obscured)
``Show token`` / ``Hide token``  button   hosted sign-in: reveals the typed token
``Remember on this device``      checkbox hosted sign-in
``Sign in``                      button   hosted sign-in (Enter in the field too)
``Sign out``                     button   hosted: sidebar header, beside "Signed
                                          in as <name>"; the "Not signed in yet"
                                          panel (forgets the remembered token)
===============================  =======  ==========================================

Headings shown as text: "Schedule", "Instruction", "Website access",
"Calendar", "Execution limits", "Authority", "Lifecycle" (detail groups); "Folders",
"Scheduled", "History" (sidebar sections).
"""

from views.app_shell import AppShell
from views.look import apply_look
from views.screen_models import ScreenModels

__all__ = ["AppShell", "ScreenModels", "apply_look"]
