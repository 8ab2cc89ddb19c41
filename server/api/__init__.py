"""The HTTP surface of docs/API.md: routes, the error envelope, cursors and authentication."""
