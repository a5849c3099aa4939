"""A bundle's signature: made by whoever builds releases, checked by the box before it reads the payload.

    python3 deploy/signing.py key PATH            (make release-key) the release key at PATH, made if
                                                  missing; prints its fingerprint
    python3 deploy/signing.py trust KEY.pub FILE  (install.sh --trust) FILE trusts that key alone

The crypto is OpenSSH's own (``ssh-keygen -Y sign`` and ``-Y verify``, OpenSSH 8.1
and later: on every Raspberry Pi OS and on the card, which has openssh-server),
never ours. What is signed is the bundle's manifest, bundle.json, which names
the payload's SHA-256 and size: the signature covers every byte of the
payload through it. The namespace ties a signature to this use: one made for
a git commit or a file with the same key is not a bundle's.

The box trusts the keys in /opt/cantstop-box/release-keys, in OpenSSH's
allowed-signers format (one ``release namespaces="cantstop-box-bundle" <key>``
line per key), written by ``cantstop-box-update --trust KEY.pub``, by
``deploy/install.sh --trust KEY.pub`` and by ``make image`` (the builder's key).
Stdlib only: the updater runs it with the system's python3.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__:  # deploy.signing (the tests)
    from .releases import UpdateError
else:  # a script beside releases.py (the box, make release-key)
    from releases import UpdateError

#: The trust file's name, in /opt/cantstop-box (the data partition on a card: an --trust outlasts a boot).
TRUST_FILE = "release-keys"
NAMESPACE = "cantstop-box-bundle"
PRINCIPAL = "release"
#: A signature is about 300 bytes; a trust file a few lines; a public key one line.
SIGNATURE_LIMIT = 16 * 1024
KEYS_LIMIT = 64 * 1024
PUBLIC_KEY_LIMIT = 16 * 1024
TIMEOUT_S = 60
#: "Good "ns" signature for release with ED25519 key SHA256:..." (verify), "... with ED25519 key SHA256:..."
#: (check-novalidate); ssh-keygen -l: "256 SHA256:... comment (ED25519)".
FINGERPRINT = re.compile(r"\bSHA256:[A-Za-z0-9+/]{43}")
KEY_LINE = re.compile(r"^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com|"
                      r"sk-ecdsa-sha2-nistp256@openssh\.com) [A-Za-z0-9+/]+={0,3}( .*)?$")
NO_TOOL = "ssh-keygen is missing (sudo apt install openssh-client)"


def _keygen(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["ssh-keygen", *args], input=data, capture_output=True, timeout=TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise UpdateError(NO_TOOL) from None
    except subprocess.TimeoutExpired:
        raise UpdateError(f"ssh-keygen {args[0]} {args[1]} took over {TIMEOUT_S} s") from None


def _said(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in (done.stderr + done.stdout).decode(errors="replace").splitlines() if line.strip()]
    return (lines or ["?"])[-1][:120]


def _read_small(path: Path, limit: int, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise UpdateError(f"{path}: no such file ({what})") from None
    except OSError as err:
        raise UpdateError(f"{path}: cannot read it ({err.strerror or err})") from None
    if len(data) > limit:
        raise UpdateError(f"{path}: over {limit // 1024} KB: not {what}")
    return data


# -- the key (whoever builds releases) ------------------------------------------------

def ensure_key(key: Path) -> bool:
    """The release key at ``key`` (its public half at ``key``.pub), made if it is missing: an Ed25519 key
    without a passphrase, readable by its owner only. Whether it was made now."""
    key = Path(key).expanduser()
    if key.exists():
        public_key(key.with_name(key.name + ".pub"))
        return False
    key.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    comment = f"cantstop-box release key ({os.environ.get('USER', 'builder')}@{os.uname().nodename})"
    done = _keygen("-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(key))
    if done.returncode:
        raise UpdateError(f"cannot make a release key at {key}: {_said(done)}")
    return True


def public_key(pub: Path) -> str:
    """The one OpenSSH public key in the file ``pub`` (its line), checked."""
    try:
        text = _read_small(Path(pub), PUBLIC_KEY_LIMIT, "a public key").decode("ascii").strip()
    except UnicodeDecodeError:
        raise UpdateError(f"{pub}: not an OpenSSH public key (ssh-ed25519 AAAA...)") from None
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if len(lines) != 1 or not KEY_LINE.match(lines[0].strip()):
        raise UpdateError(f"{pub}: not one OpenSSH public key (ssh-ed25519 AAAA...; the .pub beside the key)")
    return lines[0].strip()


def fingerprint(key_line: str) -> str:
    """SHA256:... of a public key's line, as ssh-keygen -l says it."""
    with tempfile.TemporaryDirectory(prefix="cantstop-key-") as tmp:
        path = Path(tmp) / "key.pub"
        path.write_text(key_line + "\n")
        done = _keygen("-l", "-f", str(path))
    found = FINGERPRINT.search(done.stdout.decode(errors="replace"))
    if done.returncode or not found:
        raise UpdateError(f"not an OpenSSH public key: {_said(done)}")
    return found.group(0)


