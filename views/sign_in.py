"""The hosted web view's root: the sign-in screen until a person is signed in, then the app.

Renders ``viewmodels.sign_in.SignInSnapshot`` as it is; every decision (what
a token may look like, what a refusal says, what "remember" keeps) is the view
model's. The form is one column: the token field (obscured, with a reveal
button; Enter submits), "Remember on this device", and Sign in. While a
remembered token is checked the screen says so; when the server cannot be
reached for it, the usual failure panel offers Retry (and Sign out, which
forgets the token).

Keyboard: the token field has focus on arrival; Tab reaches the checkbox
(Space toggles it) and the button; Enter in the field signs in.
"""

from __future__ import annotations

import flet as ft

from viewmodels.sign_in import SignInPhase, SignInSnapshot
from viewmodels.sign_in.snapshot import (
    HIDE_TOKEN_LABEL,
    REMEMBER_LABEL,
    SHOW_TOKEN_LABEL,
    SIGN_IN_LABEL,
    SIGN_OUT_LABEL,
    TOKEN_LABEL,
)
from views.actions import icon_action
from views.app_shell import AppShell
from views.binding import Held, focus_soon, run_command, use_snapshot
from views.screen_models import SignedInAccount, SignInModel
from views.status_panels import centered, error_panel, loading_panel
from views.words import provide_words, use_words

FORM_WIDTH = 380


@ft.component
def SignInGate(model: SignInModel) -> ft.Control:
    """The app for the signed-in person, else the sign-in screen."""
    snapshot = use_snapshot(model)
    page = ft.context.page
    if snapshot.account is not None:
        return AppShell(snapshot.account.models)
    # The app's shortcuts belong to the app: none act behind the sign-in screen.
    page.on_keyboard_event = None
    # The screen's words follow the browser's language once it is known.
    return provide_words(
        snapshot.locale,
        lambda: ft.View(
            route=page.route or "/",
            padding=0,
            controls=[SignInScreen(model, snapshot)],
        ),
    )


@ft.component
def SignInScreen(model: SignInModel, snapshot: SignInSnapshot[SignedInAccount]) -> ft.Control:
    token, set_token = ft.use_state("")
    # What the field holds now: a click may arrive before the re-render that
    # the last keystroke or paste asked for, so Sign in reads this, not ``token``.
    typed: Held[str] = ft.use_ref("")
    revealed, set_revealed = ft.use_state(False)
    field: Held[ft.TextField] = ft.use_ref()
    words = use_words()

    def change(value: str) -> None:
        typed.current = value
        set_token(value)

    def refocus_after_refusal() -> None:
        # Flutter drops the focus when Enter submits: give it back to the field,
        # so the person corrects the token and presses Enter again.
        if snapshot.error and snapshot.form_enabled and field.current is not None:
            focus_soon(field.current)

    ft.use_effect(refocus_after_refusal, [snapshot.error, snapshot.phase])
    if snapshot.phase is SignInPhase.UNREACHABLE:
        return ft.Column(
            [
                error_panel(
                    snapshot.unreachable_title,
                    snapshot.error,
                    lambda: run_command(model.retry),
                    words=words,
                ),
                ft.Container(
                    content=ft.TextButton(
                        words.gettext(SIGN_OUT_LABEL),
                        on_click=lambda: run_command(model.sign_out),
                    ),
                    alignment=ft.Alignment.CENTER,
                    padding=ft.Padding.only(bottom=32),
                ),
            ],
            expand=True,
        )
    if not snapshot.shows_form:
        return loading_panel(snapshot.checking_text)

    def submit() -> None:
        run_command(model.sign_in, typed.current or "")

    enabled = snapshot.form_enabled
    parts: list[ft.Control] = [
        ft.Text(
            snapshot.form_title,
            theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
            weight=ft.FontWeight.W_600,
        ),
        ft.Text(snapshot.form_hint, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if snapshot.notice:
        parts.append(_note(snapshot.notice, ft.Icons.INFO_OUTLINE, ft.Colors.ON_SURFACE_VARIANT))
    field.current = ft.TextField(
        label=words.gettext(TOKEN_LABEL),
        value=token,
        password=not revealed,
        # Our own reveal button: Flutter's is nameless to screen readers.
        suffix=icon_action(
            ft.Icons.VISIBILITY_OFF if revealed else ft.Icons.VISIBILITY,
            words.gettext(HIDE_TOKEN_LABEL if revealed else SHOW_TOKEN_LABEL),
            lambda: set_revealed(not revealed),
        ),
        autofocus=True,
        on_change=lambda event: change(event.control.value or ""),
        on_submit=lambda: submit(),
    )
    parts.append(field.current)
    parts.append(
        ft.Checkbox(
            label=words.gettext(REMEMBER_LABEL),
            value=snapshot.remember,
            disabled=not enabled,
            on_change=lambda event: model.set_remember(bool(event.control.value)),
        )
    )
    if snapshot.error:
        parts.append(_note(snapshot.error, ft.Icons.ERROR_OUTLINE, ft.Colors.ERROR))
    parts.append(
        ft.Row(
            [
                ft.FilledButton(
                    words.gettext(SIGN_IN_LABEL), disabled=not enabled, on_click=lambda: submit()
                ),
                *([ft.ProgressRing(width=20, height=20, stroke_width=2)] if snapshot.busy else []),
            ],
            spacing=16,
        )
    )
    return centered(
        ft.Container(
            content=ft.Column(parts, spacing=16, tight=True),
            width=FORM_WIDTH,
        )
    )


def _note(text: str, icon: ft.IconData, colour: str) -> ft.Control:
    return ft.Row(
        [ft.Icon(icon, color=colour, size=20), ft.Text(text, color=colour, expand=True)],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
