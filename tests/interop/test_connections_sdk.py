"""SPEC §15 "Management": the vendor's Python SDK (auth0-python, unchanged) manages connections — create, list by
strategy with its checkpoint pager, get, update, enable for clients both ways, delete."""

from __future__ import annotations

from wardenlib import uid


def test_auth0_python_manages_connections(warden, sdk):
    client_id = warden.create_client()["client_id"]
    name = f"gh-sdk-{uid()}"[:30]
    created = sdk.connections.create(name=name, strategy="github", display_name="GitHub",
                                     options={"client_id": "gh-app", "client_secret": "gh-secret", "email": True})
    assert created.id.startswith("con_") and created.name == name and created.strategy == "github"
    assert created.display_name == "GitHub" and created.enabled_clients == []
    options = created.options if isinstance(created.options, dict) else created.options.dict()
    assert "client_secret" not in options

    listed = [c.name for c in sdk.connections.list(strategy="github", take=2)]
    assert name in listed
    assert sdk.connections.get(created.id).name == name

    updated = sdk.connections.update(created.id, show_as_button=True, display_name="GitHub (work)")
    assert updated.show_as_button is True and updated.display_name == "GitHub (work)"

    sdk.connections.clients.update(created.id, request=[{"client_id": client_id, "status": True}])
    assert [c.client_id for c in sdk.connections.clients.get(created.id)] == [client_id]
    of_client = [c.name for c in sdk.clients.connections.get(client_id)]
    assert sorted(of_client) == sorted([name, "Username-Password-Authentication"])

    sdk.connections.delete(created.id)
    assert name not in [c.name for c in sdk.connections.list(name=name)]
