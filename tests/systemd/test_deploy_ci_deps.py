"""deploy/ci-deps.sh, with stand-ins for apt so nothing is installed."""

from __future__ import annotations

from tests.kit.deploykit import add_tool, ci_deps


def test_deploy_ci_deps_installs_only_what_is_missing(fake_bin, tmp_path):
    bin_dir, log = fake_bin
    add_tool(bin_dir, "systemd-analyze")
    (tmp_path / "known").touch()
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    calls = log.read_text().splitlines()
    assert calls == ["apt-cache madison shellcheck", "apt-get install -y -qq --no-install-recommends shellcheck"]


def test_deploy_ci_deps_updates_apt_only_when_it_knows_no_candidate(fake_bin):
    bin_dir, log = fake_bin
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert log.read_text().splitlines() == [
        "apt-cache madison systemd",
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends systemd shellcheck",
    ]


def test_deploy_ci_deps_does_nothing_when_tools_are_there(fake_bin):
    bin_dir, log = fake_bin
    add_tool(bin_dir, "systemd-analyze")
    add_tool(bin_dir, "shellcheck")
    done = ci_deps(bin_dir)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not log.exists()


def test_deploy_ci_deps_takes_a_file_for_a_package_without_a_command(fake_bin, tmp_path):
    """Fonts have no command: a TOOL starting with / is a file the package installs (make web-gallery's fonts)."""
    bin_dir, log = fake_bin
    add_tool(bin_dir, "chromium")
    there, gone = tmp_path / "there.ttc", tmp_path / "gone.ttc"
    there.touch()
    done = ci_deps(bin_dir, "chromium=chromium", f"{there}=fonts-here", f"{gone}=fonts-noto-cjk")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert log.read_text().splitlines()[-1] == "apt-get install -y -qq --no-install-recommends fonts-noto-cjk"
