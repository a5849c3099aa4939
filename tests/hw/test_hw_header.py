"""The 40-pin header map, read from gpiozero's public board data."""

from __future__ import annotations

import pytest

from hw.header import HEADER, _header, physical_pin


def test_header_has_forty_pins_with_the_well_known_ones():
    assert sorted(HEADER) == list(range(1, 41))
    assert (HEADER[1], HEADER[2], HEADER[3], HEADER[5], HEADER[6], HEADER[40]) == ("3V3", "5V", 2, 3, "GND", 21)
    assert sorted(v for v in HEADER.values() if isinstance(v, int)) == list(range(28))  # GPIO0..27, once each


@pytest.mark.parametrize(("revision", "board"), [
    ("902120", "Zero 2 W"), ("a02082", "3 B"), ("c03111", "4 B"), ("c04170", "5 B"),
])
def test_header_is_the_same_on_every_pi_the_box_supports(revision, board):
    assert _header(revision) == HEADER, board


def test_header_physical_pin_of_a_gpio_and_a_clear_error_for_none():
    assert physical_pin(17) == 11
    with pytest.raises(ValueError, match="GPIO40 is not on the 40-pin header"):
        physical_pin(40)
