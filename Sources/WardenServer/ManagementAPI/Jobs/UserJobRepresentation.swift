import WardenCore
import WardenWire

/// Bulk-users jobs as the vendor's Management API shows them (SPEC §9 "Bulk users").
enum UserJobRepresentation {
    /// `{"id", "type", "status", "connection_id", "connection", "created_at"}`, plus `upsert` and `summary` for
    /// an import, `format` and, once completed, `location` for an export, and `status_details` for a failed job.
    static func job(_ job: UserJob, issuer: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(job.id), "type": .string(job.type.rawValue), "status": .string(job.status.rawValue),
            "connection_id": .string(job.connectionID), "connection": .string(Connection.databaseName),
            "created_at": ManagementResponse.timestamp(job.createdAt),
        ]
        if job.type == .usersImport {
            members["upsert"] = .bool(job.upsert)
            members["summary"] = summary(job.summary)
        }
        if let format = job.format { members["format"] = .string(format) }
        if job.type == .usersExport, job.status == .completed {
            members["location"] = .string(location(of: job, issuer: issuer))
        }
        if let failure = job.failure { members["status_details"] = .string(failure) }
        return .object(members)
    }

    /// `{"inserted", "updated", "failed", "total"}`.
    static func summary(_ summary: UserImportSummary) -> JSONValue {
        [
            "inserted": .number(Double(summary.inserted)), "updated": .number(Double(summary.updated)),
            "failed": .number(Double(summary.failed)), "total": .number(Double(summary.total)),
        ]
    }

    /// `{"index", "user", "errors": [{"code", "message", "path"}]}`: the vendor's shape with the entry's index.
    static func rejection(_ rejection: UserImportRejection) -> JSONValue {
        [
            "index": .number(Double(rejection.index)), "user": rejection.user,
            "errors": .array(
                rejection.errors.map {
                    ["code": .string($0.code.rawValue), "message": .string($0.message), "path": .string($0.path)]
                }),
        ]
    }

    /// Where an export is downloaded: `{issuer}api/v2/jobs/{id}/download`, with a Management token that has
    /// `read:users`.
    static func location(of job: UserJob, issuer: String) -> String {
        issuer + "api/v2/jobs/\(job.id)/download"
    }
}
