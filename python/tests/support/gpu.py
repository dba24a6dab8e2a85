"""The GPU adapter the GPU tests need: without one they skip, unless SHATRANJ_REQUIRE_GPU=1
(scripts/test sets it where Mesa's lavapipe provides one) makes that a failure."""

from __future__ import annotations

import os

import pytest

import shatranj


def require_gpu() -> dict[str, str]:
    """The adapter's description (shatranj.gpu_info()), or a skip or failure without one."""
    info = shatranj.gpu_info()
    if info is None:
        if os.environ.get("SHATRANJ_REQUIRE_GPU") == "1":
            pytest.fail("SHATRANJ_REQUIRE_GPU=1 but shatranj.gpu_info() found no adapter")
        pytest.skip("no GPU adapter (on Linux: apt-get install mesa-vulkan-drivers)")
    return info
