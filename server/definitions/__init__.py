"""What a schedule definition may hold and who may act on it: the rules both sides share.

``checks`` parses a definition into its canonical form (``secret_scanner``
refuses one that carries a credential), ``authority`` says whether a
principal may still act for a schedule, and ``errors`` names every refusal
the routes turn into a code. The control plane applies them to a request,
the firing rules to a stored revision.
"""
