import SQLKit
public import WardenCore

import struct Foundation.Data
import struct Foundation.Date
import class Foundation.JSONDecoder
import class Foundation.JSONEncoder

/// `mfa_factors(name, enabled, settings)` and `mfa_policies(name)`: the tenant's MFA settings (SPEC §12), a few rows read on
/// logins that passed the first factor. `recent_logins(id, user_id, network, device_hash, did_mfa, at)`: each
/// user's newest successful logins, for the `confidence-score` policy.
extension SQLStore {
    /// One `SELECT name … WHERE enabled`.
    public func enabledMFAFactors() async throws -> Set<MFAFactor> {
        let rows = try await sql.select().column("name").from("mfa_factors").where("enabled", .equal, true).all()
        return Set(try rows.map { MFAFactor(rawValue: try $0.value("name")) })
    }

    /// `INSERT … ON CONFLICT (name) DO UPDATE`.
    public func setMFAFactor(_ factor: MFAFactor, enabled: Bool) async throws {
        try await sql.insert(into: "mfa_factors").columns("name", "enabled").values(factor.rawValue, enabled)
            .onConflict(with: "name") { $0.set(excludedValueOf: "enabled") }
            .run()
    }

    /// One `SELECT settings … WHERE name = ?`: the JSON of ``WebAuthnFactorSettings``.
    public func webAuthnFactorSettings(_ factor: MFAFactor) async throws -> WebAuthnFactorSettings {
        guard
            let text = try await sql.select().column("settings").from("mfa_factors")
                .where("name", .equal, factor.rawValue).first(decodingColumn: "settings", as: String?.self) ?? nil
        else { return WebAuthnFactorSettings() }
        return try JSONDecoder().decode(WebAuthnFactorSettings.self, from: Data(text.utf8))
    }

    /// `INSERT … ON CONFLICT (name) DO UPDATE SET settings`: a factor never enabled stays disabled.
    public func setWebAuthnFactorSettings(_ settings: WebAuthnFactorSettings, for factor: MFAFactor) async throws {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await sql.insert(into: "mfa_factors").columns("name", "enabled", "settings")
            .values(factor.rawValue, false, text)
            .onConflict(with: "name") { $0.set(excludedValueOf: "settings") }
            .run()
    }

    /// One `SELECT name … ORDER BY name`.
    public func mfaPolicies() async throws -> [MFAPolicy] {
        try await sql.select().column("name").from("mfa_policies").orderBy("name").all()
            .map { MFAPolicy(rawValue: try $0.value("name")) }
    }

    /// In one transaction: `DELETE` of every policy, then one `INSERT` of the new ones.
    public func setMFAPolicies(_ policies: [MFAPolicy]) async throws {
        let names = Array(Set(policies.map(\.rawValue)))
        try await transaction { db in
            try await db.delete(from: "mfa_policies").run()
            guard !names.isEmpty else { return }
            let insert = db.insert(into: "mfa_policies").columns("name")
            for name in names { insert.values(name) }
            try await insert.run()
        }
    }

    /// In one transaction: the `INSERT`, then a `DELETE` of the user's rows outside the newest `keep` (by time, then
    /// by insertion).
    public func recordSuccessfulLogin(_ login: RecentLogin, keep: Int) async throws {
        try await transaction { db in
            try await db.insert(into: "recent_logins").columns("user_id", "network", "device_hash", "did_mfa", "at")
                .values(
                    login.userID, login.network?.rawValue, login.deviceHash, login.didMFA,
                    login.at.millisecondsSince1970
                )
                .run()
            try await db.raw(
                """
                DELETE FROM recent_logins WHERE user_id = \(bind: login.userID) AND id NOT IN (
                    SELECT id FROM recent_logins WHERE user_id = \(bind: login.userID)
                    ORDER BY at DESC, id DESC LIMIT \(bind: keep))
                """
            ).run()
        }
    }

    /// One `SELECT … WHERE user_id = ? ORDER BY at DESC, id DESC` on the `(user_id, at)` index.
    public func recentLogins(userID: String) async throws -> [RecentLogin] {
        try await sql.select().column(SQLLiteral.all).from("recent_logins").where("user_id", .equal, userID)
            .orderBy("at", .descending).orderBy("id", .descending)
            .all()
            .map { row in
                RecentLogin(
                    userID: try row.value("user_id"),
                    network: try row.value("network", as: String?.self).map(LoginNetwork.init(rawValue:)),
                    deviceHash: try row.value("device_hash"), didMFA: try row.value("did_mfa"), at: try row.date("at"))
            }
    }
}
