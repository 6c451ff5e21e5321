"""Pausing the installed service beside it (companion calibrate), with systemctl played by a fake."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest

from companion.app.service import SERVICE, is_active, paused
from companion.errors import DeviceError


class Systemctl:
    """Answers like systemctl; ``refuse`` makes stop fail as polkit does for a user outside the admin group."""

    def __init__(self, active: bool, refuse: bool = False) -> None:
        self.active, self.refuse = active, refuse
        self.calls: list[list[str]] = []

    def __call__(self, arguments: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.calls.append(list(arguments))
        verb = arguments[0]
        if verb == "is-active":
            return subprocess.CompletedProcess(arguments, 0 if self.active else 3, "", "")
        if verb == "stop" and self.refuse:
            return subprocess.CompletedProcess(arguments, 1, "", "Failed to stop mandala-companion.service: "
                                               "Access denied\nSee system logs and 'systemctl status'.")
        self.active = verb != "stop"
        return subprocess.CompletedProcess(arguments, 0, "", "")


def test_a_running_service_is_paused_for_the_block_and_started_again() -> None:
    systemctl = Systemctl(active=True)
    with paused("to use the camera", run=systemctl) as was_running:
        assert was_running and not systemctl.active
    assert systemctl.active
    assert systemctl.calls == [["is-active", "--quiet", SERVICE], ["stop", SERVICE], ["start", SERVICE]]


def test_it_is_started_again_even_when_the_block_fails() -> None:
    systemctl = Systemctl(active=True)
    with pytest.raises(DeviceError), paused("to use the camera", run=systemctl):
        raise DeviceError("camera not found")
    assert systemctl.active


def test_keep_stopped_and_nothing_to_pause() -> None:
    systemctl = Systemctl(active=True)
    with paused("x", restart=False, run=systemctl):
        pass
    assert not systemctl.active
    idle = Systemctl(active=False)
    with paused("x", run=idle) as was_running:
        assert not was_running
    assert idle.calls == [["is-active", "--quiet", SERVICE]]


def test_a_user_who_may_not_pause_it_is_told_how_in_one_line() -> None:
    systemctl = Systemctl(active=True, refuse=True)
    with pytest.raises(DeviceError) as info, paused("to use the camera", run=systemctl):
        pytest.fail("must not run while the service holds the camera")
    message = str(info.value)
    assert "\n" not in message and "Access denied" in message
    assert "sudo" in message and "usermod -aG mandala-companion" in message


def test_without_systemctl_nothing_is_active(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert is_active() is False
