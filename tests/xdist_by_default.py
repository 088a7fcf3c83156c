"""A pytest plugin (loaded by pyproject's addopts): the suite runs on every core by default
(`-n auto --dist loadgroup`) when pytest-xdist is installed and neither switched off
(`-p no:xdist`, as when debugging one test) nor told otherwise (`-n N`)."""

from __future__ import annotations

import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, args: list[str]) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not early_config.pluginmanager.has_plugin("xdist"):
        return
    if any(arg.startswith(("-n", "--numprocesses", "--dist")) for arg in args):
        return
    args[:] = [*args, "-n", "auto", "--dist", "loadgroup", "--no-loadscope-reorder"]
