public import SQLKit
public import WardenCore

/// Renders a user search query (SPEC §9) as a predicate over the `users` table, for a `WHERE` clause, that the
/// database answers through indexes (issue 16) rather than by reading every user.
///
/// The predicate reads the columns `user_id`, `email`, `name`, `nickname` (text), `email_verified`, `blocked`
/// (booleans; SQLite `INTEGER` 0/1) of `users`, and `user_fields` (``UserFieldsProjection``) for metadata. Every
/// value and metadata path taken from the query is bound with `SQLBind`; the SQL text itself is fixed. The
/// semantics, on both engines:
/// - `email`, `name`, `nickname`: `lower()` of both sides compared (SQLite folds ASCII letters only; PostgreSQL
///   follows the database's locale), through the indexes on `lower(column)` (SQLite's `email` is stored lower-cased
///   and compared as it is, through its own index); `user_id` and metadata: compared exactly.
/// - `field:v*`: `LIKE 'v%' ESCAPE '\'`, with `%`, `_` and `\` in `v` escaped (PostgreSQL answers it from a
///   `text_pattern_ops` index). SQLite's `LIKE` ignores ASCII case, so there a case-sensitive field compares
///   `substr(field, 1, length(v)) = v` instead; and since SQLite's `LIKE` cannot use an index on an expression,
///   it also gets the equivalent range `v <= field < successor(v)` (see ``UserQuerySQLRenderer/successor(of:)``),
///   which can.
/// - Booleans: `field IS TRUE` for `true`, `field IS NOT TRUE` for `false` (so `NULL` counts as false).
/// - Metadata: `EXISTS` a `user_fields` row of the user with the field's path and the value (or, for a prefix, a
///   value in the prefix's range). Values are the JSON's as text: JSON `true`/`false` as those words, numbers as
///   the engine prints them, so `user_metadata.vip:true` and `user_metadata.age:42` match a JSON boolean and
///   number. JSON `null` is no value; an object or an array exists but matches no value.
/// - `_exists_:field`: `IS NOT NULL`, and for the text columns also `<> ''`; for metadata, a row with the path.
/// - `NOT q`: `(q) IS NOT TRUE`, so `NOT email:x` also matches users without an e-mail address.
/// - A bare value: any of ``UserQueryField/bareTermFields`` matches it.
public func sqlPredicate(for query: UserQuery, dialect: SQLEngineKind) -> any SQLExpression {
    UserQuerySQLRenderer(engine: dialect).predicate(for: query)
}

struct UserQuerySQLRenderer {
    let engine: SQLEngineKind

    func predicate(for query: UserQuery) -> any SQLExpression {
        switch query {
        case .matchAll:
            SQLLiteral.boolean(true)
        case .term(let field?, let value):
            match(field, value)
        case .term(nil, let value):
            junction(UserQueryField.bareTermFields.map { match($0, value) }, .or)
        case .exists(let field):
            exists(field)
        case .not(let inner):
            SQLBinaryExpression(SQLGroupExpression(predicate(for: inner)), .isNot, SQLLiteral.boolean(true))
        case .and(let operands):
            junction(operands.map(predicate(for:)), .and)
        case .or(let operands):
            junction(operands.map(predicate(for:)), .or)
        }
    }

    /// `(a AND b …)` or `(a OR b …)`; with no operands, the operator's identity (`TRUE` for AND, `FALSE` for OR).
    private func junction(_ operands: [any SQLExpression], _ op: SQLBinaryOperator) -> any SQLExpression {
        switch operands.count {
        case 0: SQLLiteral.boolean(op == .and)
        case 1: operands[0]
        default: SQLGroupExpression(SQLList(operands, separator: SQLQueryString(" \(op) ")))
        }
    }

