"""A list kept in key order with cheap insert/remove and a cached tuple view.

The sidebar changes one session at a time (a new firing), so each section is
kept sorted and patched in place by bisection instead of re-sorted; the tuple
handed to the snapshot is rebuilt only when the section changed. A full
regroup fills sections in key order with ``append`` (no sort, no pairs).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class OrderedRows(Generic[T]):
    def __init__(self, pairs: Iterable[tuple[Any, T]] = ()) -> None:
        ordered = sorted(pairs, key=lambda pair: pair[0])
        self._keys: list[Any] = [key for key, _ in ordered]
        self._values: list[T] = [value for _, value in ordered]
        self._view: tuple[T, ...] | None = None

    @classmethod
    def in_order(cls, keys: list[Any], values: list[T]) -> OrderedRows[T]:
        """Adopt lists already in key order (a full regroup walks its sessions in order)."""
        rows: OrderedRows[T] = cls()
        rows._keys, rows._values = keys, values
        return rows

    def __len__(self) -> int:
        return len(self._keys)

    def insert(self, key: Any, value: T) -> None:
        index = bisect_left(self._keys, key)
        self._keys.insert(index, key)
        self._values.insert(index, value)
        self._view = None

    def append(self, key: Any, value: T) -> None:
        """Add after every key held: a full regroup walks its sessions in order already."""
        if self._keys and key < self._keys[-1]:
            self.insert(key, value)
            return
        self._keys.append(key)
        self._values.append(value)
        self._view = None

    def remove(self, key: Any) -> None:
        index = self._index(key)
        del self._keys[index]
        del self._values[index]
        self._view = None

    def holds(self, key: Any) -> bool:
        index = bisect_left(self._keys, key)
        return index < len(self._keys) and self._keys[index] == key

    def first(self) -> T:
        return self._values[0]

    def first_key(self) -> Any:
        return self._keys[0]

    def as_tuple(self) -> tuple[T, ...]:
        if self._view is None:
            self._view = tuple(self._values)
        return self._view

    def _index(self, key: Any) -> int:
        index = bisect_left(self._keys, key)
        if index == len(self._keys) or self._keys[index] != key:
            raise KeyError(key)
        return index
