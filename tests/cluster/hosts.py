"""Hosts made of Linux network namespaces: each host a namespace with its own
address on a private bridge that the run makes and removes. Needs root (and
``ip`` from iproute2); ``Network.available()`` says whether this machine can."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


@dataclass
class Host:
    name: str  # the namespace
    address: str
    veth: str  # the host's end of its link, in the root namespace
    processes: list[subprocess.Popen] = field(default_factory=list)

    def start(
        self,
        command: list[str],
        log: Path,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        user: str | None = None,
    ) -> subprocess.Popen:
        """Start ``command`` on this host, in a process group of its own, its output to ``log``."""
        prefix = ["ip", "netns", "exec", self.name]
        if user:
            prefix += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"]
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                prefix + command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, process_group=0
            )
        self.processes.append(proc)
        return proc

    def run(self, command: list[str], user: str | None = None, env: dict[str, str] | None = None) -> str:
        prefix = ["ip", "netns", "exec", self.name]
        if user:
            prefix += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"]
        done = subprocess.run(prefix + command, capture_output=True, text=True, env=env, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} on {self.name}: {done.stdout}{done.stderr}")
        return done.stdout

    def kill(self, proc: subprocess.Popen) -> None:
        """``kill -9`` of the process and everything it started."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def cut(self) -> None:
        """Take the host's link down: nothing reaches it, it reaches nothing."""
        _ip("link", "set", self.veth, "down")

    def heal(self) -> None:
        _ip("link", "set", self.veth, "up")


class Network:
    """A bridge in the root namespace (the test's own address on it) and hosts on it."""

    def __init__(self) -> None:
        tag = secrets.token_hex(2)
        self.tag = tag
        self.bridge = f"trb{tag}"
        self.subnet = f"10.{200 + secrets.randbelow(50)}.{secrets.randbelow(250)}"
        self.gateway = f"{self.subnet}.1"
        self.hosts: list[Host] = []
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")

    @staticmethod
    def available() -> str | None:
        """None when namespaces can be made here, else why not."""
        if os.geteuid() != 0:
            return "making network namespaces needs root"
        probe = f"trprobe{secrets.token_hex(2)}"
        try:
            made = _ip("netns", "add", probe, check=False)
        except FileNotFoundError:
            return "iproute2's `ip` is not installed"
        if made.returncode:
            return f"`ip netns add` failed: {made.stderr.strip()}"
        _ip("netns", "del", probe, check=False)
        return None

    def host(self, name: str) -> Host:
        number = 10 + len(self.hosts)
        ns, outside, inside = f"tr{self.tag}{name}", f"trv{self.tag}{number}", f"tri{self.tag}{number}"
        address = f"{self.subnet}.{number}"
        _ip("netns", "add", ns)
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", ns)
        _ip("link", "set", outside, "master", self.bridge)
        _ip("link", "set", outside, "up")
        _ip("-n", ns, "addr", "add", f"{address}/24", "dev", inside)
        _ip("-n", ns, "link", "set", inside, "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        _ip("-n", ns, "route", "add", "default", "via", self.gateway)
        host = Host(ns, address, outside)
        self.hosts.append(host)
        return host

    def remove(self) -> None:
        """Kill every process the hosts started and remove the hosts and the bridge."""
        for host in reversed(self.hosts):  # the services before the servers they use
            for proc in host.processes:
                if proc.poll() is None:
                    host.kill(proc)
            _ip("link", "del", host.veth, check=False)
            _ip("netns", "del", host.name, check=False)
        _ip("link", "del", self.bridge, check=False)
