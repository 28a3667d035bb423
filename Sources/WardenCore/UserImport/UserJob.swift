public import WardenWire

public import struct Foundation.Date

/// A bulk-users job of the Management API (SPEC §9 "Bulk users"): an import of a users file or an export of
/// every user, run in the background; its status is polled at `GET /api/v2/jobs/{id}`.
public struct UserJob: Sendable, Equatable {
    /// `job_` and 16 letters or digits.
    public var id: String
    public var type: Kind
    public var status: Status
    /// The database connection's id (``User/connectionID``).
    public var connectionID: String
    /// Imports: whether an existing user (same e-mail, else same id) is updated instead of reported.
    public var upsert: Bool
    /// Exports: the file format (`json`: one user a line).
    public var format: String?
    public var createdAt: Date
    /// Moved forward as the job makes progress: a job in progress that has not moved for a while was interrupted.
    public var updatedAt: Date
    /// Imports: what happened to the entries so far.
    public var summary: UserImportSummary
    /// A failed job: why.
    public var failure: String?

    /// The vendor's job types; an open set.
    public struct Kind: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let usersImport: Kind = "users_import"
        public static let usersExport: Kind = "users_export"
        /// A verification e-mail sent on request (SPEC §15.1 `POST /jobs/verification-email`).
        public static let verificationEmail: Kind = "verification_email"
    }

    /// The vendor's job states; an open set.
    public struct Status: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let pending: Status = "pending"
        public static let processing: Status = "processing"
        public static let completed: Status = "completed"
        public static let failed: Status = "failed"

        /// Whether the job has ended.
        public var isFinal: Bool { self == .completed || self == .failed }
    }

    public init(
        id: String = RandomToken.identifier(prefix: "job_", length: 16), type: Kind, connectionID: String,
        upsert: Bool = false, format: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.type = type
        self.status = .pending
        self.connectionID = connectionID
        self.upsert = upsert
        self.format = format
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.summary = UserImportSummary()
        self.failure = nil
    }
}

/// The counts of an import (the vendor's job `summary`).
public struct UserImportSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var failed = 0
    /// Entries read so far.
    public var total = 0

    public init(inserted: Int = 0, updated: Int = 0, failed: Int = 0, total: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.failed = failed
        self.total = total
    }
}

/// What a batch insert did with one record (``UserStore/insertUsers(_:upsert:)``).
public enum BulkUserOutcome: Sendable, Equatable {
    case inserted
    /// `upsert` was on and an existing user took the record's profile.
    case updated
    /// The user id or e-mail address exists (or repeats in the batch) and `upsert` was off.
    case duplicate
}
