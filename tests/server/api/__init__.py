"""Tests of the schedule server's api part."""
