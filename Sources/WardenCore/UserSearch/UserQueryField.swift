/// A searchable user attribute (SPEC §9): a column of the `users` table, or a path into one of its
/// metadata objects (`user_metadata.address.city`).
public struct UserQueryField: Sendable, Hashable, CustomStringConvertible {
    /// The `users` column a field reads. The raw value is both the name in a query and the column's name.
    public enum Column: String, Sendable, Hashable, CaseIterable {
        case userID = "user_id"
        case email
        case emailVerified = "email_verified"
        case name
        case nickname
        case blocked
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        /// `identities.connection`: the name of a connection the user has an identity of (SPEC §15).
        case identities
    }

    /// The column read.
    public let column: Column
    /// For the metadata columns, the keys leading to the value, outermost first, each non-empty and made of
    /// `[A-Za-z0-9_-]` only (so they are safe in a JSON path); `["connection"]` for `identities`; empty for the
    /// other columns.
    public let path: [String]

    private init(_ column: Column, path: [String] = []) {
        self.column = column
        self.path = path
    }

    /// `user_id`, compared case-sensitively.
    public static let userID = UserQueryField(.userID)
    /// `email`, compared case-insensitively.
    public static let email = UserQueryField(.email)
    /// `email_verified`, a boolean.
    public static let emailVerified = UserQueryField(.emailVerified)
    /// `name`, compared case-insensitively.
    public static let name = UserQueryField(.name)
    /// `nickname`, compared case-insensitively.
    public static let nickname = UserQueryField(.nickname)
    /// `blocked`, a boolean.
    public static let blocked = UserQueryField(.blocked)
    /// `identities.connection`, compared case-sensitively (SPEC §15 "Users").
    public static let identityConnection = UserQueryField(.identities, path: ["connection"])

    /// The fields a value without a field name is matched against (any of them may match).
    public static let bareTermFields: [UserQueryField] = [.email, .name, .nickname, .userID]

    /// Whether the field is a path into a metadata object (searched in the projection of SPEC §9).
    public var isMetadata: Bool {
        column == .userMetadata || column == .appMetadata
    }

    /// Whether the field holds `true`/`false` and accepts only those two values.
    public var isBoolean: Bool {
        column == .emailVerified || column == .blocked
    }

    /// Whether values are compared ignoring case: the vendor's normalized profile fields (`email`, `name`,
    /// `nickname`). Every other field, metadata included, is case-sensitive.
    public var isCaseInsensitive: Bool {
        column == .email || column == .name || column == .nickname
    }

    /// The name as written in a query, e.g. `app_metadata.plan`.
    public var description: String {
        ([column.rawValue] + path).joined(separator: ".")
    }

    /// Resolves a field name from a query; `position` is where the name starts, for the error.
    init(named name: String, at position: Int) throws(UserQueryError) {
        var segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let column = Column(rawValue: segments.removeFirst()) else {
            throw UserQueryError(.unknownField, "Unknown field '\(name)'", at: position)
        }
        switch column {
        case .identities:
            guard segments == ["connection"] else {
                throw UserQueryError(
                    .unknownField, "Unknown field '\(name)'", at: position,
                    hint: "did you mean 'identities.connection'?")
            }
        case .userMetadata, .appMetadata:
            guard !segments.isEmpty else {
                throw UserQueryError(
                    .unknownField, "Field '\(name)' needs a path", at: position, hint: "e.g. '\(name).plan'")
            }
            guard segments.allSatisfy(Self.isValidSegment) else {
                throw UserQueryError(
                    .unknownField, "Invalid field '\(name)'", at: position,
                    hint: "path segments are non-empty and use only letters, digits, '_' and '-'")
            }
        default:
            guard segments.isEmpty else {
                throw UserQueryError(.unknownField, "Unknown field '\(name)'", at: position)
            }
        }
        self.init(column, path: segments)
    }

    private static func isValidSegment(_ segment: String) -> Bool {
        !segment.isEmpty
            && segment.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
                default: false
                }
            }
    }
}
