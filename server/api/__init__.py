"""The HTTP surface of API.md: routes, the error envelope, cursors and authentication."""