    private func match(_ field: UserQueryField, _ value: UserQueryValue) -> any SQLExpression {
        if field.column == .identities {
            return identityConnection(value)
        }
        if field.isMetadata {
            return metadataField(field, matching: value)
        }
        let subject = SQLColumn(field.column.rawValue)
        if field.isBoolean {
            return switch value {
            case .exact("true"): SQLBinaryExpression(subject, .is, SQLLiteral.boolean(true))
            case .exact("false"): SQLBinaryExpression(subject, .isNot, SQLLiteral.boolean(true))
            // The parser gives a boolean field nothing else; any other value is not a boolean's value.
            default: SQLLiteral.boolean(false)
            }
        }
        let folded = folded(field)
        switch (value, field.isCaseInsensitive) {
        case (.exact(let text), true):
            return SQLBinaryExpression(folded, .equal, lower(SQLBind(text)))
        case (.exact(let text), false):
            return SQLBinaryExpression(subject, .equal, SQLBind(text))
        case (.prefix(let text), true) where engine == .sqlite:
            let pattern = like(folded, lower(SQLBind(Self.likePattern(prefix: text))))
            return junction([Self.range(folded, prefix: Self.asciiLowercased(text)), pattern], .and)
        case (.prefix(let text), true):
            return like(folded, lower(SQLBind(Self.likePattern(prefix: text))))
        case (.prefix(let text), false) where engine == .sqlite:
            return junction([Self.range(subject, prefix: text), Self.startsWith(subject, text)], .and)
        case (.prefix(let text), false):
            return like(subject, SQLBind(Self.likePattern(prefix: text)))
        }
    }

    /// `EXISTS (SELECT 1 FROM user_fields WHERE user_id = users.user_id AND path = … AND <value>)`: the value's
    /// first ``UserFieldsProjection/indexedCharacters`` characters are compared through the index, and a text at
    /// least that long also with the whole value on the row (``metadataConditions(_:matching:)``).
    private func metadataField(_ field: UserQueryField, matching value: UserQueryValue?) -> any SQLExpression {
        let correlation = SQLBinaryExpression(
            SQLColumn("user_id", table: "f"), .equal, SQLColumn("user_id", table: "users"))
        let conditions = [correlation] + metadataConditions(field, matching: value)
        return SQLQueryString(
            "EXISTS (SELECT 1 FROM user_fields AS f WHERE \(SQLList(conditions, separator: SQLRaw(" AND "))))")
    }

    /// The metadata terms that every match satisfies — the query itself, or terms of its top-level `AND` — each
    /// as the conditions on `user_fields AS f` of its rows: where a search can start from the few users a rare
    /// value names (``SQLStore/searchUsers(_:sort:page:)``).
    func requiredMetadataTerms(of query: UserQuery) -> [[any SQLExpression]] {
        switch query {
        case .term(let field?, let value) where field.isMetadata:
            [metadataConditions(field, matching: value)]
        case .and(let operands):
            operands.flatMap(requiredMetadataTerms(of:))
        default:
            []
        }
    }

    /// The conditions on a `user_fields AS f` row of `field` (its path) holding `value` (any value when `nil`).
    private func metadataConditions(_ field: UserQueryField, matching value: UserQueryValue?) -> [any SQLExpression] {
        let stored = SQLColumn("value", table: "f")
        let indexed = SQLFunction(
            "substr", args: stored, SQLLiteral.numeric("1"),
            SQLLiteral.numeric("\(UserFieldsProjection.indexedCharacters)"))
        let limit = UserFieldsProjection.indexedCharacters
        // The path as the projection spells it: the field's name, `user_metadata.address.city`.
        var conditions: [any SQLExpression] = [
            SQLBinaryExpression(SQLColumn("path", table: "f"), .equal, SQLBind(field.description))
        ]
        switch value {
        case nil:
            break
        case .exact(let text):
            let head = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
            conditions.append(SQLBinaryExpression(indexed, .equal, SQLBind(head)))
            // A text shorter than the indexed part equals a value exactly when the value's indexed part does (a
            // longer value's part is longer than the text). Only a longer text needs the whole value compared:
            // the redundant comparison made PostgreSQL's planner expect a hundredth of the rows it found, and
            // hash every `plan:gold` user to count a thousand of them (issue 16).
            if text.unicodeScalars.count >= limit {
                conditions.append(SQLBinaryExpression(stored, .equal, SQLBind(text)))
            }
        case .prefix(let text) where text.unicodeScalars.count >= limit:
            let head = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
            conditions.append(SQLBinaryExpression(indexed, .equal, SQLBind(head)))
            conditions.append(Self.startsWith(stored, text))
        case .prefix(let text):
            conditions.append(Self.range(indexed, prefix: text))
        }
        return conditions
    }

