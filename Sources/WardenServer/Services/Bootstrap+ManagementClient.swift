import Logging
import WardenCore
import WardenWire

/// The bootstrap management client is protected like the system API (SPEC §1): the Management API it authorizes
/// cannot delete it, change it or rotate its secret (403 `operation_not_allowed`), so a leaked management token
/// cannot lock the operator out or take the client over. Its secret is rotated from the command line instead
/// (`warden bootstrap rotate-secret`), or through `WARDEN_BOOTSTRAP_CLIENT_SECRET`.
extension Bootstrap {
    /// Whether `client` is the bootstrap management client: the one named by `WARDEN_BOOTSTRAP_CLIENT_ID`, or the
    /// one carrying the bootstrap marker in its `client_metadata`.
    static func isManagementClient(_ client: Client, configuration: WardenConfiguration) -> Bool {
        client.clientID == configuration.bootstrapClientID || client.clientMetadata[marker.0] == marker.1
    }

    /// The `client_metadata` key that marks the bootstrap client, which no Management API body may set.
    static var markerKey: String { marker.0 }

    /// Gives the management client a new server-generated secret (256 bits, stored as its SHA-256, SPEC §3) and
    /// returns it, to be shown once; running nodes learn of it as of any tenant change (NOTIFY on PostgreSQL, within
    /// 60 s otherwise). Refused when the secret comes from `WARDEN_BOOTSTRAP_CLIENT_SECRET`
    /// (the next start would put that one back) or when there is no management client yet.
    public func rotateManagementSecret() async throws -> (clientID: String, secret: String) {
        guard runtime.configuration.bootstrapClientSecret == nil else { throw BootstrapError.secretFromEnvironment }
        guard var record = try await managementClient() else { throw BootstrapError.noManagementClient }
        let secret = RandomToken.make()
        record.secretHash = SecretHash.sha256Hex(secret)
        record.updatedAt = runtime.clock.now()
        try await runtime.store.updateClient(record)
        try await runtime.tenantChanged()
        runtime.logger.notice(
            "management client secret rotated from the command line",
            metadata: ["client_id": "\(record.client.clientID)"])
        return (record.client.clientID, secret)
    }
}