def sign(data: bytes, key: Path) -> bytes:
    """The signature of ``data`` (the manifest) with the private key at ``key``."""
    key = Path(key).expanduser()
    if not key.is_file():
        raise UpdateError(f"{key}: no release key there (make release-key makes one; docs/update.md)")
    done = _keygen("-Y", "sign", "-q", "-f", str(key), "-n", NAMESPACE, data=data)
    if done.returncode or not done.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise UpdateError(f"cannot sign with {key}: {_said(done)}")
    return done.stdout


# -- the box's trust ------------------------------------------------------------------

def signers_text(key_lines: list[str]) -> str:
    """The trust file for these public keys (OpenSSH's allowed-signers format)."""
    head = ("# The release keys this box takes update bundles from (docs/update.md). One line a key;\n"
            "# written by cantstop-box-update --trust KEY.pub.\n")
    return head + "".join(f'{PRINCIPAL} namespaces="{NAMESPACE}" {line}\n' for line in key_lines)


def trust(pub: Path, signers: Path) -> str:
    """The box takes bundles signed by the key in ``pub`` only, from now on: the trust file ``signers``
    holds that key and no other (written whole, then renamed). Its fingerprint."""
    line = public_key(pub)
    said = fingerprint(line)
    tmp = signers.with_name(f".{signers.name}.new")
    try:
        signers.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(signers_text([line]))
        tmp.chmod(0o644)
        os.replace(tmp, signers)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise UpdateError(f"{signers}: cannot write it ({err.strerror or err})") from None
    return said


def trusted(signers: Path) -> list[str]:
    """The fingerprints of the keys in the trust file (UpdateError when there is none, or it is not one)."""
    if not signers.exists():
        raise UpdateError("this box trusts no release key yet, so it takes no bundle: "
                          "sudo cantstop-box-update --trust KEY.pub (docs/update.md)")
    text = _read_small(signers, KEYS_LIMIT, "a trust file").decode("ascii", errors="replace")
    keys = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(" ", 2)
        if len(parts) < 3 or parts[0] != PRINCIPAL or parts[1] != f'namespaces="{NAMESPACE}"' or not KEY_LINE.match(parts[2]):
            raise UpdateError(f"{signers} line {number} is not a release key's line: "
                              "sudo cantstop-box-update --trust KEY.pub writes it again")
        keys.append(fingerprint(parts[2]))
    if not keys:
        raise UpdateError(f"{signers} holds no key: sudo cantstop-box-update --trust KEY.pub (docs/update.md)")
    return keys


def verify(name: str, data: bytes, signature: bytes, signers: Path) -> str:
    """That ``signature`` is of ``data`` by a key in the trust file ``signers``: the key's fingerprint,
    else UpdateError in one line naming the key that signed it, when it is whole but another."""
    keys = trusted(signers)
    with tempfile.TemporaryDirectory(prefix="cantstop-sig-") as tmp:
        sig = Path(tmp) / "bundle.json.sig"
        sig.write_bytes(signature)
        done = _keygen("-Y", "verify", "-f", str(signers), "-I", PRINCIPAL, "-n", NAMESPACE, "-s", str(sig), data=data)
        if done.returncode == 0:
            found = FINGERPRINT.search(done.stdout.decode(errors="replace"))
            return found.group(0) if found else "?"
        # Whole but by another key, or not a signature of this manifest at all?
        alone = _keygen("-Y", "check-novalidate", "-n", NAMESPACE, "-s", str(sig), data=data)
    by = FINGERPRINT.search(alone.stdout.decode(errors="replace")) if alone.returncode == 0 else None
    if by:
        raise UpdateError(f"{name}: refused: signed by another key ({by.group(0)}), not by this box's release "
                          f"key ({', '.join(keys)})")
    raise UpdateError(f"{name}: refused: its signature does not match its manifest (a damaged or altered "
                      "bundle): copy it again from whoever made it")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not ((len(args) == 2 and args[0] == "key") or (len(args) == 3 and args[0] == "trust")):
        print("usage: python3 deploy/signing.py key PATH | trust KEY.pub FILE", file=sys.stderr)
        return 2
    try:
        if args[0] == "trust":
            print(f"takes bundles signed by {trust(Path(args[1]), Path(args[2]))} (in {args[2]})")
            return 0
        key = Path(args[1]).expanduser()
        made = ensure_key(key)
        said = fingerprint(public_key(key.with_name(key.name + ".pub")))
    except (UpdateError, OSError) as err:
        print(f"release key: {err}", file=sys.stderr)
        return 1
    print(f"release key {key}{' (made now: keep it safe; docs/update.md)' if made else ''}: {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
