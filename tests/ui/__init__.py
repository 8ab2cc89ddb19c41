"""Browser tests: the real ``schedule-browser --web`` driven in headless Chromium.

Flutter paints to a canvas, so these tests read the app through its
accessibility tree (the same names a screen reader speaks) and check what the
server stored by reading the data folder's SQLite database directly.
"""
