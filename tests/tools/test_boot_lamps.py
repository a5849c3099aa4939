"""make boot-check's lamp logic (tools/bootcheck/lamps.py, tools/bootcheck/check_lamps.py): the settings
that wire the lamps and the buzzer, and what the lamps' simulated lines say after a press.

The lines themselves are read from a booted guest by `make boot-check`, not here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config import ConfigError, load, parse
from tools.bootcheck import lamps as boot_lamps
from tools.bootcheck.wiring import BUZZER, LAMPS, PINS

ROOT = Path(__file__).resolve().parents[2]

DEFAULT = ROOT / "firmware/default_config.toml"
NAMES = list(LAMPS)


def test_boot_check_settings_wire_every_lamp_and_the_buzzer_and_the_box_accepts_them(tmp_path):
    edited = tmp_path / "config.toml"
    edited.write_text(boot_lamps.with_lamps(DEFAULT.read_text(), LAMPS, BUZZER))
    config = load(edited)  # the box's own checks: pins valid, no clash with the buttons or the display's bus
    assert config.lights.pins() == LAMPS
    assert config.sound.pin == BUZZER
    assert config.buttons.pins() == PINS  # the buttons the check presses are where they were
    # Only the pins changed: everything else in the file is the owner's as installed.
    before, after = DEFAULT.read_text().splitlines(), edited.read_text().splitlines()
    assert len(before) == len(after)
    assert sum(a != b for a, b in zip(before, after)) == len(LAMPS) + 1


def test_boot_check_a_lamp_on_a_button_line_is_refused_by_the_box():
    clashing = boot_lamps.with_lamps(DEFAULT.read_text(), {**LAMPS, "ROLL": PINS["STOP"]}, BUZZER)
    with pytest.raises(ConfigError, match="GPIO6"):
        parse(clashing)


def test_boot_check_settings_without_a_lamp_line_are_named():
    text = DEFAULT.read_text().replace("# menu = 21", "# (no menu lamp line)")
    with pytest.raises(ValueError, match=r"\[lights\] menu"):
        boot_lamps.with_lamps(text, LAMPS, BUZZER)


def test_boot_check_a_key_of_the_same_name_in_another_section_is_left_alone():
    text = "[web]\nport = 8080\n[sound]\n# pin = 18\n[lights]\n# roll = 17\n"
    out = boot_lamps.with_lamps(text, {"ROLL": 4}, 9)
    assert out == "[web]\nport = 8080\n[sound]\npin = 9\n[lights]\nroll = 4\n"


def test_boot_check_each_lamp_finds_its_simulated_value_file_and_a_missing_one_is_named():
    base = "/sys/devices/platform/gpio-sim.0/gpiochip0"
    listing = "\n".join(f"{base}/sim_gpio{n}/value" for n in range(54))
    paths = boot_lamps.sim_value_paths(listing, LAMPS)
    assert paths["ROLL"] == f"{base}/sim_gpio17/value" and paths["C"] == f"{base}/sim_gpio20/value"
    with pytest.raises(ValueError, match=r"MENU \(GPIO21\)"):
        boot_lamps.sim_value_paths(listing.replace("sim_gpio21/", "sim_gpio99/"), LAMPS)


def test_boot_check_the_sampling_script_prints_a_row_of_values_per_round(tmp_path):
    import subprocess

    files = {}
    for name, value in zip(NAMES, "100110"):
        files[name] = tmp_path / name
        files[name].write_text(value + "\n")
    script = boot_lamps.sampling_script({n: str(p) for n, p in files.items()}, samples=3, gap_s=0)
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["1 0 0 1 1 0"] * 3
    assert boot_lamps.read_lamps(done.stdout, NAMES) == dict(zip(NAMES, ["lit", "off", "off", "lit", "lit", "off"]))


def test_boot_check_a_line_seen_both_high_and_low_is_pulsing_steady_ones_are_lit_or_off():
    rows = ["1 0 1 0 0 1", "1 0 0 0 0 1", "1 0 1 0 0 1", "1 0 0 0 1 1"]
    assert boot_lamps.read_lamps("\n".join(rows), NAMES) == {
        "ROLL": "lit", "STOP": "off", "A": "pulse", "B": "off", "C": "pulse", "MENU": "lit"}


def test_boot_check_cut_rows_are_left_out_but_mostly_cut_reading_is_an_error():
    rows = ["1 0 0 0 0 1", "1 0 0", "cat: /sys/x: No such file", "1 0 0 0 0 1", "1 0 0 0 0 1"]
    assert boot_lamps.read_lamps("\n".join(rows), NAMES)["ROLL"] == "lit"
    with pytest.raises(ValueError, match="only 1 whole rows"):
        boot_lamps.read_lamps("1 0 0 0 0 1\n1 0\n1 0\n1 0", NAMES)
    with pytest.raises(ValueError):
        boot_lamps.read_lamps("", NAMES)


TURN = {"ROLL": "pulse", "STOP": "off", "A": "off", "B": "off", "C": "off", "MENU": "lit"}
DICE = {"ROLL": "off", "STOP": "off", "A": "pulse", "B": "off", "C": "pulse", "MENU": "off"}
SETUP = {"ROLL": "lit", "STOP": "off", "A": "lit", "B": "lit", "C": "lit", "MENU": "off"}


def test_boot_check_lamps_as_the_emulator_on_a_turn_and_a_dice_screen_pass():
    ok, detail = boot_lamps.judge_screens([SETUP, TURN, DICE], [SETUP, TURN, DICE],
                                          ["SetupView", "TurnView", "DiceView"], NAMES)
    assert ok
    assert detail == ("3 of 3 screens as the emulator's; turn <ROLL> stop a b c [MENU]; "
                      "dice roll stop <A> b <C> menu; an illegal pairing's lamp off on 1 dice screen")


def test_boot_check_a_lamp_read_otherwise_than_the_emulator_fails_and_is_named():
    lit_instead = {**DICE, "B": "pulse"}
    ok, detail = boot_lamps.judge_screens([TURN, lit_instead], [TURN, DICE], ["TurnView", "DiceView"], NAMES)
    assert not ok
    assert detail.startswith("screen 1 (dice): B pulse (wanted off); 1 of 2 screens")


def test_boot_check_lamps_never_read_on_a_turn_or_dice_screen_fail():
    ok, detail = boot_lamps.judge_screens([SETUP], [SETUP], ["SetupView"], NAMES)
    assert not ok and detail.endswith("no turn or dice screen read")
    ok, detail = boot_lamps.judge_screens([SETUP, TURN], [SETUP], ["SetupView"], NAMES)
    assert not ok and detail == "2 readings for 1 screens"



def test_boot_check_a_missing_line_reads_as_a_cut_row_not_as_the_last_value(tmp_path):
    import subprocess

    there = tmp_path / "there"
    there.write_text("1\n")
    script = boot_lamps.sampling_script({"ROLL": str(there), "STOP": str(tmp_path / "gone")}, samples=2, gap_s=0)
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["1 x", "1 x"]
    with pytest.raises(ValueError, match="only 0 whole rows"):
        boot_lamps.read_lamps(done.stdout, ["ROLL", "STOP"])


def test_boot_check_the_emulator_runs_with_the_booted_boxs_settings_buzzer_and_all():
    from tools.bootcheck.check_lamps import box_settings
    from tools.bootcheck.reference import Reference

    assert box_settings().game.sound is True and box_settings().lights.pins() == LAMPS
    menus = []
    for settings in (box_settings(), DEFAULT):
        reference = Reference(settings, [])
        try:
            reference.press("ROLL")  # the game starts
            reference.press("MENU")
            menus.append(reference.screen.tobytes())
        finally:
            reference.close()
    assert menus[0] != menus[1]  # the buzzer's Sounds item: 8 menu entries, not 7


def _lit(spans):
    """Each lamp's (seconds, level) for lamps lit over the given (on, off) spans."""
    return {name: [(0.0, 0), (on, 1), (off, 0)] for name, (on, off) in spans.items()}


