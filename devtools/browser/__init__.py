"""The app in a real browser, for the UI tests (``tests/ui``) and the browser benches.

``served_app`` starts ``schedule-browser --web`` on a free port,
``schedule_server`` a stand-alone ``schedule-server`` it reaches over HTTP,
``hosted_app`` the web view a team hosts for other devices; ``chromium``
launches Debian's Chromium headless, ``flutter_page`` reads a Flet page
through Flutter's accessibility tree and ``accessible_names`` finds each
control by its role and name there; ``keyboard_focus`` names what holds the
focus and walks Tab, ``announcements`` records what live regions announced,
``cjk_fonts`` waits for the font Flutter fetches for Chinese glyphs.
"""
