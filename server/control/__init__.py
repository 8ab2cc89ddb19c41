"""The control plane: what the routes use to read and change schedules.

``service`` is the one entry point (create, edit, pause, resume, cancel, read);
``definition`` parses and checks a definition (``secret_scanner`` refuses one
that carries a credential), ``lifecycle`` says which state change is allowed,
``authority`` whether a principal may still act, ``projection`` which instants
are due next, and ``errors`` names every refusal the routes turn into a code.
"""
