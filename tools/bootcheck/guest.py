"""The guest of `make boot-check`: qemu-system-aarch64 -M virt (TCG) on a copy-on-write
overlay of the cached disk, driven through the QEMU guest agent (no network login).

``Guest`` powers the machine on (a new qemu process), waits for its agent, runs
commands and moves files through it, and powers it off hard (kills qemu: a power
cut) or softly (``systemctl poweroff``).
"""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .image import qemu_machine_args

# How far above the host's own work the guest runs (nice(1); root only). At the host's priority, a tone soak with
# two host cores kept busy (tools/bootcheck/tone_soak.py) heard 4 of 39 melodies not at all and rolls at a
# quarter of their pitch: the guest's PWM thread had not run for most of the note.
QEMU_NICE = -10


class AgentError(RuntimeError):
    pass


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def exec_reply(status: dict) -> Done:
    """What guest-exec-status said of a finished command, decoded."""
    def text(key: str) -> str:
        return base64.b64decode(status.get(key, "")).decode("utf-8", "replace")
    code = status.get("exitcode")
    if code is None and "signal" in status:
        code = 128 + int(status["signal"])
    return Done(int(code if code is not None else -1), text("out-data"), text("err-data"))


class Agent:
    """One connection to qemu-guest-agent's virtio port (JSON, one reply per command)."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.buffer = b""
        self.serial = 0

    def close(self) -> None:
        self.sock.close()

    def _replies(self, timeout: float):
        self.sock.settimeout(timeout)
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                line = line.strip(b"\xff \r")
                if line:
                    try:
                        yield json.loads(line)
                    except ValueError:
                        continue
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AgentError("the guest agent closed its port")
            self.buffer += chunk

    def sync(self, timeout: float = 5.0) -> None:
        """guest-sync-delimited: flush whatever an earlier, abandoned command left behind."""
        self.serial += 1
        token = int(time.time() * 1000) % 2**31 + self.serial
        self.sock.sendall(b"\xff" + json.dumps({"execute": "guest-sync-delimited",
                                                "arguments": {"id": token}}).encode() + b"\n")
        for reply in self._replies(timeout):
            if reply.get("return") == token:
                return

    def call(self, command: str, timeout: float = 30.0, **arguments):
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        for reply in self._replies(timeout):
            if "error" in reply:
                raise AgentError(f"{command}: {reply['error'].get('desc', reply['error'])}")
            if "return" in reply:
                return reply["return"]


class Guest:
    def __init__(self, files: dict[str, Path], workdir: Path, cmdline: str = "") -> None:
        self.files = files
        self.workdir = workdir
        self.overlay = workdir / "disk.qcow2"
        self.agent_path = workdir / "qga.sock"
        self.console = workdir / "console.log"
        self.cmdline = cmdline
        self.proc: subprocess.Popen | None = None
        self.agent: Agent | None = None
        self.powered_on = 0.0
        self.boots = 0

    def new_disk(self) -> None:
        """A fresh overlay of the cached disk: the cache itself is never written."""
        self.overlay.unlink(missing_ok=True)
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(self.files["disk"]),
                        str(self.overlay)], check=True)

    def command(self) -> list[str]:
        append = f"root=/dev/vda rw console=ttyAMA0 panic=5 {self.cmdline}".strip()
        return ["qemu-system-aarch64", *qemu_machine_args(), "-accel", "tcg,thread=multi", "-nographic",
                "-no-reboot", "-kernel", str(self.files["kernel"]), "-initrd", str(self.files["initrd"]),
                "-dtb", str(self.files["dtb"]), "-append", append,
                "-drive", f"if=none,file={self.overlay},format=qcow2,id=hd,cache=writeback",
                "-device", "virtio-blk-device,drive=hd",
                "-netdev", "user,id=net", "-device", "virtio-net-device,netdev=net",
                "-chardev", f"socket,path={self.agent_path},server=on,wait=off,id=qga",
                "-device", "virtio-serial-device", "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
                "-serial", f"file:{self.console}.{self.boots}", "-monitor", "none", "-display", "none"]

    @staticmethod
    def niced(command: list[str]) -> list[str]:
        """``command`` above the host's own work, where this may raise it (root): the guest's processors are the
        host's threads, and a busy host (a build, a browser) would take them their cores for tens of
        milliseconds, long enough for the guest's software PWM to lose a whole note."""
        return ["nice", "-n", str(QEMU_NICE), *command] if os.geteuid() == 0 else command

    def power_on(self) -> None:
        self.agent_path.unlink(missing_ok=True)
        self.boots += 1
        self.powered_on = time.monotonic()
        self.proc = subprocess.Popen(self.niced(self.command()), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.workdir / "qemu.err", "a"), start_new_session=True)

    def wait_agent(self, timeout: float = 600.0) -> float:
        """Until the guest agent answers: seconds since power-on."""
        deadline = self.powered_on + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AgentError(f"qemu exited ({self.proc.returncode}) before the guest agent answered")
            if self.agent_path.exists():
                try:
                    agent = Agent(self.agent_path)
                    agent.sync(timeout=5)
                    self.agent = agent
                    return time.monotonic() - self.powered_on
                except (OSError, AgentError):
                    pass
            time.sleep(2)
        raise AgentError(f"the guest agent did not answer within {timeout:.0f} s of power-on")

    def run(self, *argv: str, timeout: float = 120.0, stdin: bytes | None = None) -> Done:
        """A command in the guest as root, with its output."""
        args = {"path": argv[0], "arg": list(argv[1:]), "capture-output": True}
        if stdin is not None:
            args["input-data"] = base64.b64encode(stdin).decode()
        pid = self.agent.call("guest-exec", **args)["pid"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.agent.call("guest-exec-status", pid=pid)
            if status.get("exited"):
                return exec_reply(status)
            time.sleep(0.2)
        raise AgentError(f"{' '.join(argv)[:80]}: still running after {timeout:.0f} s")

    def sh(self, script: str, timeout: float = 120.0) -> Done:
        return self.run("/bin/sh", "-c", script, timeout=timeout)

    def read(self, path: str) -> bytes:
        handle = self.agent.call("guest-file-open", path=path, mode="r")
        data = b""
        try:
            while True:
                part = self.agent.call("guest-file-read", handle=handle, count=48 * 1024)
                data += base64.b64decode(part.get("buf-b64", ""))
                if part.get("eof") or not part.get("count"):
                    return data
        finally:
            self.agent.call("guest-file-close", handle=handle)

    def write(self, path: str, data: bytes) -> None:
        handle = self.agent.call("guest-file-open", path=path, mode="w")
        try:
            for start in range(0, len(data), 48 * 1024) or [0]:
                self.agent.call("guest-file-write", handle=handle,
                                **{"buf-b64": base64.b64encode(data[start:start + 48 * 1024]).decode()})
        finally:
            self.agent.call("guest-file-close", handle=handle)

    def cut_power(self) -> None:
        """Pull the plug: qemu killed, nothing flushed."""
        if self.agent:
            self.agent.close()
            self.agent = None
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def shut_down(self, timeout: float = 180.0) -> None:
        """systemctl poweroff, as an owner would; the plug is pulled if it does not finish."""
        try:
            self.agent.call("guest-shutdown", mode="powerdown")
        except (AgentError, OSError):
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        self.cut_power()
