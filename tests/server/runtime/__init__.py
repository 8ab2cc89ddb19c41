"""Tests of the schedule server's runtime part."""
