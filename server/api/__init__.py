"""The HTTP surface of docs/API.md: routes, their response models, the error envelope, cursors
and authentication."""
