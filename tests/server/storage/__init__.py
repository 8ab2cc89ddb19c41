"""Tests of the schedule server's storage part."""
