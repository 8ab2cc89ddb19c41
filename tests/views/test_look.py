"""The keyboard's focus ring stands out: at least 3:1 against what it is drawn on, both themes.

The ratio is WCAG's, computed from the colours the themes declare (the roles
the ring, the opened row's fill and the page use), so a change of colour that
makes the ring faint fails here.
"""

from __future__ import annotations

import flet as ft
import pytest

from views.look import themes

FOCUS_RING_MINIMUM = 3.0


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_formula_matches_wcags_extremes() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)


@pytest.mark.parametrize("theme", themes(), ids=["light", "dark"])
def test_the_focus_ring_has_at_least_3_to_1_against_the_page_and_the_opened_fill(
    theme: ft.Theme,
) -> None:
    scheme = theme.color_scheme
    assert scheme is not None
    ring, surface, fill = scheme.primary, scheme.surface, scheme.secondary_container
    assert isinstance(ring, str) and isinstance(surface, str) and isinstance(fill, str)
    assert contrast(ring, surface) >= FOCUS_RING_MINIMUM
    assert contrast(ring, fill) >= FOCUS_RING_MINIMUM


def test_the_opened_fill_differs_from_the_page_in_both_themes() -> None:
    for theme in themes():
        scheme = theme.color_scheme
        assert scheme is not None
        assert scheme.secondary_container != scheme.surface
