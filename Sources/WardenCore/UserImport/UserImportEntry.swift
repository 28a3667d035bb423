public import WardenWire

public import struct Foundation.Date

/// Why one entry of a users file was not imported (SPEC §9 "Bulk users"), in the vendor's job-error shape
/// `{"code", "message", "path"}`.
public struct UserImportIssue: Sendable, Equatable, Codable {
    /// The vendor's error codes for a rejected entry; an open set.
    public struct Code: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The entry is not JSON, or a property has the wrong JSON type.
        public static let invalidType: Code = "INVALID_TYPE"
        /// A value has the right type but not the right form (an e-mail address, a bcrypt hash, …).
        public static let invalidFormat: Code = "INVALID_FORMAT"
        public static let missingProperty: Code = "OBJECT_MISSING_REQUIRED_PROPERTY"
        public static let additionalProperty: Code = "OBJECT_ADDITIONAL_PROPERTIES"
        /// The user id or e-mail address exists (and `upsert` is off), or repeats in the file.
        public static let duplicatedUser: Code = "DUPLICATED_USER"
    }

    public var code: Code
    public var message: String
    /// The property at fault, empty for the whole entry.
    public var path: String

    public init(code: Code, message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }
}

/// A rejected entry: its position in the file (from 0), the entry as given, and every reason.
public struct UserImportRejection: Sendable, Equatable {
    public var index: Int
    /// The entry as the file gave it, or its text when it is not JSON.
    public var user: JSONValue
    public var errors: [UserImportIssue]

    public init(index: Int, user: JSONValue, errors: [UserImportIssue]) {
        self.index = index
        self.user = user
        self.errors = errors
    }
}

/// One entry of a users file turned into a ``UserRecord`` (SPEC §9 "Bulk users"): the fields of `/users` plus
/// `password_hash` (bcrypt `$2a$`, `$2b$` or `$2y$`) or `custom_password_hash` `{"algorithm": "bcrypt", "hash":
/// {"value"}}`. The hash is stored as given, never recomputed. `email` is required. The read-only fields of an
/// exported user (`identities`, `created_at`, `updated_at`, `last_login`, `logins_count`) are accepted and
/// ignored, so that an export imports back.
public enum UserImportEntry {
    static let profileProperties: Set<String> = [
        "user_id", "email", "email_verified", "name", "given_name", "family_name", "nickname", "picture", "blocked",
        "user_metadata", "app_metadata", "password_hash", "custom_password_hash",
    ]
    static let exportedProperties: Set<String> = [
        "identities", "created_at", "updated_at", "last_login", "logins_count",
    ]

    /// The record for `value`, created `now` with `newID()` unless the entry names its `user_id` (kept when it
    /// holds a `|`, else prefixed `auth0|` as `POST /users` does), or every reason it cannot be imported.
    public static func record(from value: JSONValue, now: Date, newID: () -> String) -> Checked {
        guard case .object(let members) = value else {
            return .invalid([UserImportIssue(code: .invalidType, message: "Expected type object", path: "")])
        }
        var reader = Reader(members: members)
        for key in members.keys.sorted()
        where !profileProperties.contains(key) && !exportedProperties.contains(key) {
            reader.fail(.additionalProperty, "Additional properties not allowed: \(key)", key)
        }
        let email = reader.string("email")
        if let email, !EmailAddress.isValid(email) {
            reader.fail(.invalidFormat, "Object didn't pass validation for format email: \(email)", "email")
        } else if email == nil, members["email"] == nil {
            reader.fail(.missingProperty, "Missing required property: email", "email")
        }
        let userID = reader.string("user_id").map { given in
            if given.isEmpty || given.count > 255 || given.contains(where: \.isWhitespace) {
                reader.fail(.invalidFormat, "Expected 1 to 255 characters without spaces", "user_id")
            }
            return given.contains("|") ? given : "auth0|" + given
        }
        var user = User(userID: userID ?? newID(), email: email?.lowercased(), createdAt: now)
        user.emailVerified = reader.bool("email_verified") ?? false
        user.name = reader.string("name")
        user.givenName = reader.string("given_name")
        user.familyName = reader.string("family_name")
        user.nickname = reader.string("nickname")
        user.picture = reader.string("picture")
        user.blocked = reader.bool("blocked") ?? false
        user.userMetadata = reader.object("user_metadata") ?? [:]
        user.appMetadata = reader.object("app_metadata") ?? [:]
        let hash = passwordHash(&reader)
        guard reader.issues.isEmpty else { return .invalid(reader.issues) }
        return .valid(UserRecord(user: user, passwordHash: hash))
    }

    /// An entry checked: its record, or why it cannot be imported.
    public enum Checked: Sendable, Equatable {
        case valid(UserRecord)
        case invalid([UserImportIssue])
    }

    /// `password_hash`, or `custom_password_hash` with the bcrypt algorithm; not both.
    private static func passwordHash(_ reader: inout Reader) -> String? {
        let plain = reader.string("password_hash")
        guard let custom = reader.object("custom_password_hash") else {
            if let plain, !BcryptHash.isValid(plain) {
                reader.fail(.invalidFormat, "Expected a bcrypt hash ($2a$, $2b$ or $2y$)", "password_hash")
            }
            return plain
        }
        guard plain == nil else {
            reader.fail(
                .invalidFormat, "password_hash and custom_password_hash cannot both be given", "custom_password_hash")
            return nil
        }
        guard custom["algorithm"] == .string("bcrypt") else {
            reader.fail(.invalidFormat, "The only supported algorithm is bcrypt", "custom_password_hash.algorithm")
            return nil
        }
        guard case .object(let hash)? = custom["hash"], case .string(let value)? = hash["value"],
            BcryptHash.isValid(value)
        else {
            reader.fail(.invalidFormat, "Expected a bcrypt hash in hash.value", "custom_password_hash.hash.value")
            return nil
        }
        return value
    }

    /// Typed reads of an entry's members that collect a type error instead of stopping at it.
    private struct Reader {
        let members: [String: JSONValue]
        var issues: [UserImportIssue] = []

        mutating func fail(_ code: UserImportIssue.Code, _ message: String, _ path: String) {
            issues.append(UserImportIssue(code: code, message: message, path: path))
        }

        mutating func string(_ key: String) -> String? {
            typed(key, "string") { $0.stringValue }
        }

        mutating func bool(_ key: String) -> Bool? {
            typed(key, "boolean") { $0.boolValue }
        }

        mutating func object(_ key: String) -> [String: JSONValue]? {
            typed(key, "object") {
                guard case .object(let object) = $0 else { return nil }
                return object
            }
        }

        private mutating func typed<T>(_ key: String, _ type: String, _ cast: (JSONValue) -> T?) -> T? {
            guard let value = members[key], value != .null else { return nil }
            guard let typed = cast(value) else {
                fail(.invalidType, "Expected type \(type)", key)
                return nil
            }
            return typed
        }
    }
}

/// A bcrypt hash in modular crypt format: `$2a$`, `$2b$` or `$2y$`, a two-digit cost from 04 to 31, and 53
/// characters of bcrypt's base64 (22 of salt, 31 of hash).
public enum BcryptHash {
    public static func isValid(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            let cost = Int(String(decoding: bytes[4...5], as: UTF8.self)), (4...31).contains(cost)
        else { return false }
        return bytes[7...].allSatisfy { byte in
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// The hash as the verifier reads it: `$2y$` (PHP's name for the corrected algorithm) is `$2b$`, which the
    /// OpenBSD verifier knows; the others are unchanged.
    public static func verifiable(_ hash: String) -> String {
        hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
    }
}
