"""install.sh's compiled parts (lgpio, spidev: the distribution's package, a PyPI wheel, Adafruit's build) and the offline enable."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.kit.deploykit import BASH, ENABLE_LINK, INSTALL, REPO, UNINSTALL, run


def test_deploy_install_takes_lgpio_from_apt_where_the_distribution_has_it(root):
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: from the distribution (python3-lgpio)" in out


def test_deploy_install_takes_a_wheel_where_the_distribution_has_no_lgpio(root, apt_knows):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian bookworm
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio; a binary wheel from the package index" in out
    apt_line = next(line for line in out.splitlines() if "apt-get install" in line)
    assert apt_line.endswith("python3-venv python3-spidev python3-pil python3-cbor2")
    pip_line = next(line for line in out.splitlines() if "-m pip install" in line)
    assert "--only-binary=:all:" in pip_line


def test_deploy_install_reads_apt_caches_whole_answer(root, tmp_path, monkeypatch):
    """Found by pi-check on armhf: a long answer (the version table) after the Candidate line.

    grep -q in a pipe quit at the Candidate line, apt-cache died of SIGPIPE, and
    under pipefail every package read as missing."""
    long = tmp_path / "apt-cache-long"
    long.write_text(f'#!{BASH}\nshift\nfor p in "$@"; do\necho "$p:"\necho "  Candidate: 1.0-1"\n'
                    'seq -f "     1.0-%g 500 http://deb.debian.org/debian bookworm/main" 20000\ndone\n')
    long.chmod(0o755)
    monkeypatch.setenv("APT_CACHE", str(long))
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: from the distribution (python3-lgpio)" in out
    assert "a binary wheel" not in out


def test_deploy_install_asks_apt_once_for_every_native_module(root, apt_knows, tmp_path, monkeypatch):
    """Each apt-cache call loads apt's whole cache (a second of CPU without a pkgcache.bin): one for all four."""
    asked = tmp_path / "apt-asked"
    logging = tmp_path / "apt-cache-logging"
    logging.write_text(f'#!{BASH}\necho "$*" >> {asked}\nexec {os.environ["APT_CACHE"]} "$@"\n')
    logging.chmod(0o755)
    monkeypatch.setenv("APT_CACHE", str(logging))
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-cbor2\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert asked.read_text().splitlines() == ["policy python3-lgpio python3-spidev python3-pil python3-cbor2"]
    assert "spidev: from the distribution (python3-spidev)" in out and "cbor2: from the distribution (python3-cbor2)" in out
    assert "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio" in out
    assert "PIL: Debian GNU/Linux 12 (bookworm) has no python3-pil" in out


def test_deploy_install_names_an_unknown_system_without_os_release(root, apt_knows):
    (root / "etc/os-release").unlink()
    apt_knows.write_text("")
    out = run(INSTALL, "--root", str(root)).stdout
    assert "spidev: this system has no python3-spidev; a binary wheel from the package index" in out
    assert "would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv" in out


def test_deploy_install_fetches_apt_lists_on_a_fresh_image_first(root):
    shutil.rmtree(root / "var/lib/apt/lists")
    lines = run(INSTALL, "--root", str(root)).stdout.splitlines()
    assert lines.index("would run: apt-get update") < next(i for i, line in enumerate(lines) if "apt-get install" in line)


def test_deploy_install_enables_offline_without_systemctl(root, tmp_path):
    """No systemctl at all (a bare image tree): the WantedBy= link made by hand."""
    bin_dir = tmp_path / "bin-without-systemctl"
    bin_dir.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        for tool in Path(d).glob("*") if Path(d).is_dir() else ():
            if tool.name != "systemctl" and not (bin_dir / tool.name).exists():
                (bin_dir / tool.name).symlink_to(tool)
    out = run(INSTALL, "--root", str(root), env={"PATH": str(bin_dir)}).stdout
    assert os.readlink(root / ENABLE_LINK) == "/etc/systemd/system/cantstop-box.service"
    assert "starts on the next boot" in out
    run(UNINSTALL, "--root", str(root), env={"PATH": str(bin_dir)})
    assert not (root / ENABLE_LINK).is_symlink()


# -- lgpio where the distribution has none: a PyPI wheel, or nothing at all ----------