def test_boot_lamps_the_self_test_lights_each_lamp_alone_in_turn():
    turns = {name: (1 + 0.6 * i, 1 + 0.6 * i + 0.6) for i, name in enumerate(NAMES)}  # one out as the next is lit
    ok, detail = boot_lamps.lit_alone(_lit(turns), NAMES, least_s=0.3)
    assert ok and detail == "ROLL STOP A B C MENU each lit alone in turn, 0.60-0.60 s each"


def test_boot_lamps_the_self_test_fails_a_lamp_missing_together_out_of_turn_or_too_short():
    turns = {name: (1 + 0.6 * i, 1.6 + 0.6 * i) for i, name in enumerate(NAMES)}
    missing = _lit({n: s for n, s in turns.items() if n != "B"})
    assert boot_lamps.lit_alone(missing, NAMES, 0.3)[1].startswith("B never lit")
    together = _lit(turns | {"A": (1.0, 3.0)})
    ok, detail = boot_lamps.lit_alone(together, NAMES, 0.3)
    assert not ok and "lit in the order ROLL A STOP" in detail and "A and STOP lit together" in detail
    short = _lit(turns | {"C": (turns["C"][0], turns["C"][0] + 0.1)})
    assert "C lit under 0.3 s" in boot_lamps.lit_alone(short, NAMES, 0.3)[1]
    stuck = _lit(turns) | {"MENU": [(0.0, 0), (4.0, 1)]}
    assert "MENU never went out" in boot_lamps.lit_alone(stuck, NAMES, 0.3)[1]


def test_boot_lamps_the_kernel_record_says_how_often_each_lamp_was_set_high():
    trace = "\n".join(f"  cantstop-box-1 [000] .....  {t:.6f}: gpio_value: {line} set {v}"
                      for t, line, v in [(1.0, 475, 1), (1.1, 475, 0), (1.2, 475, 1), (1.3, 476, 0)])
    assert boot_lamps.kernel_sets(trace, {"ROLL": 475, "STOP": 476, "A": 477}) == (
        "the kernel saw the box set each lamp's line high: ROLL 2 of 3, STOP 0 of 1, A 0 of 0")