    /// `substr(subject, 1, length(text)) = text`: the subject starts with `text`, compared exactly.
    private static func startsWith(_ subject: any SQLExpression, _ text: String) -> any SQLExpression {
        let start = SQLFunction(
            "substr", args: subject, SQLLiteral.numeric("1"), SQLFunction("length", args: SQLBind(text)))
        return SQLBinaryExpression(start, .equal, SQLBind(text))
    }

    /// `prefix <= subject AND subject < successor(prefix)`: under a bytewise comparison (SQLite's default,
    /// `COLLATE "C"` on PostgreSQL), exactly the subjects that start with `prefix`, as an index range.
    private static func range(_ subject: any SQLExpression, prefix: String) -> any SQLExpression {
        let atLeast = SQLBinaryExpression(subject, .greaterThanOrEqual, SQLBind(prefix))
        guard let upper = successor(of: prefix) else { return atLeast }
        return SQLGroupExpression(
            SQLList([atLeast, SQLBinaryExpression(subject, .lessThan, SQLBind(upper))], separator: SQLRaw(" AND ")))
    }

    /// The least string above every string that starts with `prefix` in Unicode scalar order (UTF-8's byte
    /// order): `prefix` with its last scalar incremented (surrogates skipped), after dropping trailing U+10FFFF;
    /// `nil` when there is none (`prefix` is empty or all U+10FFFF).
    static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                return String(String.UnicodeScalarView(scalars))
            }
        }
        return nil
    }

    /// `text` with the ASCII letters lowered, as SQLite's `lower()` does.
    private static func asciiLowercased(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
                }))
    }

    private func exists(_ field: UserQueryField) -> any SQLExpression {
        let subject = SQLColumn(field.column.rawValue)
        let notNull = SQLBinaryExpression(subject, .isNot, SQLLiteral.null)
        switch field.column {
        case .userID, .email, .name, .nickname:
            return junction([notNull, SQLBinaryExpression(subject, .notEqual, SQLLiteral.string(""))], .and)
        case .emailVerified, .blocked:
            return notNull
        case .userMetadata, .appMetadata:
            return metadataField(field, matching: nil)
        case .identities:
            return SQLLiteral.boolean(true)
        }
    }

    /// `identities.connection` (SPEC §15): the database connection's users by their id (their identity is not
    /// stored), every other connection's through `user_identities`.
    private func identityConnection(_ value: UserQueryValue) -> any SQLExpression {
        let name = SQLColumn("name", table: "c")
        let (condition, database): (any SQLExpression, Bool) =
            switch value {
            case .exact(let text): (SQLBinaryExpression(name, .equal, SQLBind(text)), text == Connection.databaseName)
            case .prefix(let text):
                (like(name, SQLBind(Self.likePattern(prefix: text))), Connection.databaseName.hasPrefix(text))
            }
        let stored: SQLQueryString = """
            EXISTS (SELECT 1 FROM user_identities AS i JOIN connections AS c ON c.id = i.connection_id \
            WHERE i.user_id = users.user_id AND \(condition))
            """
        guard database else { return stored }
        return junction([SQLQueryString("substr(users.user_id, 1, 6) = 'auth0|'"), stored], .or)
    }

    /// `lower(column)` of a case-insensitive field; on SQLite, `email` as it is: stored addresses are lower-cased
    /// in full and SQLite's `lower()` folds ASCII only, so the two are equal, and `email` has an index (migration
    /// 13 dropped the one on `lower(email)`).
    private func folded(_ field: UserQueryField) -> any SQLExpression {
        let column = SQLColumn(field.column.rawValue)
        return engine == .sqlite && field.column == .email ? column : lower(column)
    }

    private func lower(_ expression: any SQLExpression) -> any SQLExpression {
        SQLFunction("lower", args: expression)
    }

    private func like(_ subject: any SQLExpression, _ pattern: any SQLExpression) -> any SQLExpression {
        SQLQueryString("\(subject) LIKE \(pattern) ESCAPE \(literal: "\\")")
    }

    /// `prefix` with LIKE's `%`, `_` and the escape character `\` escaped, then `%`.
    private static func likePattern(prefix: String) -> String {
        var pattern = String.UnicodeScalarView()
        for scalar in prefix.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" {
                pattern.append("\\")
            }
            pattern.append(scalar)
        }
        return String(pattern) + "%"
    }
}