@pytest.fixture
def pip_index(tmp_path, monkeypatch):
    """A stand-in pip (PIP) that logs its arguments; the returned file names, one a line, the
    distributions the index has no wheel of ("lgpio", "adafruit-lgpio"); empty: all have one."""
    answer = tmp_path / "pip-missing"
    answer.write_text("")
    asked = tmp_path / "pip-asked"
    fake = tmp_path / "bin" / "pip"
    fake.parent.mkdir()
    fake.write_text(f'#!{BASH}\necho "$*" >> {asked}\n'
                    'want=${!#}; name=${want%%[<>=]*}\n'
                    f'if grep -qxF "$name" {answer}; then\n'
                    '  echo "ERROR: Could not find a version that satisfies the requirement $want (from versions: none)" >&2\n'
                    '  echo "ERROR: No matching distribution found for $want" >&2; exit 1\nfi\n'
                    'echo "Saved ./${name//-/_}-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("PIP", "pip")
    return answer, asked


def pip_install_line(out: str) -> str:
    return next(line for line in out.splitlines() if "-m pip install" in line)


def test_deploy_install_takes_lgpio_from_a_pypi_wheel(root, apt_knows, pip_index):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian bookworm
    answer, asked = pip_index
    out = run(INSTALL, "--root", str(root)).stdout
    assert "lgpio: Debian GNU/Linux 12 (bookworm) has no python3-lgpio; a binary wheel from the package index" in out
    question = asked.read_text()
    assert question.startswith("download ") and "--only-binary=:all:" in question and "lgpio>=0.2" in question
    assert pip_install_line(out).endswith("\\[pi\\]")  # the 'pi' extra, which brings lgpio
    assert "no lgpio" not in out and "NOTE" not in out


def test_deploy_install_without_lgpio_anywhere_installs_the_rest_and_says_so(root, apt_knows, pip_index):
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")  # Debian trixie
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n')
    answer, asked = pip_index
    answer.write_text("lgpio\nadafruit-lgpio\n")
    done = run(INSTALL, "--root", str(root))
    out = done.stdout
    assert asked.read_text().startswith("download ")
    line = pip_install_line(out)
    assert "[pi]" not in line.replace("\\", "") and line.endswith(str(REPO))  # the program without the 'pi' extra
    notes = [line for line in out.splitlines() if line.startswith("NOTE:")]
    assert any("Debian GNU/Linux 13 (trixie) has no python3-lgpio and PyPI no wheel for it" in n for n in notes)
    assert any("gpiozero's own backend (/dev/gpiomem)" in n for n in notes)
    assert any("Pi 5" in n and "install python3-lgpio" in n for n in notes)
    assert os.readlink(root / ENABLE_LINK) == "/etc/systemd/system/cantstop-box.service"  # installed all the same


def test_deploy_install_takes_adafruits_lgpio_build_where_pypi_has_no_lgpio_wheel(root, apt_knows, pip_index):
    """Debian trixie on a 64-bit Pi (Python 3.13): lgpio from Adafruit's wheel, rpi-lgpio beside it, no note."""
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n')
    answer, asked = pip_index
    answer.write_text("lgpio\n")
    out = run(INSTALL, "--root", str(root)).stdout
    questions = asked.read_text().splitlines()
    assert [q.split()[-1] for q in questions] == ["lgpio>=0.2", "adafruit-lgpio>=0.2.2"]
    assert "lgpio: PyPI's lgpio has no wheel for this Python; Adafruit's build of it (adafruit-lgpio)" in out
    installs = [line.replace("\\", "") for line in out.splitlines() if "-m pip install" in line]
    assert len(installs) == 2, installs
    assert "--no-deps" in installs[0] and installs[0].endswith("adafruit-lgpio>=0.2.2 rpi-lgpio>=0.6")  # spidev: apt
    assert installs[1].endswith(str(REPO))  # the program, its 'pi' extra given part by part above
    assert "NOTE" not in out


def test_deploy_install_leaves_a_pip_fault_to_the_real_install(root, apt_knows, pip_index, tmp_path):
    """Only pip's "no matching distribution" means no wheel: a network fault keeps the 'pi' extra."""
    apt_knows.write_text("python3-venv\npython3-spidev\npython3-pil\npython3-cbor2\n")
    _, asked = pip_index
    broken = tmp_path / "bin" / "pip"
    broken.write_text(f'#!{BASH}\necho "$*" >> {asked}\necho "ERROR: Could not fetch URL: connection refused" >&2\nexit 1\n')
    out = run(INSTALL, "--root", str(root)).stdout
    assert asked.read_text().startswith("download ")
    assert pip_install_line(out).endswith("\\[pi\\]")
