"""The schedule control plane's application rules: definitions, lifecycle, authority."""
