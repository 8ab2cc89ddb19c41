"""The composition root and the `schedule-browser` command.

Owns settings, the choice between the embedded and a remote server, starting
and stopping the embedded server, device-state storage adapters and the Flet
entry point. It is the only package that may import every other one.
"""
