"""The account a browser session is signed in to: its client, screens and person.

Kept by the sign-in while the person is signed in; retired when the server
refuses its token (the client closed, the remembered token and the copy that
token opened forgotten).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from viewmodels.sign_in.ports import OfflineCopies, SignedInApi
from viewmodels.sign_in.remembered import RememberedSignIn
from viewmodels.sign_in.snapshot import Person

AccountT = TypeVar("AccountT")


@dataclass(frozen=True, slots=True, eq=False)
class SignedAccount(Generic[AccountT]):
    api: SignedInApi
    account: AccountT
    generation: int
    """The sign-in's generation it was made in: an answer for an older one is dropped."""
    person: Person
    remembered: bool
    verified: bool = True

    async def retire(self, remembered: RememberedSignIn, copies: OfflineCopies | None) -> None:
        """Its token was refused: close its client, forget the token and what it kept."""
        await self.api.aclose()
        await remembered.forget()
        if self.remembered and copies is not None:
            await copies.erase(self.person)  # a refused token's copy is never shown
