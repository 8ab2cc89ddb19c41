"""A ``sleep`` a test ends by hand: the debounce of the search field without waiting."""

from __future__ import annotations

import asyncio


class ManualSleep:
    """Each call waits until ``pass_time()``; ``asked`` lists the seconds each call asked for."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self._gates: list[asyncio.Event] = []
        self._called = asyncio.Condition()

    async def __call__(self, seconds: float) -> None:
        gate = asyncio.Event()
        self.asked.append(seconds)
        self._gates.append(gate)
        async with self._called:
            self._called.notify_all()
        await gate.wait()

    async def sleepers(self, count: int) -> None:
        """Returns once ``count`` calls are waiting."""
        async with self._called:
            await self._called.wait_for(lambda: len(self._gates) >= count)

    def pass_time(self) -> None:
        """Every wait so far ends."""
        for gate in self._gates:
            gate.set()
